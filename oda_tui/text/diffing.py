"""A coloured, word-level diff between two texts, as plain Rich ``Text`` (never markup)."""

from __future__ import annotations

import os

from rich.text import Text

from .glyphs import app_words
from .safe import clean_block
from .word_changes import word_changes

REMOVED = "bold red strike"
ADDED = "bold green underline"
#: Around removed and added words where there is no colour to tell them apart (``NO_COLOR``).
MARKS = {"removed": ("[-", "-]"), "added": ("{+", "+}")}


def colourless() -> bool:
    """True when the person asked for no colour (``NO_COLOR`` set and not empty)."""
    return bool(os.environ.get("NO_COLOR"))


def diff_legend(removed: str, added: str) -> str:
    """What the diff's two kinds of words mean, by what marks them on this terminal: ``red
    went, green came``, or under ``NO_COLOR`` ``[-…-] went, {+…+} came`` (the marks drawn)."""
    if not colourless():
        return f"red {removed}, green {added}"
    (opening, closing), (add_opening, add_closing) = MARKS["removed"], MARKS["added"]
    return app_words(f"{opening}…{closing} {removed}, {add_opening}…{add_closing} {added}")


def word_diff(before: str, after: str, *, marked: bool | None = None) -> Text:
    """``before`` turned into ``after``: removed words struck in red, added words in green;
    ``marked`` (by default: under ``NO_COLOR``) also writes them ``[-old-]`` and ``{+new+}``.

    Changes separated only by spaces are shown as one change, so a reworded sentence reads as
    the old sentence then the new one rather than word by word interleaved.
    """
    marked = colourless() if marked is None else marked
    text = Text()
    previous = "equal"
    for kind, run in word_changes(clean_block(before), clean_block(after)):
        if kind == "added" and previous == "removed" and not marked:
            text.append(" ")
        style = REMOVED if kind == "removed" else ADDED if kind == "added" else ""
        if marked and kind in MARKS:
            opening, closing = MARKS[kind]
            text.append(opening, style="bold")
            text.append(run, style=style)
            text.append(closing, style="bold")
        else:
            text.append(run, style=style)
        previous = kind
    return text
