"""The limits one installation applies: the spec's defaults and the range each may be set to
(``store.read.settings`` reads them from ``settings.yaml``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    """Title, text, file, chat and history limits (the spec's defaults)."""

    title_max_chars: int = 120
    text_max_chars: int = 2000
    file_max_bytes: int = 65536
    chat_max_tokens: int = 8000
    versions_kept: int = 10


RANGES: dict[str, tuple[int, int]] = {
    "title_max_chars": (10, 1000),
    "text_max_chars": (100, 100000),
    "file_max_bytes": (1024, 10485760),
    "chat_max_tokens": (500, 1000000),
    "versions_kept": (2, 100),
}
