"""What killed writers leave behind, put right under the store-wide lock.

- ``.<id>.md.<random>.part``: the store's new bytes, not yet whole. Nothing refers to it: removed.
- ``.<id>.md.<hash>.new`` whose bytes have that hash: a change that was never swapped in. Its
  version (written just before the swap) is taken back, so it is not mistaken later for the
  text that was current, and the file removed: refused means not applied.
- ``.<id>.md.<hash>.new`` with other bytes: what a swap handed back before the writer could
  compare it. Kept as an ``external`` version unless it is current or kept already.
- a purged history renamed aside (``.<id>.<random>.purged``) that could not be removed at
  once: removed.
- a ``deleted.json`` without its ``deleted.md`` (a restore that could not remove it, or a
  delete killed before its rename): no record, removed.
- a ``write_atomic`` temp file (``.<name>.<random>.tmp``): in history (written only under the
  lock) removed at once; in a set folder, where another program may still rename its own,
  only once older than ``STALE_AFTER``.

Each change puts right the sets and the history it touches; the first change a store makes
also sweeps the whole root once, so nothing piles up where no change comes.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Iterable
from pathlib import Path

from store.disk import safe_io
from store.disk.layout import HISTORY_DIR, history_dir, scope_dir
from store.durable import history, moves
from store.durable.commit import digest, keep_external, read_limited
from store.format.fields import Document
from store.format.parse import parse_bytes
from store.format.timestamps import now_utc
from store.limits import Limits
from store.model import Scope

#: A temp file in a set folder older than this is a killed writer's: another program using
#: the same pattern (``write_atomic``) renames its own far sooner.
STALE_AFTER = 60.0

_PART = re.compile(r"\.[0-9a-f]{8}\.md\.[0-9a-f]{8}\.part\Z")
_STAGED = re.compile(r"\.([0-9a-f]{8})\.md\.([0-9a-f]{16})\.new\Z")
_TEMP = re.compile(r"\..+\.[0-9a-f]{8}\.tmp\Z")
_PURGED = re.compile(rf"\.[0-9a-f]{{8}}\.[0-9a-f]{{8}}{re.escape(history.PURGED)}\Z")


def recover_set(root: Path, scope: Scope, limits: Limits, names: Iterable[str] | None = None) -> set[str]:
    """Put right what killed writers left in one set's folder: every name in it, or only
    ``names`` (those a feed of change events named there since the set was last looked at).

    Returns the temp files left there for now (another program's, not yet stale): a caller
    that passes ``names`` passes them again next time."""
    folder = scope_dir(root, scope)
    try:
        names = safe_io.list_names(root, folder) if names is None else _present(root, folder, names)
    except OSError:
        return set()
    now = time.time()
    waiting: set[str] = set()
    for name in names:
        if not name.startswith("."):
            continue
        staged = _STAGED.match(name)
        if staged is not None:
            memory_id, mark = staged.groups()
            hdir = history_dir(root, scope, memory_id)
            _recover_staged(root, folder / name, mark, folder / f"{memory_id}.md", hdir, limits)
        elif _PART.match(name):
            safe_io.remove_file(root, folder / name)
        elif _TEMP.match(name) and not _drop_if_stale(root, folder / name, now):
            waiting.add(name)
    return waiting


def _present(root: Path, folder: Path, names: Iterable[str]) -> list[str]:
    """Those of ``names`` that could be a killed writer's and are in ``folder`` now (one open
    of the folder, a look at each name)."""
    wanted = [n for n in names if n.startswith(".") and "/" not in n]
    if not wanted:
        return []
    with safe_io.folder(root, folder) as fd:
        return [n for n in wanted if safe_io.entry_exists(n, fd)]


def clean_history(root: Path, hdir: Path) -> None:
    """Drop the temp files a killed writer left in one memory's history, and a deletion
    record without the file it keeps (a restore that could not remove it)."""
    for folder in (hdir, hdir / history.VERSIONS):
        try:
            names = safe_io.list_names(root, folder)
        except OSError:
            continue
        for name in names:
            if name.startswith(".") and name.endswith(".tmp"):
                safe_io.remove_file(root, folder / name)
            elif name == history.DELETED_META and history.DELETED_BYTES not in names:
                safe_io.remove_file(root, folder / name)


def sweep(root: Path, scopes: list[Scope], limits: Limits) -> None:
    """Put right every set and every memory's history (once per store, at its first change)."""
    for scope in scopes:
        recover_set(root, scope, limits)
    history_root = root / HISTORY_DIR
    for name in _names(root, root):
        if name.startswith(f".{moves.INTENT}.") and name.endswith(".tmp"):
            safe_io.remove_file(root, root / name)  # only the move intent's: others write here too
    now = time.time()
    for name in _names(root, history_root / ".index"):
        if name.startswith(".") and name.endswith(".tmp"):
            _drop_if_stale(root, history_root / ".index" / name, now)  # written without the lock
    scope_folders = [history_root / "global"]
    scope_folders += [history_root / "workspaces" / key for key in _names(root, history_root / "workspaces")]
    for scope_folder in scope_folders:
        _clean_histories(root, scope_folder)


