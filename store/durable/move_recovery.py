"""Finishing a move a killed writer left, or setting its record aside: never acting on a
record that names a link, a missing set or a state no move of the store leaves.

Recovery runs under the store-wide lock, before every change and at a start, so it is a write
path like any change: it goes through ``store.moves``'s steps (folders opened without
following a link, renames between descriptors). A move it cannot finish is rolled back when
that loses nothing; what it cannot safely act on, finish or roll back it sets aside: the record is renamed to ``.move.json.<random>.set-aside`` and listed by
``MemoryStore.ignored()``, with what to do. A record that cannot be finished, rolled back or
even set aside never blocks a change: it is left as it is and acted on by nothing.
"""

from __future__ import annotations

import errno
import json
import os
import re
import secrets
import stat
from pathlib import Path

from store import messages as msg
from store.disk import safe_io
from store.disk.layout import LOCK_FILE, is_valid_id, is_valid_key
from store.disk.swap import rename_new_at
from store.durable import history, moves
from store.model import Ignored

SET_ASIDE = ".set-aside"
_SET_ASIDE_RE = re.compile(r"\.(move\.json|lock)\.[0-9a-f]{8}\.set-aside\Z")


class SetAside(Exception):
    """A move record not to act on, and why (for the reader of a traceback: the listing gives
    one reason for every record set aside, as the file itself may be unreadable)."""


def passing(exc: BaseException) -> bool:
    """True for a failure of the disk or of permissions (EIO, EACCES, ENOSPC…) rather than
    something about the record or the tree: the change that met it is refused and the record
    kept, so the next change, once the fault is gone, finishes the move as it stands."""
    if not isinstance(exc, OSError) or isinstance(exc, (safe_io.Unsafe, safe_io.TooLarge)):
        return False
    if isinstance(exc, (FileNotFoundError, NotADirectoryError, IsADirectoryError)):
        return False
    return exc.errno not in (errno.ELOOP, errno.ENXIO)  # a link, or a socket: never a move record


def recover(root: Path) -> None:
    """Finish or forget a move a killed writer left, or set its record aside (under the lock).

    A record that is not one to act on never blocks a change elsewhere in the store: it is set
    aside, and a move that cannot be finished is rolled back (or, failing that, set aside). A
    passing fault of the disk (``passing``) while the record and its sets are being read is
    raised instead: nothing says the record is not a real move, and setting it aside would leave
    the memory in two sets for good, where the next change can finish the move."""
    path = root / moves.INTENT
    try:
        os.lstat(path)
    except OSError:
        return
    try:
        plan = _plan(root)
        if plan is None:
            return
        if not _dest_written(plan):
            moves.drop_intent(root)  # the move never got that far: nothing to finish
            return
        _check_state(plan)
    except (SetAside, OSError) as exc:
        if passing(exc):
            raise
        set_aside(root, moves.INTENT)
        return
    try:
        moves.finish(plan, roll_back=False)
    except OSError:
        if not _roll_back(plan):
            set_aside(root, moves.INTENT)
            return
    moves.drop_intent(root)


def _roll_back(plan: moves.Move) -> bool:
    """Undo a move that cannot be finished: only when the old file is still there with exactly
    the bytes the new one has (so removing the new one loses nothing); the history goes back
    first. False when that is not so, or a step fails (the record is then set aside)."""
    name = f"{plan.memory_id}.md"
    try:
        with moves.folders(plan, make_history=False) as f:
            limit = history.READ_LIMITS.file_max_bytes
            old = moves.read_in(f.source_set, name, limit)
            if old is None or old != moves.read_in(f.target_set, plan.dest.name, limit):
                return False
            if moves.exists(plan.new_id, f.new_parent) and not moves.exists(plan.memory_id, f.old_parent):
                if f.old_parent is None or f.new_parent is None:
                    return False
                rename_new_at(f.new_parent, plan.new_id, f.old_parent, plan.memory_id)
            os.unlink(plan.dest.name, dir_fd=f.target_set)
            safe_io.fsync_quietly(f.target_set)
    except OSError:
        return False
    return True


