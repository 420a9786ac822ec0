"""Timestamps as the files write them: ISO 8601, UTC, milliseconds (``2026-11-29T21:52:34.123Z``)."""

from __future__ import annotations

from datetime import UTC, datetime


def now_utc() -> datetime:
    """The current moment, in UTC, to the millisecond."""
    return truncate_ms(datetime.now(UTC))


def truncate_ms(moment: datetime) -> datetime:
    """Drop everything below the millisecond."""
    return moment.replace(microsecond=moment.microsecond // 1000 * 1000)


def parse_timestamp(text: str) -> datetime | None:
    """An ISO 8601 timestamp as an aware UTC datetime (a naive one is taken as UTC), else None."""
    text = text.strip()
    if not text or len(text) > 64:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is UTC and not moment.microsecond % 1000:
        return moment  # already UTC to the millisecond, as the store writes it
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        return truncate_ms(moment.astimezone(UTC))
    except (OverflowError, ValueError):
        return None


def format_timestamp(moment: datetime) -> str:
    """The written form: UTC with milliseconds and a Z."""
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def format_moment(moment: datetime) -> str:
    """A version name's moment: ``YYYYMMDDTHHMMSSmmmZ`` in UTC."""
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y%m%dT%H%M%S") + f"{moment.microsecond // 1000:03d}Z"


def parse_moment(text: str) -> datetime | None:
    """The inverse of ``format_moment``; None when ``text`` is not of that form."""
    if len(text) != 19 or text[8] != "T" or text[-1] != "Z" or not text[:8].isdigit():
        return None
    digits = text[:8] + text[9:15] + text[15:18]
    if not digits.isdigit() or not digits.isascii():
        return None
    try:  # by hand: strptime costs more than the rest of a version's name together
        return datetime(
            int(text[0:4]),
            int(text[4:6]),
            int(text[6:8]),
            int(text[9:11]),
            int(text[11:13]),
            int(text[13:15]),
            int(text[15:18]) * 1000,
            tzinfo=UTC,
        )
    except ValueError:
        return None
