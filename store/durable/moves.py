"""Moving a memory to another set, so that no crash leaves its id in two sets.

The intent is written first (``<root>/.move.json``); then the file is written in the target
set, its history moved after it, the source file taken away, and the intent removed. A move
that fails on the way is rolled back completely (refused means not applied: the target file
and the moved history go back, the intent is removed). ``store.move_recovery`` finishes or
sets aside a move a killed writer left.

Every step past the intent goes through folders opened one at a time without following a
link (``safe_io.open_folder``) and renames between those descriptors, never by path: a set or
a history folder swapped for a link is refused, never gone through.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from store.disk import safe_io
from store.disk.atomic import remove_durably, write_atomic
from store.disk.layout import history_dir, history_scope_dir, memory_path, scope_dir
from store.disk.swap import rename_new_at
from store.durable import commit, history
from store.format.fields import Document
from store.format.parse import parse_bytes
from store.limits import Limits
from store.model import Scope

INTENT = ".move.json"
#: The largest move record the store reads: four short keys and values need far less.
INTENT_MAX_BYTES = 4096


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


class Stuck(OSError):
    """A step failed and what was already done could not be put back (the source file, or the
    history): the move is left to be finished by the next change, its record kept."""


@dataclass(slots=True)
class Folders:
    """The folders a move goes through, each opened without following a link."""

    source_set: int
    target_set: int
    old_parent: int | None  # the source scope's history folder (None: there is none)
    new_parent: int | None  # the target scope's history folder (None: not made yet)


@contextmanager
def folders(plan: Move, *, make_history: bool) -> Iterator[Folders]:
    """Open the move's folders (``safe_io.Unsafe`` for a link or a non-folder on the way,
    ``FileNotFoundError`` for a missing set); ``make_history`` makes the target's history folder."""
    root = plan.root
    with ExitStack() as stack:

        def opened(folder: Path, *, create: bool = False, optional: bool = False) -> int | None:
            try:
                fd = safe_io.open_folder(root, folder, create=create)
            except FileNotFoundError:
                if optional:
                    return None
                raise
            stack.callback(safe_io.close_quietly, fd)
            return fd

        source_set = opened(scope_dir(root, plan.scope))
        target_set = opened(scope_dir(root, plan.target))
        old_parent = opened(history_scope_dir(root, plan.scope), optional=True)
        new_parent = opened(history_scope_dir(root, plan.target), create=make_history, optional=True)
        assert source_set is not None and target_set is not None
        yield Folders(source_set, target_set, old_parent, new_parent)


def exists(name: str, dir_fd: int | None) -> bool:
    """True when ``name`` is in the folder ``dir_fd`` (a link counts: it is there)."""
    if dir_fd is None:
        return False
    try:
        os.lstat(name, dir_fd=dir_fd)
    except FileNotFoundError:
        return False
    return True


def run(plan: Move, raw: bytes, limits: Limits) -> None:
    """Carry out a move (under the lock); ``raw`` is the source file as the caller read it.
    Refused means not applied: on any failure the move is rolled back before the error."""
    intent = {"from": plan.scope, "id": plan.memory_id, "to": plan.target, "new_id": plan.new_id}
    write_atomic(plan.root / INTENT, json.dumps(intent).encode("utf-8"), root=plan.root)
    try:
        commit.commit(
            plan.root, plan.dest, raw, seen=None, hdir=plan.new_history, version=None, limits=limits
        )
    except BaseException:
        drop_intent(plan.root)
        raise
    try:
        finish(plan, roll_back=True)
    except Stuck:
        raise  # the record stays: the next change finishes the move (``store.move_recovery``)
    except BaseException:
        if _remove_dest(plan, raw):
            drop_intent(plan.root)
        raise
    drop_intent(plan.root)


def drop_intent(root: Path) -> bool:
    """Remove the move record; False when it could not be removed (it is then set aside or
    left for the next change, never acted on again)."""
    try:
        remove_durably(root / INTENT, root=root)
    except OSError:
        return False
    return True


