"""Claude Code's imports in a Markdown file: ``@path`` pulls in another file.

As Claude Code reads them (its memory documentation): an ``@`` at the start of a line or
after a blank, then the path (``\\ `` for a blank inside it); never inside fenced code or a
code span. Only a mention that names a file (it holds a ``/`` or a ``.``) is taken as an
import here, so a mention of a person (``@alice``) stays text. Pure, and linear in the text.
"""

from __future__ import annotations

import re

# A mention: "@" after a blank or at the start, then characters that are not blanks (a
# backslash only as "\ "). The two alternatives never match the same character: no backtracking.
_MENTION = re.compile(r"(?<!\S)@((?:[^\s\\]|\\ )+)")
_BACKTICKS = re.compile(r"`+")


def without_code_spans(line: str) -> str:
    """The line with every code span's characters (backticks included) replaced by blanks.

    A run of N backticks opens a span that the next run of exactly N closes (CommonMark); a
    run with no partner is literal. Each run's partner is found in one backward pass."""
    runs = [(m.start(), m.end()) for m in _BACKTICKS.finditer(line)]
    if len(runs) < 2:
        return line
    partner: list[int | None] = [None] * len(runs)
    last: dict[int, int] = {}
    for index in range(len(runs) - 1, -1, -1):
        length = runs[index][1] - runs[index][0]
        partner[index] = last.get(length)
        last[length] = index
    parts: list[str] = []
    position = index = 0
    while index < len(runs):
        closing = partner[index]
        if closing is None:
            index += 1
            continue
        start, end = runs[index][0], runs[closing][1]
        parts.append(line[position:start])
        parts.append(" " * (end - start))
        position, index = end, closing + 1
    parts.append(line[position:])
    return "".join(parts)


def _paths(line: str) -> list[str]:
    """The import paths a line outside fenced code mentions."""
    found: list[str] = []
    for match in _MENTION.finditer(without_code_spans(line)):
        path = match.group(1).replace("\\ ", " ")
        if "/" in path or "." in path:
            found.append(path)
    return found


def is_import_line(line: str) -> bool:
    """True for a line (outside fenced code) that holds imports and nothing else."""
    words = line.split()
    return bool(words) and all(word.startswith("@") for word in words) and len(_paths(line)) == len(words)


def import_paths(lines: list[str], plain: list[bool]) -> list[str]:
    """Every import path the lines mention, in order, once each (``plain[i]``: line ``i`` is
    outside fenced code)."""
    found: dict[str, None] = {}
    for line, outside in zip(lines, plain, strict=True):
        if outside and "@" in line:
            found.update(dict.fromkeys(_paths(line)))
    return list(found)


__all__ = ["import_paths", "is_import_line", "without_code_spans"]
