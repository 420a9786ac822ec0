"""Keeping the picture up to date with the disk: the first load, ``refresh``, the parse index.

Reads take no lock: the picture is what the files were when last looked at, and every
change looks again under the store-wide lock before it writes.
"""

from __future__ import annotations

import os
import stat
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock

from . import moves, parse_index, safe_io
from .layout import (
    GLOBAL_DIR,
    HISTORY_DIR,
    LOCK_FILE,
    SETTINGS_FILE,
    WORKSPACES_DIR,
    is_silent_name,
    is_valid_key,
    memory_id_of,
)
from .limits import Limits, read_settings
from .memoryfile import Content, Document, FileProblem
from .model import Ignored, Memory, Problem, Scope
from .picture import Picture, cyclic_gc_paused
from .scan import (
    FileEntry,
    Signature,
    list_set,
    list_workspaces,
    read_file,
    signature,
    unsafe_ignored,
)


class DiskSync:
    """The picture of one store root and how it is brought up to date.

    ``mutex`` serialises this process's threads; ``lock`` is the store-wide lock (a file)
    that every change holds.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.mutex = threading.RLock()
        self.lock = FileLock(str(root / LOCK_FILE), thread_local=False)
        self.state: Picture | None = None
        self.limits = Limits()
        self.settings_problems: list[str] = []
        self._settings_sig: Signature | None = None
        self.index_writer: threading.Thread | None = None
        #: While True, a parse index to write waits in ``_index_waiting`` (``write_index_now``).
        self.hold_index = False
        self._index_waiting: threading.Thread | None = None

    def refresh(self, paths: Iterable[Path | str] | None = None) -> set[Path]:
        """Re-read what changed on disk: only ``paths`` (files or folders), or all when None.

        Returns the paths whose state changed; the store's own writes return nothing.
        """
        with self.mutex:
            if self.state is None:
                self.loaded()
                return set()
            changed = self.rescan_all() if paths is None else self._refresh_paths(paths)
            return {Path(p) for p in changed}

    def _refresh_paths(self, paths: Iterable[Path | str]) -> set[str]:
        changed: set[str] = set()
        for raw_path in paths:
            found = self._refresh_path(Path(os.path.abspath(os.fspath(raw_path))))
            if found is None:  # a set or the settings changed: one full pass covers the batch
                return changed | self.rescan_all()
            changed |= found
        return changed

    def loaded(self) -> Picture:
        """The picture, loaded from the disk on first use."""
        state = self.state
        if state is None:
            with self.mutex:
                if self.state is None:
                    self._finish_interrupted_move()
                    self.state = Picture()
                    with cyclic_gc_paused():
                        self.rescan_all(report=False)
                state = self.state
                assert state is not None
        return state

    def _finish_interrupted_move(self) -> None:
        """A move a killed writer left half done is finished before anything is read."""
        if not os.path.lexists(self.root / moves.INTENT):
            return
        try:
            with self.lock:
                moves.recover(self.root)
        except OSError:
            pass  # a read-only store: the next change finishes it

    def _read_settings(self) -> tuple[bool, bool]:
        """Reload settings.yaml if it changed: (the limits changed, anything changed)."""
        path = self.root / SETTINGS_FILE
        try:
            sig: Signature | None = signature(os.lstat(path))
        except OSError:
            sig = None
        if sig == self._settings_sig:
            return False, False
        self._settings_sig = sig
        before = (self.limits, self.settings_problems)
        self.limits, self.settings_problems = read_settings(self.root, path)
        return self.limits != before[0], (self.limits, self.settings_problems) != before

    def rescan_all(self, *, report: bool = True) -> set[str]:
        """Bring the whole picture up to date; the paths whose state changed (when ``report``)."""
        state = self.state
        assert state is not None
        changed: set[str] = set()
        limits_changed, settings_changed = self._read_settings()
        if limits_changed:
            state.sigs.clear()  # the limits decide what is a problem: read everything again
        if settings_changed:
            changed.add(str(self.root / SETTINGS_FILE))
        seen: set[str] = set()
        ignored: dict[str, Ignored] = {}
        workspaces: list[tuple[str, Path]] = []
        with self.set_folder(self.root / WORKSPACES_DIR, ignored) as ws_fd:
            if ws_fd is not None:
                workspaces, ws_ignored = list_workspaces(self.root, self.root / WORKSPACES_DIR, ws_fd)
                ignored.update((str(item.path), item) for item in ws_ignored)
        sets: list[tuple[Scope, Path]] = [(None, self.root / GLOBAL_DIR), *workspaces]
        self._check_history_top(ignored)
        fresh = not state.items
        listed: list[tuple[Scope, Path, list[FileEntry]]] = []
        for scope, folder in sets:
            with self.set_folder(folder, ignored) as fd:
                if fd is None:
                    continue
                files, set_ignored = list_set(self.root, scope, folder, fd)
                ignored.update((str(item.path), item) for item in set_ignored)
                if not fresh:
                    for entry in files:
                        seen.add(entry.path)
                        if self._load_entry(entry, fd):
                            changed.add(entry.path)
                    continue
            listed.append((scope, folder, files))
        read = 0
        if fresh:
            # The index can hold no more than what the files it stands for hold.
            bound = parse_index.expected_max_bytes(sum(len(f) for _, _, f in listed), self.limits)
            try:
                index = parse_index.load(self.root, self.limits, bound)
            except safe_io.Unsafe as exc:
                index = None
                item = unsafe_ignored(self.root, exc)
                state.history_ignored[str(item.path)] = item
            for _scope, folder, files in listed:
                with self.set_folder(folder, ignored) as fd:
                    if fd is not None:
                        read += self._load_fresh(files, index, fd)
        if fresh:
            if report:
                changed.update(state.items)  # all of them are new
            state.ordered.clear()
            state.chat_sums.clear()
            if read or (index is not None and len(index) != len(state.items)):
                self._save_index()
        for path in [] if fresh else [p for p in state.items if p not in seen]:
            state.drop(path)
            changed.add(path)
        changed |= set(ignored) ^ set(state.ignored)
        state.ignored = ignored
        new_ws = dict(workspaces)
        if new_ws.keys() != state.workspaces.keys():
            changed |= {
                str(p)
                for k, p in (new_ws | state.workspaces).items()
                if (k in new_ws) != (k in state.workspaces)
            }
        state.workspaces = new_ws
        return changed

    @contextmanager
    def set_folder(self, folder: Path, ignored: dict[str, Ignored]) -> Iterator[int | None]:
        """A set's folder opened without following a link on the way (None when it is
        missing, or refused: then ``ignored`` says why)."""
        try:
            fd = safe_io.open_folder(self.root, folder)
        except FileNotFoundError:
            yield None
            return
        except safe_io.Unsafe as exc:
            item = unsafe_ignored(self.root, exc)
            ignored[str(item.path)] = item
            yield None
            return
        except OSError as exc:
            ignored[str(folder)] = Ignored(folder, f"The folder could not be read: {exc.strerror or exc}.")
            yield None
            return
        try:
            yield fd
        finally:
            os.close(fd)

    def forget_history_ignored(self, folder: Path, names: tuple[str, ...] = ()) -> None:
        """Drop what was noted of ``folder`` in the history area, and of its entries
        ``names`` (all of them when none are given): they are being looked at again."""
        state = self.loaded()
        for key in list(state.history_ignored):
            if key == str(folder) or (
                key.startswith(os.path.join(folder, ""))
                and (not names or Path(key).name in names or Path(key).parent == folder)
            ):
                del state.history_ignored[key]

    def note_history_ignored(self, exc: safe_io.Unsafe) -> None:
        """List an entry of the history area the store refused to go through as ignored."""
        with self.mutex:
            item = unsafe_ignored(self.root, exc)
            self.loaded().history_ignored[str(item.path)] = item

    def _check_history_top(self, ignored: dict[str, Ignored]) -> None:
        """List a link (or a file) standing for the history area's own folders as ignored:
        nothing is read or written through it."""
        for parts in (
            (HISTORY_DIR, GLOBAL_DIR),
            (HISTORY_DIR, WORKSPACES_DIR),
            (HISTORY_DIR, parse_index.INDEX_DIR),
        ):
            try:
                os.close(safe_io.open_folder(self.root, self.root.joinpath(*parts)))
            except safe_io.Unsafe as exc:
                item = unsafe_ignored(self.root, exc)
                ignored[str(item.path)] = item
            except OSError:
                continue

    def _load_fresh(self, files: list[FileEntry], index: parse_index.ParseIndex | None, dir_fd: int) -> int:
        """Load a set's files (``dir_fd``: their folder, open) into an empty picture: from the
        parse index when a file's stat is the one it recorded, else from the disk. Returns
        how many files were read."""
        state = self.state
        assert state is not None
        sigs, items, limits, read = state.sigs, state.items, self.limits, 0
        prefix = parse_index.relative_key(files[0].scope, "") if files else ""
        stat_at = os.stat
        for path, scope, memory_id, name in files:
            item: Memory | Problem | None = None
            sig: Signature
            if index is not None:
                try:
                    st = stat_at(name, dir_fd=dir_fd, follow_symlinks=False)
                except OSError:
                    continue
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

    def _save_index(self) -> None:
        """Keep what was just read in the parse index, so the next start need not read it.

        The index is written by a background thread from a snapshot, after the load returns:
        nobody waits for a cache (``_index_writer`` is that thread, for tests and benchmarks).
        """
        state = self.state
        assert state is not None
        if not state.items or not self.root.is_dir():
            return
        sigs = state.sigs
        snapshot = [(sigs[path], item) for path, item in state.items.items()]
        root, limits = self.root, self.limits

        def write() -> None:
            # Hand the interpreter straight back: a new thread otherwise keeps it for a whole
            # switch interval (5 ms) while the caller, who just started it, waits.
            time.sleep(0)
            parse_index.save(root, limits, snapshot)

        writer = threading.Thread(target=write, name="store-parse-index", daemon=False)
        if self.hold_index:
            self._index_waiting = writer
            return
        self.index_writer = writer
        writer.start()

    def write_index_now(self) -> None:
        """Stop holding the parse index back, and write the one waiting, if any."""
        self.hold_index = False
        writer, self._index_waiting = self._index_waiting, None
        if writer is not None:
            self.index_writer = writer
            writer.start()

    def _load_entry(self, entry: FileEntry, dir_fd: int) -> bool:
        """(Re)read one candidate file (``dir_fd``: its folder, open) if its stat changed;
        True when its state changed."""
        state = self.state
        assert state is not None
        old = state.sigs.get(entry.path)
        if old is not None:
            try:
                if signature(os.stat(entry.name, dir_fd=dir_fd, follow_symlinks=False)) == old:
                    return False
            except OSError:
                pass
        result = read_file(entry.name, self.limits, dir_fd)
        if result is None:
            return state.drop(entry.path)
        sig, parsed = result
        item = item_for(entry.path, entry.scope, entry.id, parsed)
        previous = state.items.get(entry.path)
        state.put(entry.path, sig, item)
        return previous != item

    def _relative_parts(self, path: Path) -> tuple[str, ...]:
        try:
            return Path(os.path.abspath(path)).relative_to(self.root).parts
        except ValueError:
            return ()

    def _refresh_path(self, path: Path) -> set[str] | None:
        """Re-read one path; None when only a full rescan can tell what changed."""
        state = self.state
        assert state is not None
        parts = self._relative_parts(path)
        if not parts or parts[0] in (HISTORY_DIR, LOCK_FILE):
            return set()
        if parts == (SETTINGS_FILE,):
            return None
        if parts[0] not in (GLOBAL_DIR, WORKSPACES_DIR) or any(is_silent_name(p) for p in parts):
            return set()
        if parts[0] == WORKSPACES_DIR and len(parts) <= 2 or parts == (GLOBAL_DIR,):
            return None  # a set appeared, went, or was renamed: list them again
        if parts[0] == GLOBAL_DIR and len(parts) == 2:
            scope: Scope = None
        elif parts[0] == WORKSPACES_DIR and len(parts) == 3 and is_valid_key(parts[1]):
            scope = parts[1]
        else:
            return set()
        if scope is not None and scope not in state.workspaces:
            return None
        memory_id = memory_id_of(parts[-1])
        key = str(path)
        try:
            dir_fd = safe_io.open_folder(self.root, path.parent)
        except OSError:
            return None  # the set itself is gone or refused: a full pass says so
        try:
            try:
                mode: int | None = os.stat(path.name, dir_fd=dir_fd, follow_symlinks=False).st_mode
            except OSError:
                mode = None
            changed: set[str] = set()
            was_ignored = state.ignored.pop(key, None)
            if memory_id is None or (mode is not None and not stat.S_ISREG(mode)):
                _files, set_ignored = list_set(self.root, scope, path.parent, dir_fd)
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
            if self._load_entry(FileEntry(key, scope, memory_id, path.name), dir_fd):
                changed.add(key)
            return changed
        finally:
            os.close(dir_fd)

    def reload(self, path: Path) -> None:
        """Bring one file's state up to date (under the lock, before changing it)."""
        self.loaded()
        if self._refresh_path(path) is None:
            self.rescan_all()


def item_for(
    path: str | Path, scope: Scope, memory_id: str, parsed: Document | Content | FileProblem
) -> Memory | Problem:
    """The record a parsed file stands for: a memory, or a problem file."""
    if isinstance(parsed, FileProblem):
        return Problem(Path(path), scope, memory_id, parsed.message, parsed.line)
    f, text = (parsed.fields, parsed.text) if isinstance(parsed, Document) else parsed
    return Memory(
        memory_id,
        scope,
        f.title,
        text,
        f.enabled,
        f.source,
        f.session_id,
        f.created,
        f.updated,
        os.fspath(path),
        f.extra,
    )
