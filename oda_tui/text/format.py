"""How numbers and moments are written on screen."""

from __future__ import annotations

from datetime import datetime

from .glyphs import glyph


def local_moment(moment: datetime | None, *, now: datetime | None = None) -> str:
    """A compact local time: "14:05" today, "Mar 03" this year, else "23-03-03"."""
    if moment is None:
        return glyph("dash")
    local = moment.astimezone() if moment.tzinfo else moment
    now = now or datetime.now(local.tzinfo)
    if local.date() == now.date():
        return local.strftime("%H:%M")
    if local.year == now.year:
        return local.strftime("%b %d")
    return local.strftime("%y-%m-%d")


def full_moment(moment: datetime | None) -> str:
    """A full local time for the editor's read-only fields."""
    if moment is None:
        return glyph("dash")
    local = moment.astimezone() if moment.tzinfo else moment
    return local.strftime("%Y-%m-%d %H:%M:%S")


def count(n: int) -> str:
    """A whole number with thousands separators: 5,230."""
    return f"{n:,}"


def position(index: int, total: int) -> str:
    """Where a list's cursor is, as a list's border shows it: ``12/1,111`` (row 12 of 1,111);
    empty for an empty list."""
    return f"{count(index + 1)}/{count(total)}" if total else ""


def page_step(pages: float, page: int) -> int:
    """The rows a move of ``pages`` pages (``-0.5``: half a page up) covers, ``page`` rows a
    page: at least one row."""
    rows = max(1, int(abs(pages) * page))
    return rows if pages > 0 else -rows
