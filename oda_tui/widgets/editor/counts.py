"""How the editor counts and words a memory: lengths as the store counts them, the limits, the
one token figure, and the unknown frontmatter keys."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from store import entry_tokens, normalize_text, normalize_title

from ...text.format import count
from ...text.glyphs import glyph
from ...text.safe import clean_line


def title_length(title: str) -> int:
    """The title's length as the store counts it: one line, single spaces."""
    return len(normalize_title(title))


def text_length(text: str) -> int:
    """The text's length as the store counts it: trimmed at the ends."""
    return len(normalize_text(text))


@dataclass(frozen=True)
class Limits:
    """The two limits the editor counts against."""

    title: int = 120
    text: int = 2000


def tokens_text(title: str, text: str, *, enabled: bool = True) -> str:
    """The one token figure of a memory, counted as the store will keep it and said so it is not
    taken for the chat's total; a memory that is off adds nothing, so it says what it would add."""
    tokens = count(entry_tokens(normalize_title(title), normalize_text(text)))
    if enabled:
        return f"Adds {glyph('about')} {tokens} tokens to a chat"
    return f"Would add {glyph('about')} {tokens} tokens to a chat once on"


def extra_text(extra: dict[Any, Any]) -> str:
    """Unknown frontmatter keys, one ``key: value`` each (F2 shows them as written)."""
    return " {glyph('dot')} ".join(
        f"{clean_line(str(key))}: {clean_line(str(value))}" for key, value in extra.items()
    )
