"""How the editor counts and words a memory: lengths as the store counts them, the limits, the
one token figure, and the unknown frontmatter keys."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from store import entry_tokens

from ..text.format import count
from ..text.glyphs import glyph
from ..text.safe import clean_line


def title_length(title: str) -> int:
    """The title's length as the store counts it: one line, single spaces."""
    return len(" ".join(title.split()))


def text_length(text: str) -> int:
    """The text's length as the store counts it: trimmed at the ends."""
    return len(text.strip())


@dataclass(frozen=True)
class Limits:
    """The two limits the editor counts against."""

    title: int = 120
    text: int = 2000


def tokens_text(title: str, text: str) -> str:
    """The one token figure of a memory, said so it is not taken for the chat's total."""
    return f"Adds {glyph('about')} {count(entry_tokens(title, text))} tokens to a chat"


def extra_text(extra: dict[Any, Any]) -> str:
    """Unknown frontmatter keys, one ``key: value`` each (F2 shows them as written)."""
    return " · ".join(f"{clean_line(str(key))}: {clean_line(str(value))}" for key, value in extra.items())
