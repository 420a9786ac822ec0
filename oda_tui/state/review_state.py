"""Review of what the agent saved: the data half (no Textual here).

A memory waits for review when a chat created or changed it since the person last reviewed it,
whoever first saved it (an agent's change to the person's own memory matters most): its newest
version's source is ``chat``, that
version is newer than the review mark, and the file still holds that version's title and text
(an edit made since, here or in an editor, is the person's own and needs no review). A memory a
chat deleted waits too (its deletion record says ``via: chat``) until the person accepts the
deletion, whose mark is the deletion's moment with ``-deleted``, or restores the memory.

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

from store import (
    Deleted,
    FileRefused,
    Memory,
    MemoryStore,
    Scope,
    Version,
    format_moment,
    load_json_config,
    write_atomic,
)
from store.disk.layout import history_dir
from store.durable.history import read_version, version_name_parts, version_names

from ..config.paths import STATE_ENV as ENV_VAR
from ..config.paths import state_dir

STATE_FILE = "review.json"
FORMAT = 1
#: A mark is about 50 bytes: this holds the marks of some 600,000 memories.
MAX_BYTES = 32 << 20


def state_path() -> Path:
    """The review marks file."""
    return state_dir() / STATE_FILE


def _name_key(name: str) -> tuple[str, int]:
    """Version names in time order: the moment, then the -2, -3… of the same moment."""
    parts = version_name_parts(name + ".md")  # a mark is a version's name without ".md"
    return ("", 0) if parts is None else (parts[0], parts[2])


def _source_of(name: str) -> str | None:
    parts = version_name_parts(name + ".md")
    return None if parts is None else parts[1]


@dataclass(frozen=True, slots=True)
class ReviewItem:
    """One memory waiting for review, with what the agent changed."""

    memory: Memory
    newest: Version  # the newest chat version: what the memory is now
    before: Version | None  # the version before it; None when the chat created the memory
    reviewed: str | None  # the version name the person last reviewed, if any
    #: The chat deleted the memory: ``memory`` is what it was (under Recently deleted now),
    #: ``before`` its text and ``newest`` stands for the deletion (its name is the review mark).
    deleted: Deleted | None = None

    @property
    def created_by_agent(self) -> bool:
        return self.before is None

    @property
    def deleted_by_agent(self) -> bool:
        return self.deleted is not None

    @property
    def before_title(self) -> str:
        return self.before.title if self.before is not None else ""

    @property
    def before_text(self) -> str:
        return self.before.text if self.before is not None else ""

    @property
    def after_title(self) -> str:
        return self.newest.title

    @property
    def after_text(self) -> str:
        return self.newest.text


# --- the state file --------------------------------------------------------------------------


def _store_key(store: MemoryStore) -> str:
    return str(Path(os.path.abspath(store.root)))


@dataclass(frozen=True)
class StateRead:
    """The state file's data (empty when it is absent or not used), and why it was not used."""

    data: dict[str, Any]
    problem: str | None = None
    #: The disk's error when the file is there but could not be read now: it is not replaced.
    error: OSError | None = None


def _empty() -> dict[str, Any]:
    return {"format": FORMAT, "stores": {}}


def read_state(path: Path | None = None) -> StateRead:
    """The whole state file; an absent or foreign file reads as empty, and one that cannot be
    used (not a regular file, a link, too large, not JSON, nested too deep) as empty with its
    problem."""
    path = path or state_path()
    try:
        data = load_json_config(path, MAX_BYTES, follow_links=False)
    except FileRefused as exc:
        return StateRead(
            _empty(), f"{exc}; no memory counts as reviewed until a review is marked.", exc.error
        )
    if not isinstance(data, dict) or not isinstance(data.get("stores"), dict):
        return StateRead(_empty())
    return StateRead(data)


def load_state(path: Path | None = None) -> dict[str, Any]:
    """The whole state file's data (see ``read_state``)."""
    return read_state(path).data


def _state_to_change(path: Path) -> dict[str, Any]:
    """The state file's data, to change and write back; the disk's error (``OSError``) when
    the file is there but cannot be read now: writing then would lose every other mark."""
    read = read_state(path)
    if read.error is not None:
        raise read.error
    return read.data


def _write_state(data: dict[str, Any], path: Path) -> None:
    payload = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True).encode("utf-8")
    write_atomic(path, payload)  # private folders (0700) and file (0600), like the store's


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
    mark = _marks_of(load_state(path), store, scope).get(memory_id)
    return mark if isinstance(mark, str) else None


