"""The first load of a store: from the parse index where it still holds, and the index kept.

A file whose stat is the one the index recorded is taken from the index without being read;
every other file is read. What was read is written back to the index by a background thread,
so the next start need not read it.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from store.disk import safe_io
from store.limits import Limits
from store.model import Ignored, Memory, Problem, Scope
from store.read import parse_index
from store.read.picture import Picture
from store.read.scan import FileEntry, Signature, item_for, open_set_folder, read_file, unsafe_ignored


def load_sets(
    root: Path,
    state: Picture,
    limits: Limits,
    listed: list[tuple[Scope, Path, list[FileEntry]]],
    ignored: dict[str, Ignored],
) -> bool:
    """Load the listed sets' files into an empty picture; True when the parse index should be
    written anew (a file was read, or the index holds other files)."""
    # The index can hold no more than what the files it stands for hold.
    bound = parse_index.expected_max_bytes(sum(len(f) for _, _, f in listed), limits)
    index: parse_index.ParseIndex | None
    try:
        index = parse_index.load(root, limits, bound)
    except safe_io.Unsafe as exc:
        index = None
        item = unsafe_ignored(root, exc)
        state.history_ignored[str(item.path)] = item
    if index is not None and _stale(root, index, listed, ignored):
        index = None  # every file is read, as with no index, and the index is written anew
    read = 0
    for _scope, folder, files in listed:
        with open_set_folder(root, folder, ignored) as fd:
            if fd is not None:
                read += _load_set(state, files, index, fd, limits)
    return bool(read) or (index is not None and len(index) != len(state.items))


#: Files looked up, spread over the store, before its parse index is used for the rest.
PROBES = 32


def _stale(
    root: Path,
    index: parse_index.ParseIndex,
    listed: list[tuple[Scope, Path, list[FileEntry]]],
    ignored: dict[str, Ignored],
) -> bool:
    """True when none of ``PROBES`` files spread over the listing is as the index recorded: a
    store copied, restored or checked out again gives every file a new inode or ctime, and
    looking each one up would only make that start slower than one without an index."""
    entries = [(folder, entry) for _scope, folder, files in listed for entry in files]
    if len(entries) < PROBES:
        return False  # a small store: looking every file up costs next to nothing
    step = len(entries) / PROBES
    picked: dict[Path, list[FileEntry]] = {}
    for i in range(PROBES):
        folder, entry = entries[int(i * step)]
        picked.setdefault(folder, []).append(entry)
    for folder, probes in picked.items():
        with open_set_folder(root, folder, ignored) as fd:
            if fd is None:
                continue
            prefix = parse_index.relative_key(probes[0].scope, "")
            for entry in probes:
                try:
                    st = os.stat(entry.name, dir_fd=fd, follow_symlinks=False)
                except OSError:
                    continue
                if index.holds(prefix + entry.name, (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)):
                    return False
    return True


def _load_set(
    state: Picture, files: list[FileEntry], index: parse_index.ParseIndex | None, dir_fd: int, limits: Limits
) -> int:
    """Load a set's files (``dir_fd``: their folder, open) into an empty picture: from the
    parse index when a file's stat is the one it recorded, else from the disk. Returns
    how many files were read."""
    sigs, items, read = state.sigs, state.items, 0
    prefix = parse_index.relative_key(files[0].scope, "") if files else ""
    stat_at = os.stat
    for path, scope, memory_id, name in files:
        item: Memory | Problem | None = None
        sig: Signature
        if index is not None:
            try:
                st = stat_at(name, dir_fd=dir_fd, follow_symlinks=False)
            except OSError:
                st = None  # read it: the read says what the file is now (gone, or unreadable)
            if st is not None:
                sig = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
                item = index.lookup(prefix + name, sig, path, scope, memory_id)
        if item is None:
            result = read_file(name, limits, dir_fd)
            read += 1
            if result is None:
                continue
            sig, parsed = result
            item = item_for(path, scope, memory_id, parsed)
        sigs[path] = sig
        items[path] = item
        by_scope = state.by_scope.get(scope)
        if by_scope is None:
            by_scope = state.by_scope[scope] = {}
        by_scope[memory_id] = item
    return read


def index_writer(root: Path, state: Picture, limits: Limits) -> threading.Thread | None:
    """A thread (not started) that keeps what was just read in the parse index, so the next
    start need not read it; None when there is nothing to write.

    It writes from a snapshot taken now, so it may run after the load returns (nobody waits
    for a cache) or later still, when the caller holds the index back.
    """
    if not state.items or not os.path.isdir(root):  # (isdir says False for a look that fails)
        return None
    sigs = state.sigs
    snapshot = [(sigs[path], item) for path, item in state.items.items()]

    def write() -> None:
        # Hand the interpreter straight back: a new thread otherwise keeps it for a whole
        # switch interval (5 ms) while the caller, who just started it, waits.
        time.sleep(0)
        parse_index.save(root, limits, snapshot)

    return threading.Thread(target=write, name="store-parse-index", daemon=False)
