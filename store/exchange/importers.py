"""Memories found in what other tools keep: pure parsers over text, no disk.

- **Markdown** (``CLAUDE.md``, ``AGENTS.md``, notes): each ``##`` section is one memory titled
  by its heading; text before the first ``##`` section is one more, titled by the file's ``#``
  heading or, without one, by the file's name; a file with no ``##`` heading is one memory
  titled by its first heading or its name. Headings inside fenced code do not count, the
  managed block an earlier ``oda-tui sync`` wrote is left out (those memories are ours), and a
  line that is only Claude Code imports (``@AGENTS.md``) is left out of the text (the file it
  names is read instead: ``store.exchange.import_sources``).
- **basic-memory** notes: a Markdown file whose frontmatter's ``title`` is the title and whose
  body is the text (a first ``# heading`` that repeats the title is left out), with its
  ``type`` and ``tags`` kept as lines of text.
- **Cursor rules** (``.mdc``): the frontmatter's ``description`` is the title (else the file's
  name), the body the text, below its ``globs`` kept as a line of text.
- **server-memory** JSONL: see ``store.exchange.server_memory``.

Every pattern here is linear in its input: no pattern can backtrack over a long run of spaces.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import yaml

from store.exchange.claude_imports import is_import_line
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
    #: What the item is, the same at every import of it (the memory keeps it as
    #: ``importedFrom``, so a later import changes that memory); "" when it has none.
    key: str = ""


# An ATX heading's opening: up to three spaces, one to six #, then a blank or the line's end.
# The rest of the line is trimmed with string methods (``_heading``), never with a pattern.
_ATX = re.compile(r" {0,3}(#{1,6})(?:[ \t]|\Z)")
_FENCE = re.compile(r"[ \t]{0,3}(`{3,}|~{3,})")


def heading(line: str) -> tuple[int, str] | None:
    """The level and text of an ATX heading line (its closing #s and blanks trimmed), or None."""
    opening = _ATX.match(line)
    if opening is None:
        return None
    content = line[opening.end() :].strip(" \t")
    trimmed = content.rstrip("#")
    if not trimmed:
        content = ""  # only a closing sequence
    elif trimmed != content and trimmed[-1] in " \t":
        content = trimmed.rstrip(" \t")
    return len(opening.group(1)), content


def outside_fences(lines: list[str]) -> list[bool]:
    """For each line, whether it is outside fenced code (a fence's own lines are inside)."""
    found: list[bool] = []
    fence: str | None = None
    for line in lines:
        opening = _FENCE.match(line)
        if fence is not None:
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence):
                fence = None
            found.append(False)
        elif opening:
            fence = opening.group(1)
            found.append(False)
        else:
            found.append(True)
    return found


def _headings(lines: list[str], plain: list[bool]) -> list[tuple[int, int, str]]:
    """(line index, level, heading) of each ATX heading with text, outside fenced code."""
    found: list[tuple[int, int, str]] = []
    for index, line in enumerate(lines):
        if plain[index]:
            parsed = heading(line)
            if parsed is not None and parsed[1]:
                found.append((index, parsed[0], parsed[1]))
    return found


def markdown_lines(text: str, name: str) -> list[str]:
    """A Markdown file's lines without the managed block of an earlier sync (LF, no BOM)."""
    try:
        text = without_block(text)
    except BlockProblem as exc:
        raise BadSource(f"{name}: {exc}; nothing was imported.") from None
    return text.replace("\r\n", "\n").removeprefix("\ufeff").split("\n")


def markdown_memories(
    text: str, name: str, stem: str, key: str = "", *, imports: bool = False
) -> list[Candidate]:
    """The memories of a Markdown file's text (``name``: the file as shown, ``stem``: its
    name without the extension, the title of last resort; ``key``: the file's own, which each
    memory's is made from; ``imports``: lines that are only ``@path`` imports are left out)."""
    lines = markdown_lines(text, name)
    plain = outside_fences(lines)
    if imports:
        kept = [k for k, line in enumerate(lines) if not (plain[k] and is_import_line(line))]
        lines, plain = [lines[k] for k in kept], [plain[k] for k in kept]
    headings = _headings(lines, plain)
    sections = [(i, title) for i, level, title in headings if level == 2]
    if not sections:
        first = headings[0] if headings else None
        body = "\n".join(line for k, line in enumerate(lines) if first is None or k != first[0])
        title = first[2] if first else stem
        return [Candidate(title, body.strip(), name, key)] if any(line.strip() for line in lines) else []
    found: list[Candidate] = []
    top = next(((i, t) for i, level, t in headings if level == 1 and i < sections[0][0]), None)
    preamble = "\n".join(line for k, line in enumerate(lines[: sections[0][0]]) if top is None or k != top[0])
    if preamble.strip():
        title = stem if top is None else top[1]
        found.append(Candidate(title, preamble.strip(), f"{name} (before the first ## section)", f"{key}#"))
    # A section runs to the next ## heading: a # heading inside it stays in its text, lost nowhere.
    seen: dict[str, int] = {}
    for number, (index, title) in enumerate(sections):
        stop = sections[number + 1][0] if number + 1 < len(sections) else len(lines)
        body = "\n".join(lines[index + 1 : stop]).strip()
        seen[title] = seen.get(title, 0) + 1
        repeat = f" ({seen[title]})" if seen[title] > 1 else ""
        found.append(Candidate(title, body, f"{name}, section “{title}”{repeat}", f"{key}#{title}{repeat}"))
    return found