def mark_reviewed(
    store: MemoryStore, scope: Scope, memory_id: str, *, version: str | None = None, path: Path | None = None
) -> str | None:
    """Mark a memory reviewed up to ``version`` (default: its newest version, whatever its
    source). Returns the name marked, or None when the memory has no versions."""
    if version is None:
        try:
            names = version_names(store.root, history_dir(store.root, scope, memory_id))
        except OSError:
            return None
        if not names:
            return None
        version = names[-1][:-3]
    path = path or state_path()
    data = _state_to_change(path)
    _set_mark(data, store, scope, memory_id, version)
    _write_state(data, path)
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
    data = _state_to_change(path)
    mark = _marks_of(data, store, scope).pop(memory_id, None)
    if not isinstance(mark, str):
        return None
    _set_mark(data, store, target, new_id, mark)
    _write_state(data, path)  # one write: the mark is never in both places, nor in none
    return mark


def forget_marks(store: MemoryStore, keep: Iterable[tuple[Scope, str]], *, path: Path | None = None) -> int:
    """Drop the marks of memories not in ``keep`` (e.g. purged); returns how many went."""
    path = path or state_path()
    data = _state_to_change(path)
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
        _write_state(data, path)
    return dropped


# --- what waits for review -------------------------------------------------------------------


def pending_review(store: MemoryStore, *, path: Path | None = None) -> list[ReviewItem]:
    """Memories a chat (the agent) created, changed or deleted since the last review (see
    ``review_with_problem``)."""
    return review_with_problem(store, path=path)[0]


def review_with_problem(
    store: MemoryStore, *, path: Path | None = None
) -> tuple[list[ReviewItem], str | None]:
    """Memories a chat (the agent) created, changed or deleted since the last review, and the
    state file's problem when it could not be used.

    Global first, then by workspace key, each in the store's (created, id) order, then what a
    chat deleted there (newest first). Only the newest two versions of a candidate are read:
    the history folder listing says which.
    """
    read = read_state(path)
    found: list[ReviewItem] = []
    for scope in [None, *store.workspaces()]:
        marks = _marks_of(read.data, store, scope)
        for memory in store.memories(scope):
            try:
                item = _pending(store, memory, marks.get(memory.id))
            except OSError:
                item = None  # its history cannot be read now (EIO, EACCES)
            if item is not None:
                found.append(item)
        for deleted in store.deleted(scope):
            item = _pending_deletion(store, deleted, marks.get(deleted.id))
            if item is not None:
                found.append(item)
    return found, read.problem


def _pending_deletion(store: MemoryStore, deleted: Deleted, mark: object) -> ReviewItem | None:
    """A chat's deletion not reviewed since: its mark is the deletion's moment, ``-deleted``."""
    if deleted.via != "chat" or deleted.problem:
        return None
    name = f"{format_moment(deleted.deleted_at)}-deleted"
    reviewed = mark if isinstance(mark, str) else None
    if reviewed is not None and _name_key(reviewed) >= _name_key(name):
        return None
    path = str(store.memory_path(deleted.scope, deleted.id))
    was = Memory(deleted.id, deleted.scope, deleted.title, deleted.text, True, "ai", None, None, None, path)
    before = Version(name, deleted.deleted_at, "chat", deleted.title, deleted.text)
    newest = Version(name, deleted.deleted_at, "chat", "", "")
    return ReviewItem(memory=was, newest=newest, before=before, reviewed=reviewed, deleted=deleted)


def _pending(store: MemoryStore, memory: Memory, mark: object) -> ReviewItem | None:
    hdir = history_dir(store.root, memory.scope, memory.id)
    names = [n[:-3] for n in version_names(store.root, hdir)]  # oldest first
    if not names or _source_of(names[-1]) != "chat":
        return None
    reviewed = mark if isinstance(mark, str) else None
    if reviewed is not None and _name_key(reviewed) >= _name_key(names[-1]):
        return None
    newest = read_version(store.root, hdir, names[-1] + ".md")
    if newest is None or (newest.title, newest.text) != (memory.title, memory.text):
        return None  # edited since the chat saved it: the person's own text
    before = read_version(store.root, hdir, names[-2] + ".md") if len(names) >= 2 else None
    return ReviewItem(memory=memory, newest=newest, before=before, reviewed=reviewed)


__all__ = [
    "ENV_VAR",
    "ReviewItem",
    "forget_marks",
    "load_state",
    "mark_reviewed",
    "pending_review",
    "read_state",
    "review_with_problem",
    "reviewed_mark",
    "state_dir",
    "state_path",
]
