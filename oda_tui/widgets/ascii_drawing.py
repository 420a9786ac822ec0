"""ASCII lines for terminals that cannot show Unicode (``text.glyphs`` decides which those are).

Textual draws every border type, the scrollbars, the switch and the tabs' underline with box
and block characters, from tables of its own; in ASCII mode those tables are swapped for ASCII
ones (``+ - |`` for lines, blocks that draw a border included, so a dialog keeps its frame
without colour; a space where a block only paints a colour), and put back otherwise.
A line cut to fit ends in ``…`` (Rich's and Textual's truncation); in ASCII mode it ends in
``...`` instead.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual import _border
from textual.content import Content
from textual.renderables.bar import Bar
from textual.scrollbar import ScrollBarRender

from ..text.glyphs import ASCII

if TYPE_CHECKING:
    from rich.console import OverflowMethod

_UNICODE_BORDERS = dict(_border.BORDER_CHARS)
_UNICODE_BARS = (list(ScrollBarRender.VERTICAL_BARS), list(ScrollBarRender.HORIZONTAL_BARS))
_UNICODE_BAR = (Bar.HALF_BAR_LEFT, Bar.BAR, Bar.HALF_BAR_RIGHT)
_UNICODE_TEXT_TRUNCATE = Text.truncate
_UNICODE_CONTENT_TRUNCATE = Content.truncate
#: What ends a line cut to fit, in ASCII.
MORE = ASCII["more"]


def _ascii_text_truncate(
    self: Text, max_width: int, *, overflow: OverflowMethod | None = None, pad: bool = False
) -> None:
    """Rich's ``Text.truncate``, with ``...`` where it would end a cut line with ``…``."""
    if (
        (overflow or self.overflow) == "ellipsis"
        and max_width > len(MORE)
        and cell_len(self.plain) > max_width
    ):
        self.plain = set_cell_size(self.plain, max_width - len(MORE)) + MORE
    _UNICODE_TEXT_TRUNCATE(self, max_width, overflow=overflow, pad=pad)


def _ascii_content_truncate(
    self: Content, max_width: int, *, ellipsis: bool = False, pad: bool = False
) -> Content:
    """Textual's ``Content.truncate``, with ``...`` where it would end a cut line with ``…``."""
    if ellipsis and max_width > len(MORE) and self.cell_length > max_width:
        text = set_cell_size(self.plain, max_width - len(MORE)) + MORE
        return Content(text, self._trim_spans(text, self._spans), max_width, strip_control_codes=False)
    return _UNICODE_CONTENT_TRUNCATE(self, max_width, ellipsis=ellipsis, pad=pad)


#: Blocks that draw a line along one side of a cell: in ASCII, the line they stand for.
_ACROSS = set("▔▁▀▄")
_DOWN = set("▏▎▍▌▋▊▉▐▕")


def ascii_line(char: str, place: str = "") -> str:
    """The ASCII stand-in for one border character: ``-``, ``|``, ``+`` or a space.

    ``place`` is where it stands in a border (``corner``, ``across`` for the top and bottom,
    ``down`` for the sides): a block there is the border's own line (``thick`` and ``tall``
    borders are drawn with blocks), so it stays visible without colour. Elsewhere a block or
    a shade only paints a colour, and the space keeps that.
    """
    if char.isascii():
        return char
    name = unicodedata.name(char, "")
    if not name.startswith("BOX DRAWINGS"):
        if char in _ACROSS:
            return "-" if place else " "
        if char in _DOWN:
            return "|" if place else " "
        return {"corner": "+", "across": "-", "down": "|"}.get(place, " ")
    across = "HORIZONTAL" in name or ("LEFT" in name or "RIGHT" in name)
    down = "VERTICAL" in name or ("UP" in name or "DOWN" in name)
    if across and not down:
        return "-"
    if down and not across:
        return "|"
    return "+"


def _place(row: int, column: int) -> str:
    """Where a border table's cell stands: its corners, its top and bottom, or its sides."""
    if row != 1 and column != 1:
        return "corner"
    return "across" if row != 1 else "down" if column != 1 else ""


def draw_ascii(on: bool) -> None:
    """Draw Textual's lines and cut lines in ASCII (``on``) or with its own characters again."""
    for name, rows in _UNICODE_BORDERS.items():
        _border.BORDER_CHARS[name] = (
            tuple(tuple(ascii_line(c, _place(r, n)) for n, c in enumerate(row)) for r, row in enumerate(rows))  # type: ignore[assignment]
            if on
            else rows
        )
    _border.get_box.cache_clear()
    vertical, horizontal = _UNICODE_BARS
    ScrollBarRender.VERTICAL_BARS = [" "] * len(vertical) if on else vertical
    ScrollBarRender.HORIZONTAL_BARS = [" "] * len(horizontal) if on else horizontal
    Bar.HALF_BAR_LEFT, Bar.BAR, Bar.HALF_BAR_RIGHT = ("-", "-", "-") if on else _UNICODE_BAR
    Text.truncate = _ascii_text_truncate if on else _UNICODE_TEXT_TRUNCATE  # type: ignore[method-assign]
    Content.truncate = _ascii_content_truncate if on else _UNICODE_CONTENT_TRUNCATE  # type: ignore[method-assign]
