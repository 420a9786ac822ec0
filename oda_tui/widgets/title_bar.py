"""The header's one line: the app's name, then what the screen says of itself, made to fit.

Textual cuts a title that does not fit at its end, with ``…``; here the app's name is kept and
what follows it is fitted instead. The main screen's line (``Summary``) says what needs a look
(problem files, reviews, duplicates) and then the root: the root is cut first, then the items
take their short form (the key first, as the footer shows keys), and only then is the end cut,
with the ASCII set's ``...`` where it applies.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from textual.content import Content

from ..text.glyphs import app_words, glyph

#: Columns the header keeps free on each side of its centred line (its icon is 8 wide).
SIDE_ROOM = 9
#: The fewest columns worth showing of a cut root (a shorter stump names nothing).
MIN_ROOT = 8


@dataclass(frozen=True)
class Summary:
    """The main screen's line: its items in full and in short (joined by ``dot``), and the root."""

    full: str
    short: str
    root: str
    dot: str

    @property
    def line(self) -> str:
        """The whole line (the screen's ``sub_title``)."""
        return f"{self.full}{self.dot}{self.root}" if self.full else self.root


def title_line(title: str, sub_title: str, width: int) -> Content:
    """``title — sub_title`` for a header ``width`` columns wide, ``sub_title`` cut at its end
    when it does not fit (and the title left out only when nothing else would)."""
    room = _room(width)
    if not sub_title:
        return Content(cut(title, room))
    head = title + _separator()
    if cell_len(head + sub_title) <= room:
        return _with_title(title, sub_title)
    if room - cell_len(head) >= MIN_ROOT:
        return _with_title(title, cut(sub_title, room - cell_len(head)))
    return Content(cut(sub_title, room)).stylize("dim")


def summary_line(title: str, summary: Summary, width: int) -> Content:
    """The main screen's header: the title, the items (in full, else in short) and as much of
    the root as fits; with no room for the items whole, their short form cut at the end."""
    room, root = _room(width), app_words(summary.root)
    head = title + _separator()
    for items in (app_words(summary.full), app_words(summary.short)):
        if not items:
            return title_line(title, root, width)
        if cell_len(head + items) > room:
            continue
        left = room - cell_len(head + items + summary.dot)
        if left >= min(MIN_ROOT, cell_len(root)):
            return _with_title(title, items + summary.dot + cut(root, left))
        return _with_title(title, items)
    return title_line(title, app_words(summary.short), width)


def _room(width: int) -> int:
    return max(width - 2 * SIDE_ROOM, 10)


def _separator() -> str:
    return f" {glyph('dash')} "


def _with_title(title: str, rest: str) -> Content:
    return Content.assemble(title, (_separator(), "dim"), Content(rest).stylize("dim"))


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
