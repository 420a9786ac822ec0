"""Memories found in what other tools keep: pure parsers over text, no disk.

- **Markdown** (``CLAUDE.md``, ``AGENTS.md``, notes): each ``##`` section is one memory titled
  by its heading; text before the first ``##`` section (below a ``#`` heading) is one more,
  titled by that heading or the file's name; a file with no ``##`` heading is one memory
  titled by its first heading or its name. Headings inside fenced code do not count, and the
  managed block an earlier ``oda-tui sync`` wrote is left out (those memories are ours).
- **basic-memory** notes: a Markdown file whose frontmatter's ``title`` is the title and whose
  body is the text (a first ``# heading`` that repeats the title is left out).
- **server-memory** JSONL: one memory per entity, its name the title and its observations the
  text, one a line; relations are counted, not imported (a memory has no links).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import yaml

from store.exchange.managed_block import BlockProblem, without_block
from store.format.parse import split_frontmatter
from store.format.yaml_load import safe_load


class BadSource(ValueError):
    """Input that cannot be imported; ``str(err)`` is one line naming where."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """A memory found in a source: its title, its text and where it came from."""

    title: str
    text: str
    origin: str  # the file (and line, or section) it came from, for a person


_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")


def _headings(lines: list[str]) -> list[tuple[int, int, str]]:
    """(line index, level, heading) of each ATX heading outside fenced code."""
    found: list[tuple[int, int, str]] = []
    fence: str | None = None
    for index, line in enumerate(lines):
        opening = _FENCE.match(line)
        if fence is not None:
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence):
                fence = None
            continue
        if opening:
            fence = opening.group(1)
            continue
        match = _HEADING.match(line)
        if match:
            found.append((index, len(match.group(1)), match.group(2).strip()))
    return found


def markdown_memories(text: str, name: str, stem: str) -> list[Candidate]:
    """The memories of a Markdown file's text (``name``: the file as shown, ``stem``: its
    name without the extension, the title of last resort)."""
    try:
        text = without_block(text)
    except BlockProblem as exc:
        raise BadSource(f"{name}: {exc}; nothing was imported.") from None
    lines = text.replace("\r\n", "\n").removeprefix("\ufeff").split("\n")
    headings = _headings(lines)
    sections = [(i, title) for i, level, title in headings if level == 2]
    first = next((title for _i, _level, title in headings if title), stem)
    if not sections:
        body = "\n".join(line for k, line in enumerate(lines) if not _is_heading_line(k, first, headings))
        return [Candidate(first, body.strip(), name)] if body.strip() or text.strip() else []
    found: list[Candidate] = []
    top = [i for i, level, title in headings if level == 1 and i < sections[0][0]]
    preamble = lines[(top[0] + 1 if top else 0) : sections[0][0]]
    if "\n".join(preamble).strip():
        found.append(Candidate(first, "\n".join(preamble).strip(), f"{name} (before the first ## section)"))
    # A section runs to the next ## heading: a # heading inside it stays in its text, lost nowhere.
    bounds = [i for i, _title in sections]
    for index, title in sections:
        stop = next((b for b in bounds if b > index), len(lines))
        body = "\n".join(lines[index + 1 : stop]).strip()
        found.append(Candidate(title, body, f"{name}, section “{title}”"))
    return found


def _is_heading_line(index: int, title: str, headings: list[tuple[int, int, str]]) -> bool:
    """True for the line of the first heading, when it is the memory's title."""
    return bool(headings) and headings[0][0] == index and headings[0][2] == title


def basic_memory_note(text: str, name: str, stem: str) -> Candidate:
    """The memory of one basic-memory note: frontmatter ``title`` and the body."""
    split = split_frontmatter(text.removeprefix("\ufeff"))
    if split is None:
        found = markdown_memories(text, name, stem)
        body = "\n\n".join(c.text for c in found)
        return Candidate(found[0].title if found else stem, body, name)
    fm_lines, body = split
    try:
        data = safe_load("\n".join(fm_lines)) if fm_lines else {}
    except yaml.YAMLError as exc:
        reason = " ".join(str(exc).split())[:120]
        raise BadSource(
            f"{name}: its frontmatter is not valid YAML ({reason}); nothing was imported."
        ) from None
    title = data.get("title") if isinstance(data, dict) else None
    if not isinstance(title, str) or not title.strip():
        title = stem
    lines = body.strip().split("\n")
    heading = _HEADING.match(lines[0]) if lines else None
    if heading and len(heading.group(1)) == 1 and heading.group(2).strip() == title.strip():
        lines = lines[1:]
    return Candidate(title, "\n".join(lines).strip(), name)


@dataclass(frozen=True, slots=True)
class Graph:
    """What a server-memory file holds: one candidate per entity, and how many relations."""

    entities: list[Candidate]
    relations: int


def server_memory_entities(text: str, name: str) -> Graph:
    """The entities of server-memory's JSONL: one JSON object a line (blank lines skipped)."""
    found: list[Candidate] = []
    relations = 0
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            raise BadSource(f"{name}: line {number} is not JSON; nothing was imported.") from None
        kind = record.get("type") if isinstance(record, dict) else None
        if kind == "relation":
            relations += 1
            continue
        if kind != "entity" or not isinstance(record.get("name"), str):
            raise BadSource(
                f"{name}: line {number} is not a server-memory entity or relation; nothing was imported."
            )
        observations = record.get("observations", [])
        if not isinstance(observations, list) or not all(isinstance(o, str) for o in observations):
            raise BadSource(
                f"{name}: line {number}: its observations are not a list of text; nothing was imported."
            )
        found.append(Candidate(record["name"], "\n".join(observations), f"{name}, line {number}"))
    return Graph(found, relations)
