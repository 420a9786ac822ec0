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
