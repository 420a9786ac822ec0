"""The history area: each memory's kept versions and its deletion record.

Layout, under ``<root>/history/<global | workspaces/KEY>/<id>/``:

- ``versions/<YYYYMMDDTHHMMSSmmmZ>-<source>[-N].md`` — one kept version, a memory file itself;
- ``deleted.md`` — the file's exact bytes when it was deleted;
- ``deleted.json`` — when, its title, and whether it was a problem file (present = deleted).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from .atomic import remove_durably, write_atomic
from .limits import Limits
from .memoryfile import Document, Fields, parse_bytes, render_new
from .model import Version
from .safe_io import DELETION_META_MAX_BYTES, Unsafe, list_names, read_regular, remove_tree
from .timestamps import format_moment, format_timestamp, parse_moment, parse_timestamp

VERSIONS = "versions"
DELETED_BYTES = "deleted.md"
DELETED_META = "deleted.json"
SOURCES = ("chat", "settings", "restore", "undo", "external", "found")
_NAME = re.compile(r"(\d{8}T\d{9}Z)-([a-z]+)(?:-(\d+))?\.md\Z")
# Versions are read with generous limits: a version stays readable after limits are lowered.
# A version or a deletion record is a memory file: never read past the largest file any
# setting allows, plus room for the frontmatter.
READ_LIMITS = Limits(
    title_max_chars=10**6, text_max_chars=10**7, file_max_bytes=10485760 + 65536, versions_kept=100
)


@dataclass(frozen=True, slots=True)
class DeletionRecord:
    """What ``deleted.json`` says, with the bytes kept beside it."""

    title: str
    deleted_at: datetime
    problem: bool
    raw: bytes


def _sort_key(name: str) -> tuple[str, int]:
    m = _NAME.match(name)
    assert m is not None
    return m.group(1), int(m.group(3) or 1)


def version_names(root: Path, hdir: Path) -> list[str]:
    """The file names of a memory's versions, oldest first (none when the folder, or one on
    the way to it, is a link or not a folder)."""
    try:
        names = [n for n in list_names(root, hdir / VERSIONS) if _NAME.match(n)]
    except OSError:
        return []
    return sorted(names, key=_sort_key)


def read_version(root: Path, hdir: Path, file_name: str) -> Version | None:
    """One version, or None when its file is gone, unreadable, too large or not a regular file."""
    m = _NAME.match(file_name)
    if m is None:
        return None
    try:
        raw = read_regular(root, hdir / VERSIONS / file_name, READ_LIMITS.file_max_bytes)
    except OSError:
        return None
    doc = parse_bytes(raw, READ_LIMITS)
    moment = parse_moment(m.group(1))
    if not isinstance(doc, Document) or moment is None:
        return None
    return Version(
        name=file_name[:-3], moment=moment, source=m.group(2), title=doc.fields.title, text=doc.text
    )


def newest_version(root: Path, hdir: Path) -> Version | None:
    """The newest readable version, reading no more files than needed."""
    for name in reversed(version_names(root, hdir)):
        version = read_version(root, hdir, name)
        if version is not None:
            return version
    return None


def list_versions(root: Path, hdir: Path) -> list[Version]:
    """Every readable version, newest first."""
    found = (read_version(root, hdir, n) for n in reversed(version_names(root, hdir)))
    return [v for v in found if v is not None]


def add_version(
    root: Path,
    hdir: Path,
    *,
    moment: datetime,
    source: str,
    title: str,
    text: str,
    memory_source: str,
    keep: int,
) -> Version | None:
    """Keep (title, text) as the newest version; None when it already is the newest.

    An older version with the same title and text is dropped, so each is kept once, and only
    the ``keep`` newest remain.
    """
    existing = list_versions(root, hdir)
    if existing and (existing[0].title, existing[0].text) == (title, text):
        return None
    if existing and moment < existing[0].moment:
        moment = existing[0].moment  # a clock that went back must not reorder history
    stamp = format_moment(moment)
    same_moment = [v for v in existing if v.name.startswith(stamp)]
    name = f"{stamp}-{source}" + (f"-{len(same_moment) + 1}" if same_moment else "")
    fields = Fields(title=title, enabled=True, source=memory_source)
    write_atomic(hdir / VERSIONS / f"{name}.md", render_new(fields, text).encode("utf-8"), root=root)
    survivors = [v for v in existing if (v.title, v.text) != (title, text)]
    doomed = [v for v in existing if (v.title, v.text) == (title, text)] + survivors[keep - 1 :]
    for old in doomed:
        remove_durably(hdir / VERSIONS / f"{old.name}.md", root=root)
    return Version(name=name, moment=moment, source=source, title=title, text=text)


def write_deletion(root: Path, hdir: Path, raw: bytes, title: str, moment: datetime, problem: bool) -> None:
    """Keep a deleted file's bytes and say when it was deleted."""
    write_atomic(hdir / DELETED_BYTES, raw, root=root)
    meta = {"deleted_at": format_timestamp(moment), "title": title, "problem": problem}
    write_atomic(hdir / DELETED_META, json.dumps(meta, ensure_ascii=False).encode("utf-8"), root=root)


def read_deletion(root: Path, hdir: Path) -> DeletionRecord | None:
    """The deletion record of a memory, or None when it is not deleted (or unreadable, or
    larger than any memory file can be). Raises ``safe_io.Unsafe`` when it, or a folder on
    the way, is a link or not what it should be: nothing is read through it."""
    try:
        meta = json.loads(read_regular(root, hdir / DELETED_META, DELETION_META_MAX_BYTES).decode("utf-8"))
        raw = read_regular(root, hdir / DELETED_BYTES, READ_LIMITS.file_max_bytes)
    except Unsafe:
        raise
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(meta, dict):
        return None
    moment = parse_timestamp(str(meta.get("deleted_at", "")))
    if moment is None:
        return None
    return DeletionRecord(
        title=str(meta.get("title", "")),
        deleted_at=moment,
        problem=meta.get("problem") is True,  # only the JSON true: "false" is not true
        raw=raw,
    )


def clear_deletion(root: Path, hdir: Path) -> None:
    """Forget the deletion record (the memory is back)."""
    remove_durably(hdir / DELETED_META, root=root)
    remove_durably(hdir / DELETED_BYTES, root=root)


def purge(root: Path, hdir: Path) -> None:
    """Remove a memory's whole history: the one irreversible action (nothing through a link)."""
    remove_tree(root, hdir)