def _remove_dest(plan: Move, raw: bytes) -> bool:
    """Take back the target file the move wrote, if it still holds exactly what was written."""
    try:
        with safe_io.folder(plan.root, plan.dest.parent) as fd:
            name = plan.dest.name
            try:
                found, st = safe_io.open_regular(name, fd, name)
            except FileNotFoundError:
                return True
            try:
                now = safe_io.read_fd(found, st.st_size, len(raw))
            finally:
                safe_io.close_quietly(found)
            if now != raw:
                return False  # someone saved there meanwhile: keep theirs, and the record
            os.unlink(name, dir_fd=fd)
            safe_io.fsync_quietly(fd)
    except OSError:
        return False
    return True


def finish(plan: Move, *, roll_back: bool) -> None:
    """The target file exists: bring the history after it and take the source file away,
    keeping as a version any text the source got since (another program's save). With
    ``roll_back``, a failure puts the history back where it was before it is raised."""
    with folders(plan, make_history=True) as f:
        moved = False
        if exists(plan.memory_id, f.old_parent) and not exists(plan.new_id, f.new_parent):
            assert f.old_parent is not None and f.new_parent is not None
            rename_new_at(f.old_parent, plan.memory_id, f.new_parent, plan.new_id)
            _sync(f.new_parent, f.old_parent)
            moved = True
        try:
            _take_source(plan, f)
        except Stuck:
            raise
        except BaseException as exc:
            if roll_back and moved:
                assert f.old_parent is not None and f.new_parent is not None
                try:
                    rename_new_at(f.new_parent, plan.new_id, f.old_parent, plan.memory_id)
                except OSError:
                    raise _stuck(exc) from exc
                _sync(f.new_parent, f.old_parent)
            raise


def _take_source(plan: Move, f: Folders) -> None:
    """Take the source file away: whatever is there now, however late it was saved."""
    name = f"{plan.memory_id}.md"
    if not exists(name, f.source_set):
        return
    limits = history.READ_LIMITS  # generous: the settings may not be read yet at a start
    dest = read_in(f.target_set, plan.dest.name, limits.file_max_bytes)
    grabbed = commit.staged_path(Path(name), dest or b"").name
    os.rename(name, grabbed, src_dir_fd=f.source_set, dst_dir_fd=f.source_set)
    try:
        left = read_in(f.source_set, grabbed, limits.file_max_bytes)
        if left is not None and left != dest:
            doc = parse_bytes(left, limits)
            mine = parse_bytes(dest, limits) if dest is not None else None
            if isinstance(doc, Document):
                newest = history.newest_version(plan.root, plan.new_history)
                key = (mine.fields.title, mine.text) if isinstance(mine, Document) else None
                ours = newest if newest is not None and (newest.title, newest.text) == key else None
                commit.keep_external(plan.root, plan.new_history, doc, ours)
    except BaseException as exc:
        try:
            rename_new_at(f.source_set, grabbed, f.source_set, name)
        except OSError:
            raise _stuck(exc) from exc
        raise
    safe_io.unlink_quietly(grabbed, f.source_set)
    safe_io.fsync_quietly(
        f.source_set
    )  # moved already: what is left is tidied by the next change (``store.leftovers``)


def _stuck(exc: BaseException) -> Stuck:
    if isinstance(exc, OSError):
        return Stuck(exc.errno, exc.strerror or str(exc))
    return Stuck(0, str(exc))


def read_in(dir_fd: int, name: str, limit: int) -> bytes | None:
    """A regular file's bytes in ``dir_fd`` (at most ``limit + 1``); None when missing or not one."""
    try:
        return safe_io.read_at(dir_fd, name, limit)
    except safe_io.Unsafe:
        return None


def _sync(*fds: int) -> None:
    for fd in fds:
        safe_io.fsync_quietly(fd)
