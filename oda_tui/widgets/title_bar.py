"""The header's one line: the app's name, then what the screen says of itself, made to fit.

Textual cuts a title that does not fit at its end, with ``…``; the end of the main screen's line
is what matters most (problem files, duplicates), so the line is fitted here instead: the app's
name goes first, then the line is cut at the end, with the ASCII set's ``...`` where it applies.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual.content import Content

from ..text.glyphs import glyph

#: Columns the header keeps free on each side of its centred line (its icon is 8 wide).
SIDE_ROOM = 9


def title_line(title: str, sub_title: str, width: int) -> Content:
    """``title — sub_title`` for a header ``width`` columns wide: without the title when both do
    not fit, and cut at the end when the sub-title alone does not."""
    room = max(width - 2 * SIDE_ROOM, 10)
    if not sub_title:
        return Content(cut(title, room))
    separator = f" {glyph('dash')} "
    if cell_len(title + separator + sub_title) <= room:
        return Content.assemble(title, (separator, "dim"), Content(sub_title).stylize("dim"))
    return Content(cut(sub_title, room)).stylize("dim")


def cut(text: str, room: int) -> str:
    """``text`` cut to ``room`` columns, with the glyph set's ellipsis when it was cut."""
    if cell_len(text) <= room:
        return text
    more = glyph("more")
    kept = ""
    for char in text:
        if cell_len(kept + char + more) > room:
            break
        kept += char
    return kept + more
