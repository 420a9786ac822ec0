"""A coloured, word-level diff between two texts, as plain Rich ``Text`` (never markup)."""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from typing import Any

from rich.text import Text

from .safe import clean_block

_TOKENS = re.compile(r"\s+|[^\s]+")

REMOVED = "bold red strike"
ADDED = "bold green underline"


def word_diff(before: str, after: str) -> Text:
    """``before`` turned into ``after``: removed words struck in red, added words in green.

    Changes separated only by spaces are shown as one change, so a reworded sentence reads as
    the old sentence then the new one rather than word by word interleaved.
    """
    old = _TOKENS.findall(clean_block(before))
    new = _TOKENS.findall(clean_block(after))
    chunks: list[list[Any]] = []
    for op, a1, a2, b1, b2 in SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        merge = chunks and chunks[-1][0] == "change" and (op != "equal" or not "".join(old[a1:a2]).strip())
        if merge:
            chunks[-1][2], chunks[-1][4] = a2, b2
        else:
            chunks.append(["equal" if op == "equal" else "change", a1, a2, b1, b2])
    text = Text()
    for kind, a1, a2, b1, b2 in chunks:
        if kind == "equal":
            text.append("".join(old[a1:a2]))
            continue
        removed, added = "".join(old[a1:a2]), "".join(new[b1:b2])
        if removed:
            text.append(removed, style=REMOVED)
        if removed and added:
            text.append(" ")
        if added:
            text.append(added, style=ADDED)
    return text
