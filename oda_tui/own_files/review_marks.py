"""The review marks: the version of each memory the person last reviewed (no Textual here).

What waits for review is the store's to say (``MemoryStore.agent_changes``, which takes these
marks): a memory a chat created or changed since the person last reviewed it, whoever first
saved it (an agent's change to the person's own memory matters most), and one a chat deleted,
until the person accepts the deletion (its mark is the deletion's moment with ``-deleted``) or
restores the memory. This module keeps the marks file and asks the store.

The review marks are the app's own state, never written into memory files (Oda's format stays
as it is): one JSON file, ``review.json``, in ``platformdirs.user_state_path("oda-tui")`` (or
the folder ``$ODA_TUI_STATE`` names), keyed by the store root's absolute path, then scope and
memory id, giving the newest version name the person reviewed::

    {"format": 1, "stores": {"/home/me/.local/share/Oda/memory":
        {"global": {"0123abcd": "20261129T215234123Z-chat"},
         "workspaces": {"proj": {"89abcdef": "20261130T080000000Z-chat"}}}}}

Writes are atomic (a temp file in the same folder, fsync, rename) and private (0600). Reads go
through the store's reader for the app's own files: a link, a pipe or a device there, a file
over ``MAX_BYTES`` or JSON nested too deep is not read (its problem is said once, and no memory
counts as reviewed); the next mark written replaces it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from store import FileRefused, MemoryStore, ReviewItem, Scope, load_json_config, write_atomic

from ..config.paths import STATE_ENV as ENV_VAR
from ..config.paths import state_dir

MARKS_FILE = "review.json"
FORMAT = 1
#: A mark is about 50 bytes: this holds the marks of some 600,000 memories.
MAX_BYTES = 32 << 20


def state_path() -> Path:
    """The review marks file, in the app's state folder."""
    return state_dir() / MARKS_FILE


# --- the marks file --------------------------------------------------------------------------


def _store_key(store: MemoryStore) -> str:
    return str(Path(os.path.abspath(store.root)))


@dataclass(frozen=True)
class MarksFile:
    """The marks file's data (empty when it is absent or not used), and why it was not used."""

    data: dict[str, Any]
    problem: str | None = None
    #: The disk's error when the file is there but could not be read now: it is not replaced.
    error: OSError | None = None


def _empty() -> dict[str, Any]:
    return {"format": FORMAT, "stores": {}}


def read_marks_file(path: Path | None = None) -> MarksFile:
    """The whole marks file; an absent or foreign file reads as empty, and one that cannot be
    used (not a regular file, a link, too large, not JSON, nested too deep) as empty with its
    problem."""
    path = path or state_path()
    try:
        data = load_json_config(path, MAX_BYTES, follow_links=False)
    except FileRefused as exc:
        return MarksFile(
            _empty(), f"{exc}; no memory counts as reviewed until a review is marked.", exc.error
        )
    if not isinstance(data, dict) or not isinstance(data.get("stores"), dict):
        return MarksFile(_empty())
    return MarksFile(data)


def load_marks_file(path: Path | None = None) -> dict[str, Any]:
    """The whole marks file's data (see ``read_marks_file``)."""
    return read_marks_file(path).data


def _marks_to_change(path: Path) -> dict[str, Any]:
    """The marks file's data, to change and write back; the disk's error (``OSError``) when
    the file is there but cannot be read now: writing then would lose every other mark."""
    read = read_marks_file(path)
    if read.error is not None:
        raise read.error
    return read.data


def _write_marks_file(data: dict[str, Any], path: Path) -> None:
    payload = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True).encode("utf-8")
    write_atomic(path, payload)  # private folders (0700) and file (0600), like the store's


def _all_marks(data: dict[str, Any], store: MemoryStore) -> dict[Scope, dict[str, str]]:
    """Every mark of ``store``, by scope then memory id (a mark that is not a name is none)."""
    entry = data["stores"].get(_store_key(store))
    if not isinstance(entry, dict):
        return {}
    spaces = entry.get("workspaces")
    found: list[tuple[Scope, object]] = [(None, entry.get("global"))]
    found += list(spaces.items()) if isinstance(spaces, dict) else []
    return {
        scope: {memory_id: mark for memory_id, mark in marks.items() if isinstance(mark, str)}
        for scope, marks in found
        if isinstance(marks, dict)
    }


