"""Cell widths as terminals draw them, where Rich's table and the terminals disagree.

Rich measures an emoji skin-tone modifier (U+1F3FB..U+1F3FF) as part of the emoji before it:
``👍🏽`` is two cells. Most terminals draw the modifier as a second wide character instead (tmux,
xterm, VTE, the Linux console): four cells, so a row holding it was two cells wider on screen than
Textual laid it out, and its right border was pushed off. Measured as four, the row keeps its
border there; a terminal that joins the pair (kitty, WezTerm) draws it two cells short, which
leaves a gap and loses nothing. An emoji joined by zero-width joiners (a family) is one picture,
two cells, in Rich and in those terminals alike: it needs nothing here.
"""

from __future__ import annotations

from rich import cells
from rich._unicode_data import load

#: The emoji modifiers (Fitzpatrick skin tones), and the width terminals give each.
MODIFIERS = (0x1F3FB, 0x1F3FF)
DRAWN_WIDTH = 2


def measure_modifiers_as_drawn() -> None:
    """Make Rich (and so Textual) measure a skin-tone modifier as the wide character terminals
    draw; once, before anything is measured (the measures are cached)."""
    widths = load("auto").widths
    entry = (*MODIFIERS, 0)
    if not isinstance(widths, list) or entry not in widths:
        return  # a table that already says so, or keeps them elsewhere: left as it is
    widths[widths.index(entry)] = (*MODIFIERS, DRAWN_WIDTH)
    cells.get_character_cell_size.cache_clear()
    cells.cached_cell_len.cache_clear()
