"""Which words changed between two texts: the pure part of the word diff, no Rich, no Textual
(the app colours it, the command line marks it as ``[-removed-]{+added+}``)."""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from typing import Literal

_TOKENS = re.compile(r"\s+|[^\s]+")

Kind = Literal["equal", "removed", "added"]


def word_changes(before: str, after: str) -> list[tuple[Kind, str]]:
    """``before`` turned into ``after`` as runs of kept, removed and added text, in order
    (a removed run comes before the added run that replaces it).

    Changes separated only by spaces are one change, so a reworded sentence reads as the old
    sentence then the new one rather than word by word interleaved.
    """
    old = _TOKENS.findall(before)
    new = _TOKENS.findall(after)
    # Each chunk: whether it is kept, and its token spans in old and new.
    chunks: list[tuple[bool, int, int, int, int]] = []
    for op, a1, a2, b1, b2 in SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        merge = chunks and not chunks[-1][0] and (op != "equal" or not "".join(old[a1:a2]).strip())
        if merge:
            chunks[-1] = (False, chunks[-1][1], a2, chunks[-1][3], b2)
        else:
            chunks.append((op == "equal", a1, a2, b1, b2))
    runs: list[tuple[Kind, str]] = []
    for kept, a1, a2, b1, b2 in chunks:
        removed = "".join(old[a1:a2])
        if kept:
            runs.append(("equal", removed))
            continue
        added = "".join(new[b1:b2])
        if removed:
            runs.append(("removed", removed))
        if added:
            runs.append(("added", added))
    return runs


def marked(before: str, after: str) -> str:
    """The word diff as plain text, marked as ``git diff --word-diff=plain`` does."""
    parts = []
    for kind, run in word_changes(before, after):
        parts.append(run if kind == "equal" else f"[-{run}-]" if kind == "removed" else f"{{+{run}+}}")
    return "".join(parts)