def _marks_of(data: dict[str, Any], store: MemoryStore, scope: Scope) -> dict[str, Any]:
    entry = data["stores"].get(_store_key(store))
    if not isinstance(entry, dict):
        return {}
    if scope is None:
        marks = entry.get("global")
    else:
        spaces = entry.get("workspaces")
        marks = spaces.get(scope) if isinstance(spaces, dict) else None
    return marks if isinstance(marks, dict) else {}


def reviewed_mark(
    store: MemoryStore, scope: Scope, memory_id: str, *, path: Path | None = None
) -> str | None:
    """The version name the person last reviewed for a memory, or None."""
    mark = _marks_of(load_marks_file(path), store, scope).get(memory_id)
    return mark if isinstance(mark, str) else None


def mark_reviewed(
    store: MemoryStore, scope: Scope, memory_id: str, *, version: str | None = None, path: Path | None = None
) -> str | None:
    """Mark a memory reviewed up to ``version`` (default: its newest version, whatever its
    source). Returns the name marked, or None when the memory has no versions."""
    if version is None:
        try:
            version = store.newest_version_name(scope, memory_id)
        except OSError:
            return None
        if version is None:
            return None
    path = path or state_path()
    data = _marks_to_change(path)
    _set_mark(data, store, scope, memory_id, version)
    _write_marks_file(data, path)
    return version


def _set_mark(data: dict[str, Any], store: MemoryStore, scope: Scope, memory_id: str, version: str) -> None:
    entry = data["stores"].setdefault(_store_key(store), {})
    if not isinstance(entry, dict):
        entry = data["stores"][_store_key(store)] = {}
    if scope is None:
        marks = entry.setdefault("global", {})
    else:
        marks = entry.setdefault("workspaces", {}).setdefault(scope, {})
    marks[memory_id] = version
    data["format"] = FORMAT


def carry_mark(
    store: MemoryStore, scope: Scope, memory_id: str, target: Scope, new_id: str, *, path: Path | None = None
) -> str | None:
    """After a move, the review mark goes with the memory (its history moved with it)."""
    path = path or state_path()
    data = _marks_to_change(path)
    mark = _marks_of(data, store, scope).pop(memory_id, None)
    if not isinstance(mark, str):
        return None
    _set_mark(data, store, target, new_id, mark)
    _write_marks_file(data, path)  # one write: the mark is never in both places, nor in none
    return mark


def forget_marks(store: MemoryStore, keep: Iterable[tuple[Scope, str]], *, path: Path | None = None) -> int:
    """Drop the marks of memories not in ``keep`` (e.g. purged); returns how many went."""
    path = path or state_path()
    data = _marks_to_change(path)
    entry = data["stores"].get(_store_key(store))
    if not isinstance(entry, dict):
        return 0
    wanted = set(keep)
    dropped = 0
    scopes: list[tuple[Scope, dict[str, Any]]] = [(None, entry.get("global") or {})]
    scopes += [(key, marks) for key, marks in (entry.get("workspaces") or {}).items()]
    for scope, marks in scopes:
        for memory_id in [i for i in marks if (scope, i) not in wanted]:
            del marks[memory_id]
            dropped += 1
    if dropped:
        _write_marks_file(data, path)
    return dropped


# --- what waits for review -------------------------------------------------------------------


def pending_review(store: MemoryStore, *, path: Path | None = None) -> list[ReviewItem]:
    """Memories a chat (the agent) created, changed or deleted since the last review (see
    ``review_with_problem``)."""
    return review_with_problem(store, path=path)[0]


def review_with_problem(
    store: MemoryStore, *, path: Path | None = None
) -> tuple[list[ReviewItem], str | None]:
    """Memories a chat (the agent) created, changed or deleted since the last review (the
    store's ``agent_changes`` over the marks), and the marks file's problem when it could not be
    used."""
    read = read_marks_file(path)
    return store.agent_changes(_all_marks(read.data, store)), read.problem


__all__ = [
    "ENV_VAR",
    "ReviewItem",
    "forget_marks",
    "load_marks_file",
    "mark_reviewed",
    "pending_review",
    "read_marks_file",
    "review_with_problem",
    "reviewed_mark",
    "state_dir",
    "state_path",
]
