"""``import --split``: a found memory over the text limit cut into numbered memories.

The text is cut at paragraph boundaries (a blank line outside fenced code; a fenced block
stays with its paragraph), then, for a paragraph longer than the limit, at line ends, then,
for a line longer than the limit, at the last blank before the limit (or at the limit). The
pieces are packed in order, each as full as the limit allows: "Testing (1/3)", "(2/3)",
"(3/3)". Nothing is dropped but the blank lines where a cut falls. Linear in the text.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from store.exchange.importers import Candidate, outside_fences
from store.format.fields import normalize_text


def split_long(candidates: list[Candidate], limit: int) -> list[Candidate]:
    """``candidates`` with each whose text is over ``limit`` characters replaced by its parts."""
    found: list[Candidate] = []
    for candidate in candidates:
        text = normalize_text(candidate.text)
        if len(text) <= limit:
            found.append(candidate)
            continue
        pieces = cut(text, limit)
        total = len(pieces)
        for number, piece in enumerate(pieces, start=1):
            found.append(
                replace(
                    candidate,
                    title=f"{candidate.title} ({number}/{total})",
                    text=piece,
                    origin=f"{candidate.origin}, part {number} of {total}",
                    key=f"{candidate.key} part {number}" if candidate.key else "",
                )
            )
    return found


def cut(text: str, limit: int) -> list[str]:
    """``text`` (trimmed) as pieces of at most ``limit`` characters each."""
    pieces: list[str] = []
    current: list[str] = []
    size = 0
    for joiner, unit in _units(text, limit):
        grown = size + (len(joiner) if current else 0) + len(unit)
        if current and grown > limit:
            pieces.append("".join(current).strip())
            current, size = [unit], len(unit)
        else:
            current.extend((joiner, unit) if current else (unit,))
            size = grown
    if current:
        pieces.append("".join(current).strip())
    return [piece for piece in pieces if piece]


def _units(text: str, limit: int) -> Iterator[tuple[str, str]]:
    """The text as (what joins it to the one before, unit) pairs, each unit within the limit:
    paragraphs; a paragraph over the limit as its lines; a line over the limit in pieces."""
    for paragraph in _paragraphs(text):
        if len(paragraph) <= limit:
            yield "\n\n", paragraph
            continue
        joiner = "\n\n"
        for line in paragraph.split("\n"):
            if len(line) <= limit:
                yield joiner, line
            else:
                for number, part in enumerate(_words(line, limit)):
                    yield (joiner if number == 0 else " "), part
            joiner = "\n"


def _words(line: str, limit: int) -> list[str]:
    """A line over the limit, cut at the last blank before the limit (or at the limit)."""
    found: list[str] = []
    start = 0
    while len(line) - start > limit:
        at = line.rfind(" ", start + 1, start + limit + 1)
        at = at if at > start else start + limit
        found.append(line[start:at].rstrip())
        start = at
        while start < len(line) and line[start] == " ":
            start += 1
    found.append(line[start:])
    return found


def _paragraphs(text: str) -> list[str]:
    """The paragraphs of ``text``: runs of lines between blank lines outside fenced code."""
    lines = text.split("\n")
    plain = outside_fences(lines)
    found: list[str] = []
    current: list[str] = []
    for line, outside in zip(lines, plain, strict=True):
        if outside and not line.strip():
            if current:
                found.append("\n".join(current))
                current = []
        else:
            current.append(line)
    if current:
        found.append("\n".join(current))
    return found