def _clean_histories(root: Path, scope_folder: Path) -> None:
    """``clean_history`` for every memory of one scope, folder by open folder (the first
    change of a store does this for the whole root: it must stay cheap at 10,000 memories)."""
    try:
        scope_fd = safe_io.open_folder(root, scope_folder)
    except OSError:
        return
    try:
        for memory_id in os.listdir(scope_fd):
            if _PURGED.match(memory_id):
                _remove_purged(memory_id, scope_fd)
                continue
            memory_fd = _open_child(memory_id, scope_fd)
            if memory_fd is None:
                continue
            try:
                _drop_temps(memory_fd)
                versions_fd = _open_child(history.VERSIONS, memory_fd)
                if versions_fd is not None:
                    try:
                        _drop_temps(versions_fd)
                    finally:
                        safe_io.close_quietly(versions_fd)
            finally:
                safe_io.close_quietly(memory_fd)
    except OSError:
        return  # a sweep that cannot look everywhere now looks again at the next store's change
    finally:
        safe_io.close_quietly(scope_fd)


def _open_child(name: str, dir_fd: int) -> int | None:
    try:
        return os.open(name, safe_io.DIR_FLAGS, dir_fd=dir_fd)  # no link is followed
    except OSError:
        return None


def _remove_purged(name: str, scope_fd: int) -> None:
    """The rest of a purge that could not remove all it had renamed aside."""
    try:
        shutil.rmtree(name, dir_fd=scope_fd)  # a link is refused by rmtree, never followed
    except OSError:
        pass


def _drop_temps(dir_fd: int) -> None:
    names = os.listdir(dir_fd)
    for name in names:
        stale = name == history.DELETED_META and history.DELETED_BYTES not in names
        if stale or (name.startswith(".") and name.endswith(".tmp")):
            try:
                os.unlink(name, dir_fd=dir_fd)
            except OSError:
                pass


def _names(root: Path, folder: Path) -> list[str]:
    try:
        return safe_io.list_names(root, folder)
    except OSError:
        return []


def _drop_if_stale(root: Path, path: Path, now: float) -> bool:
    """Remove the temp file at ``path`` once it is stale; False when it is still there."""
    try:
        if now - os.lstat(path).st_mtime > STALE_AFTER:
            safe_io.remove_file(root, path)
            return True
    except FileNotFoundError:
        return True
    except OSError:
        pass
    return False


def _recover_staged(root: Path, staged: Path, mark: str, path: Path, hdir: Path, limits: Limits) -> None:
    raw = read_limited(root, staged, history.READ_LIMITS.file_max_bytes)
    if raw is None:
        safe_io.remove_file(root, staged)
        return
    now = read_limited(root, path, limits.file_max_bytes)
    current = None if now is None else parse_bytes(now, limits)
    current_key = (current.fields.title, current.text) if isinstance(current, Document) else None
    doc = parse_bytes(raw, history.READ_LIMITS)
    if digest(raw) == mark:
        # The store's own change, never swapped in: take back its version.
        newest = history.newest_version(root, hdir)
        if (
            isinstance(doc, Document)
            and newest is not None
            and (newest.title, newest.text) == (doc.fields.title, doc.text)
            and current_key != (doc.fields.title, doc.text)
        ):
            history.remove_version(root, hdir, newest.name)
    elif isinstance(doc, Document):
        # What a swap handed back: keep it unless it is current or kept already.
        if current_key != (doc.fields.title, doc.text):
            # The newest version of what is current, wherever it is now (a keep stopped
            # halfway may have put theirs after it).
            versions = history.list_versions(root, hdir)
            ours = next((v for v in versions if (v.title, v.text) == current_key), None)
            keep_external(root, hdir, doc, ours)
    else:
        with (
            safe_io.folder(root, staged.parent) as set_fd,
            safe_io.folder(root, hdir / history.VERSIONS, create=True) as versions_fd,
        ):
            # Kept as it is, never read as text.
            history.place(set_fd, staged.name, versions_fd, now_utc(), "external")
            safe_io.fsync_quietly(versions_fd)
            safe_io.fsync_quietly(set_fd)
        return
    safe_io.remove_file(root, staged)
