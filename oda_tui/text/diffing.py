"""A coloured, word-level diff between two texts, as plain Rich ``Text`` (never markup)."""

from __future__ import annotations

from rich.text import Text

from .safe import clean_block
from .word_changes import word_changes

REMOVED = "bold red strike"
ADDED = "bold green underline"


def word_diff(before: str, after: str) -> Text:
    """``before`` turned into ``after``: removed words struck in red, added words in green.

    Changes separated only by spaces are shown as one change, so a reworded sentence reads as
    the old sentence then the new one rather than word by word interleaved.
    """
    text = Text()
    previous = "equal"
    for kind, run in word_changes(clean_block(before), clean_block(after)):
        if kind == "added" and previous == "removed":
            text.append(" ")
        text.append(run, style=REMOVED if kind == "removed" else ADDED if kind == "added" else "")
        previous = kind
    return text