def _frontmatter(text: str, name: str) -> tuple[dict[Any, Any] | None, str]:
    """A file's frontmatter as the store's safe YAML loader reads it (None: no block) and the
    body after it; ``BadSource`` when the block is not YAML."""
    split = split_frontmatter(text.removeprefix("\ufeff"))
    if split is None:
        return None, text
    fm_lines, body = split
    try:
        data = safe_load("\n".join(fm_lines)) if fm_lines else {}
    except yaml.YAMLError as exc:
        reason = " ".join(str(exc).split())[:120]
        raise BadSource(
            f"{name}: its frontmatter is not valid YAML ({reason}); nothing was imported."
        ) from None
    return (data if isinstance(data, dict) else {}), body


def basic_memory_note(text: str, name: str, stem: str, key: str = "") -> Candidate:
    """The memory of one basic-memory note: frontmatter ``title`` and the body, with its
    ``type`` (unless the default, ``note``) and ``tags`` as lines of text. ``key``: the note's
    own when it has no ``permalink`` (basic-memory's identity for a note, kept otherwise)."""
    data, body = _frontmatter(text, name)
    if data is None:
        found = markdown_memories(text, name, stem)
        joined = "\n\n".join(c.text for c in found)
        return Candidate(found[0].title if found else stem, joined, name, key)
    title = data.get("title")
    if not isinstance(title, str) or not title.strip():
        title = stem
    lines = body.strip().split("\n")
    first = heading(lines[0]) if lines else None
    if first is not None and first[0] == 1 and first[1] == title.strip():
        lines = lines[1:]
    permalink = data.get("permalink")
    if isinstance(permalink, str) and permalink.strip():
        key = f"basic-memory {permalink.strip()}"
    facts = []
    kind = data.get("type")
    if isinstance(kind, str) and kind.strip() and kind.strip() != "note":
        facts.append(f"Type: {kind.strip()}")
    tags = note_tags(data.get("tags"))
    if tags:
        facts.append(f"Tags: {', '.join(tags)}")
    text_of = "\n".join(lines).strip()
    if facts:
        text_of = "\n\n".join(part for part in (text_of, "\n".join(facts)) if part)
    return Candidate(title, text_of, name, key)


def note_tags(value: object) -> list[str]:
    """A note's ``tags`` as basic-memory reads them: a list, or text separated by commas (or a
    JSON list written as text); each without its leading ``#``."""
    if isinstance(value, str):
        stripped = value.strip()
        if stripped.startswith("[") and stripped.endswith("]"):
            try:
                value = json.loads(stripped)
            except ValueError:
                value = stripped[1:-1]
    if isinstance(value, str):
        raw: list[object] = [value]
    elif isinstance(value, list):
        raw = value
    else:
        return []
    found: list[str] = []
    for item in raw:
        if item is None or isinstance(item, (dict, list)):
            continue
        for tag in str(item).split(","):
            tag = tag.strip().lstrip("#").strip()
            if tag and tag not in found:
                found.append(tag)
    return found


_RULE_KEYS = ("description", "globs", "alwaysApply")


def cursor_rule(text: str, name: str, stem: str, key: str = "") -> Candidate:
    """The memory of one Cursor rule (``.mdc``): ``description`` the title (else the file's
    name), the body the text, below a line of its ``globs`` ("Applies to: web/**").

    Cursor writes ``globs: **/*.ts`` unquoted, which YAML cannot read (``*`` starts an alias):
    a block YAML refuses is read as the ``key: value`` lines Cursor itself writes."""
    split = split_frontmatter(text.removeprefix("\ufeff"))
    if split is None:
        return Candidate(stem, text.strip(), name, key)
    fm_lines, body = split
    data = _rule_fields(fm_lines)
    description = data.get("description")
    title = " ".join(description.split()) if isinstance(description, str) and description.strip() else stem
    globs = _globs(data.get("globs"))
    parts = [f"Applies to: {', '.join(globs)}"] if globs else []
    parts.append(body.strip())
    return Candidate(title, "\n\n".join(p for p in parts if p), name, key)


def _rule_fields(fm_lines: list[str]) -> dict[str, Any]:
    """A rule's frontmatter: by the store's safe YAML loader, or line by line when YAML
    refuses it (as Cursor reads it)."""
    try:
        data = safe_load("\n".join(fm_lines)) if fm_lines else {}
    except yaml.YAMLError:
        data = None
    if isinstance(data, dict):
        return data
    found: dict[str, Any] = {}
    for line in fm_lines:
        key, colon, value = line.partition(":")
        if colon and key.strip() in _RULE_KEYS and key.strip() not in found:
            found[key.strip()] = value.strip()
    return found


def _globs(value: object) -> list[str]:
    """A rule's ``globs``: a list, or text separated by commas (quotes around it dropped)."""
    items = value if isinstance(value, list) else [value] if isinstance(value, str) else []
    found: list[str] = []
    for item in items:
        if not isinstance(item, str):
            continue
        for glob in item.split(","):
            glob = glob.strip().strip("\"'").strip()
            if glob:
                found.append(glob)
    return found
