"""ASCII lines for terminals that cannot show Unicode (``text.glyphs`` decides which those are).

Textual draws every border type, the scrollbars, the switch and the tabs' underline with box
and block characters, from tables of its own; in ASCII mode those tables are swapped for ASCII
ones (``+ - |`` for lines, a space where a block only paints a colour), and put back otherwise.
"""

from __future__ import annotations

import unicodedata

from textual import _border
from textual.renderables.bar import Bar
from textual.scrollbar import ScrollBarRender

_UNICODE_BORDERS = dict(_border.BORDER_CHARS)
_UNICODE_BARS = (list(ScrollBarRender.VERTICAL_BARS), list(ScrollBarRender.HORIZONTAL_BARS))
_UNICODE_BAR = (Bar.HALF_BAR_LEFT, Bar.BAR, Bar.HALF_BAR_RIGHT)


def ascii_line(char: str) -> str:
    """The ASCII stand-in for one border character: ``-``, ``|``, ``+``, or a space for a block."""
    if char.isascii():
        return char
    name = unicodedata.name(char, "")
    if not name.startswith("BOX DRAWINGS"):
        return " "  # a block or a shade: it paints a colour, the space keeps that
    across = "HORIZONTAL" in name or ("LEFT" in name or "RIGHT" in name)
    down = "VERTICAL" in name or ("UP" in name or "DOWN" in name)
    if across and not down:
        return "-"
    if down and not across:
        return "|"
    return "+"


def draw_ascii(on: bool) -> None:
    """Draw Textual's lines in ASCII (``on``) or with its own characters again."""
    for name, rows in _UNICODE_BORDERS.items():
        _border.BORDER_CHARS[name] = (
            tuple(tuple(ascii_line(c) for c in row) for row in rows) if on else rows  # type: ignore[assignment]
        )
    _border.get_box.cache_clear()
    vertical, horizontal = _UNICODE_BARS
    ScrollBarRender.VERTICAL_BARS = [" "] * len(vertical) if on else vertical
    ScrollBarRender.HORIZONTAL_BARS = [" "] * len(horizontal) if on else horizontal
    Bar.HALF_BAR_LEFT, Bar.BAR, Bar.HALF_BAR_RIGHT = ("-", "-", "-") if on else _UNICODE_BAR
