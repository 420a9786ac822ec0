"""Bringing single files of the picture up to date: one file read again when its stat
changed, and one path a watcher named."""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from pathlib import Path

from store.disk import safe_io
from store.disk.layout import (
    GLOBAL_DIR,
    HISTORY_DIR,
    LOCK_FILE,
    SETTINGS_FILE,
    WORKSPACES_DIR,
    is_silent_name,
    is_valid_key,
    memory_id_of,
)
from store.durable import move_recovery
from store.limits import Limits
from store.model import Scope
from store.read.picture import Picture
from store.read.scan import FileEntry, item_for, list_set, read_file, signature


def load_entry(state: Picture, entry: FileEntry, dir_fd: int, limits: Limits) -> bool:
    """(Re)read one candidate file (``dir_fd``: its folder, open) if its stat changed;
    True when its state changed."""
    old = state.sigs.get(entry.path)
    if old is not None:
        try:
            if signature(os.stat(entry.name, dir_fd=dir_fd, follow_symlinks=False)) == old:
                return False
        except OSError:
            pass
    result = read_file(entry.name, limits, dir_fd)
    if result is None:
        return state.drop(entry.path)
    sig, parsed = result
    item = item_for(entry.path, entry.scope, entry.id, parsed)
    previous = state.items.get(entry.path)
    state.put(entry.path, sig, item)
    return previous != item


def _relative_parts(root: Path, path: Path) -> tuple[str, ...]:
    try:
        return Path(os.path.abspath(path)).relative_to(root).parts
    except ValueError:
        return ()


#: What a path is to the picture: nothing it holds, or something only a full pass can tell.
_SKIP: tuple[str, Scope] = ("skip", None)
_FULL: tuple[str, Scope] = ("full", None)


def refresh_path(root: Path, state: Picture, limits: Limits, path: Path) -> set[str] | None:
    """Re-read one path (absolute); the paths whose state changed, or None when only a full
    pass can tell what changed (a set or the settings)."""
    parts = _relative_parts(root, path)
    if len(parts) == 1 and move_recovery.is_root_note(root, root / parts[0]):
        return move_recovery.note_root(root, state.ignored)  # set aside by a store's recovery
    kind, scope = _what_path_is(parts, state.workspaces)
    if kind != "file":
        return set() if kind == "skip" else None
    try:
        dir_fd = safe_io.open_folder(root, path.parent)
    except OSError:
        return None  # the set itself is gone or refused: a full pass says so
    try:
        return _refresh_file(root, state, limits, path, scope, memory_id_of(parts[-1]), dir_fd)
    finally:
        safe_io.close_quietly(dir_fd)


def _what_path_is(parts: tuple[str, ...], workspaces: Mapping[str, Path]) -> tuple[str, Scope]:
    """``("file", scope)`` for an entry of a set the picture has; else ``_SKIP`` or ``_FULL``."""
    if not parts or parts[0] in (HISTORY_DIR, LOCK_FILE):
        return _SKIP
    if parts == (SETTINGS_FILE,):
        return _FULL
    if parts[0] not in (GLOBAL_DIR, WORKSPACES_DIR) or any(is_silent_name(p) for p in parts):
        return _SKIP
    if parts[0] == WORKSPACES_DIR and len(parts) <= 2 or parts == (GLOBAL_DIR,):
        return _FULL  # a set appeared, went, or was renamed: list them again
    if parts[0] == GLOBAL_DIR and len(parts) == 2:
        return "file", None
    if parts[0] == WORKSPACES_DIR and len(parts) == 3 and is_valid_key(parts[1]):
        return ("file", parts[1]) if parts[1] in workspaces else _FULL
    return _SKIP


def _refresh_file(
    root: Path, state: Picture, limits: Limits, path: Path, scope: Scope, memory_id: str | None, dir_fd: int
) -> set[str]:
    """Re-read one entry of a set (its folder open as ``dir_fd``); the paths whose state changed."""
    key = str(path)
    try:
        mode: int | None = os.stat(path.name, dir_fd=dir_fd, follow_symlinks=False).st_mode
    except OSError:
        mode = None
    changed: set[str] = set()
    was_ignored = state.ignored.pop(key, None)
    if memory_id is None or (mode is not None and not stat.S_ISREG(mode)):
        _files, set_ignored = list_set(root, scope, path.parent, dir_fd)
        now = {i.path: i for i in set_ignored}.get(path)
        if now is not None:
            state.ignored[key] = now
        if was_ignored != now:
            changed.add(key)
        if state.drop(key):
            changed.add(key)
        return changed
    if was_ignored is not None:
        changed.add(key)
    if load_entry(state, FileEntry(key, scope, memory_id, path.name), dir_fd, limits):
        changed.add(key)
    return changed
