"""ASCII lines for terminals that cannot show Unicode (``text.glyphs`` decides which those are).

Textual draws every border type, the scrollbars, the switch and the tabs' underline with box
and block characters, from tables of its own; in ASCII mode those tables are swapped for ASCII
ones (``+ - |`` for lines, a space where a block only paints a colour), and put back otherwise.
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
    """Draw Textual's lines and cut lines in ASCII (``on``) or with its own characters again."""
    for name, rows in _UNICODE_BORDERS.items():
        _border.BORDER_CHARS[name] = (
            tuple(tuple(ascii_line(c) for c in row) for row in rows) if on else rows  # type: ignore[assignment]
        )
    _border.get_box.cache_clear()
    vertical, horizontal = _UNICODE_BARS
    ScrollBarRender.VERTICAL_BARS = [" "] * len(vertical) if on else vertical
    ScrollBarRender.HORIZONTAL_BARS = [" "] * len(horizontal) if on else horizontal
    Bar.HALF_BAR_LEFT, Bar.BAR, Bar.HALF_BAR_RIGHT = ("-", "-", "-") if on else _UNICODE_BAR
    Text.truncate = _ascii_text_truncate if on else _UNICODE_TEXT_TRUNCATE  # type: ignore[method-assign]
    Content.truncate = _ascii_content_truncate if on else _UNICODE_CONTENT_TRUNCATE  # type: ignore[method-assign]
