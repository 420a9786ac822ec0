"""Plain-text helpers: user text never reaches the terminal as markup or control codes."""

from __future__ import annotations

import re

from rich.text import Text

# C0 controls except tab and newline, DEL, and the C1 range (which some terminals obey).
_CONTROL_BLOCK = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_CONTROL_ALL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def clean_block(text: str) -> str:
    """Text for a multi-line view: control characters gone, tabs and newlines kept."""
    return _CONTROL_BLOCK.sub("", text)


def clean_line(text: str) -> str:
    """Text for a one-line view: newlines and tabs become spaces, other controls go."""
    text = text.replace("\r\n", " ").replace("\n", " ").replace("\t", " ")
    return _CONTROL_ALL.sub("", text)


def plain(text: str, style: str = "") -> Text:
    """A Rich ``Text`` of one line of user text, never parsed as markup."""
    return Text(clean_line(text), style=style, no_wrap=True, overflow="ellipsis")