def _plan(root: Path) -> moves.Move | None:
    """The move the record names, checked; ``SetAside`` when it is not one to act on."""
    try:
        raw = safe_io.read_regular(root, root / moves.INTENT, moves.INTENT_MAX_BYTES)
    except FileNotFoundError:
        return None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise SetAside("it is not a move record") from None
    if not isinstance(data, dict) or set(data) != {"from", "id", "to", "new_id"}:
        raise SetAside("it is not a move record")
    scope, target = data["from"], data["to"]
    memory_id, new_id = data["id"], data["new_id"]
    scopes_ok = all(s is None or (isinstance(s, str) and is_valid_key(s)) for s in (scope, target))
    ids_ok = all(isinstance(i, str) and is_valid_id(i) for i in (memory_id, new_id))
    if not (scopes_ok and ids_ok) or scope == target:
        raise SetAside("it names no possible move")
    return moves.Move(root, scope, memory_id, target, new_id)


def _check_state(plan: moves.Move) -> None:
    """Refuse a record whose sets or history are links, missing, or in a state no move of the
    store leaves (``safe_io.Unsafe`` and ``FileNotFoundError`` are set aside by the caller)."""
    with moves.folders(plan, make_history=False) as f:
        for name, fd in ((f"{plan.memory_id}.md", f.source_set), (plan.dest.name, f.target_set)):
            _regular_or_missing(name, fd)
        for name, parent in ((plan.memory_id, f.old_parent), (plan.new_id, f.new_parent)):
            if parent is not None and moves.exists(name, parent):
                safe_io.close_quietly(os.open(name, safe_io.DIR_FLAGS, dir_fd=parent))  # a folder, not a link
        if moves.exists(plan.memory_id, f.old_parent) and moves.exists(plan.new_id, f.new_parent):
            raise SetAside("the memory's history is in both sets")


def _regular_or_missing(name: str, dir_fd: int) -> None:
    try:
        mode = os.lstat(name, dir_fd=dir_fd).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISREG(mode):
        raise SetAside(f"{name} is not a regular file")


def _dest_written(plan: moves.Move) -> bool:
    """True when the move wrote its target file (a target set that is missing was never
    written to; one that is a link raises ``safe_io.Unsafe``)."""
    try:
        with safe_io.folder(plan.root, plan.dest.parent) as fd:
            return moves.exists(plan.dest.name, fd)
    except FileNotFoundError:
        return False


def set_aside(root: Path, name: str) -> Path | None:
    """Rename the entry ``name`` in the root (itself, never what a link names) to a set-aside
    name that ``ignored()`` lists; None when it could not be renamed (it is left as it is)."""
    try:
        with safe_io.folder(root, root) as fd:
            aside = f"{name}.{secrets.token_hex(4)}{SET_ASIDE}"
            os.rename(name, aside, src_dir_fd=fd, dst_dir_fd=fd)
            safe_io.fsync_quietly(fd)
    except OSError:
        return None
    return root / aside


def ignored_in_root(root: Path) -> list[Ignored]:
    """What recovery set aside in the root, and a move record or lock file it could not set
    aside, each with what to do."""
    found: list[Ignored] = []
    try:
        names = safe_io.list_names(root, root)
    except OSError:
        return found
    for name in sorted(names):
        kept = _SET_ASIDE_RE.match(name)
        if kept is not None:
            why = msg.IGNORED_MOVE_SET_ASIDE if kept.group(1) == "move.json" else msg.IGNORED_LOCK_SET_ASIDE
            found.append(Ignored(root / name, why))
        elif name in (moves.INTENT, LOCK_FILE) and _stuck_in_root(root, name):
            found.append(Ignored(root / name, msg.IGNORED_STUCK_ROOT_FILE))
    return found


def note_root(root: Path, ignored: dict[str, Ignored]) -> set[str]:
    """Replace in ``ignored`` what ``ignored(root)`` lists; the keys whose entry changed."""
    before = {k: item for k, item in ignored.items() if is_root_note(root, item.path)}
    for key in before:
        del ignored[key]
    now = {str(item.path): item for item in ignored_in_root(root)}
    ignored.update(now)
    return {k for k in before.keys() | now.keys() if before.get(k) != now.get(k)}


def is_root_note(root: Path, path: Path) -> bool:
    """True for a path ``ignored`` may list (so a new listing replaces it)."""
    return path.parent == root and (
        _SET_ASIDE_RE.match(path.name) is not None or path.name in (moves.INTENT, LOCK_FILE)
    )


def _stuck_in_root(root: Path, name: str) -> bool:
    """True for an entry the store can neither use nor set aside: not a small regular file."""
    try:
        st = os.lstat(root / name)
    except OSError:
        return False
    too_large = name == moves.INTENT and st.st_size > moves.INTENT_MAX_BYTES
    return not stat.S_ISREG(st.st_mode) or too_large
