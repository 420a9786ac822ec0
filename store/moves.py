"""Moving a memory to another set, so that no crash leaves its id in two sets.

The intent is written first (``<root>/.move.json``); then the file is written in the target
set, its history moved after it, the source file removed, and the intent removed. ``recover``
(under the lock, before every change and at a start) finishes a move whose target file was
written, or forgets one that never got that far: at no point does a chat receive the memory
twice for longer than until the next store opens.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from . import commit, history, safe_io
from .atomic import fsync_dir, remove_durably, write_atomic
from .layout import history_dir, is_valid_id, is_valid_key, make_dirs, memory_path
from .limits import Limits
from .memory_fields import Document
from .memoryfile import parse_bytes
from .model import Scope

INTENT = ".move.json"


@dataclass(frozen=True, slots=True)
class Move:
    """One memory's move: from ``scope``/``memory_id`` to ``target``/``new_id``."""

    root: Path
    scope: Scope
    memory_id: str
    target: Scope
    new_id: str

    @property
    def source(self) -> Path:
        return memory_path(self.root, self.scope, self.memory_id)

    @property
    def dest(self) -> Path:
        return memory_path(self.root, self.target, self.new_id)

    @property
    def old_history(self) -> Path:
        return history_dir(self.root, self.scope, self.memory_id)

    @property
    def new_history(self) -> Path:
        return history_dir(self.root, self.target, self.new_id)


def run(plan: Move, raw: bytes, limits: Limits) -> None:
    """Carry out a move (under the lock); ``raw`` is the source file as the caller read it."""
    intent = {"from": plan.scope, "id": plan.memory_id, "to": plan.target, "new_id": plan.new_id}
    write_atomic(plan.root / INTENT, json.dumps(intent).encode("utf-8"), root=plan.root)
    commit.commit(plan.root, plan.dest, raw, seen=None, hdir=plan.new_history, version=None, limits=limits)
    _finish(plan)
    remove_durably(plan.root / INTENT, root=plan.root)


def recover(root: Path) -> None:
    """Finish or forget a move a killed writer left (under the lock)."""
    path = root / INTENT
    if not os.path.lexists(path):
        return
    try:
        raw = safe_io.read_regular(root, path, 4096)
    except safe_io.Unsafe:
        raw = None  # not a file the store wrote: nothing to act on
    if raw is not None:
        plan = _parse(root, raw)
        if plan is not None and commit.read_limited(root, plan.dest, 0) is not None:
            _finish(plan)
    remove_durably(path, root=root)


def _parse(root: Path, raw: bytes) -> Move | None:
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    scope, target = data.get("from"), data.get("to")
    memory_id, new_id = data.get("id"), data.get("new_id")
    scopes_ok = all(s is None or (isinstance(s, str) and is_valid_key(s)) for s in (scope, target))
    ids_ok = all(isinstance(i, str) and is_valid_id(i) for i in (memory_id, new_id))
    if not (scopes_ok and ids_ok) or (scope, memory_id) == (target, new_id):
        return None
    return Move(root, scope, memory_id, target, new_id)  # type: ignore[arg-type]


def _finish(plan: Move) -> None:
    """The target file exists: bring the history after it and remove the source file,
    keeping as a version any text the source got since (another program's save)."""
    if os.path.lexists(plan.old_history) and not os.path.lexists(plan.new_history):
        make_dirs(plan.new_history.parent)
        os.replace(plan.old_history, plan.new_history)
        fsync_dir(plan.new_history.parent)
        fsync_dir(plan.old_history.parent)
    if not os.path.lexists(plan.source):
        return
    limits = history.READ_LIMITS  # generous: the settings may not be read yet at a start
    dest = commit.read_limited(plan.root, plan.dest, limits.file_max_bytes)
    grabbed = commit.staged_path(plan.source, dest or b"")
    os.replace(plan.source, grabbed)  # whatever is there now, however late it was saved
    left = commit.read_limited(plan.root, grabbed, limits.file_max_bytes)
    if left is not None and left != dest:
        doc = parse_bytes(left, limits)
        mine = parse_bytes(dest, limits) if dest is not None else None
        if isinstance(doc, Document):
            newest = history.newest_version(plan.root, plan.new_history)
            key = (mine.fields.title, mine.text) if isinstance(mine, Document) else None
            ours = newest if newest is not None and (newest.title, newest.text) == key else None
            commit.keep_external(plan.root, plan.new_history, doc, ours)
    grabbed.unlink(missing_ok=True)
    fsync_dir(plan.source.parent)
