"""Keeping the picture up to date with the disk: the first load and ``refresh``.

The whole pass is here; the first load's use of the parse index is in ``store.first_load``,
one file or one named path in ``store.file_refresh``.

Reads take no disk lock (only ``picture_lock``, briefly): the picture is what the files were
when last looked at, and every change looks again under the store-wide lock before it writes.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable
from pathlib import Path
from stat import S_ISDIR, S_ISLNK

from store.disk import safe_io
from store.disk.layout import (
    GLOBAL_DIR,
    HISTORY_DIR,
    SETTINGS_FILE,
    WORKSPACES_DIR,
    is_silent_name,
    scope_dir,
)
from store.durable import move_recovery, moves
from store.durable.lock import StoreLock
from store.limits import Limits
from store.model import Ignored, Memory, Scope
from store.read import first_load, parse_index
from store.read.followed import Followed
from store.read.picture import Picture, cyclic_gc_paused
from store.read.refresh import load_entry, refresh_path
from store.read.scan import (
    FileEntry,
    Signature,
    list_set,
    list_workspaces,
    open_set_folder,
    signature,
    unsafe_ignored,
    workspace_ignored,
)
from store.read.scan import item_for as item_for  # where callers found it before it moved to scan
from store.read.settings import read_settings


class DiskSync:
    """The picture of one store root and how it is brought up to date.

    ``picture_lock`` guards the picture against this process's threads; ``disk_lock`` is the
    store-wide lock (a file) every change holds against every writer (``oda_tui.session`` says
    which lock protects what).
    """

    def __init__(self, root: Path, *, read_only: bool = False) -> None:
        self.root = root
        #: Only look: no recovery, no parse index, no lock file; changes are refused.
        self.read_only = read_only
        self.picture_lock = threading.RLock()
        self.disk_lock = StoreLock(root)
        self.state: Picture | None = None
        self.limits = Limits()
        self.settings_problems: list[str] = []
        self._settings_sig: Signature | None = None
        self.index_writer: threading.Thread | None = None
        #: While True, a parse index to write waits in ``_index_waiting`` (``write_index_now``).
        self.hold_index = False
        self._index_waiting: threading.Thread | None = None
        #: What ``settings_now`` and ``catch_up`` changed in the picture, for the next ``refresh`` to report.
        self._unreported: set[str] = set()
        #: Sets kept up to date by a feed of change events (``store.followed``), if any.
        self.followed: Followed | None = None
        #: The only sets the picture holds yet (``load_scopes``); None once it holds every set.
        self.partial: frozenset[Scope] | None = None
        #: For each followed set looked at for leftovers since the feed last could not say:
        #: the names starting with "." that the feed named there since (``leftover_names``).
        self._dot_names: dict[Scope, set[str]] = {}

    def catch_up(self) -> tuple[frozenset[Scope], set[str]]:
        """Bring the followed sets up to date (what the feed names, or a look at them whole):
        the sets whose picture is now the disk as it is (none when nothing is followed), and
        the paths whose state changed (also reported by the next ``refresh``)."""
        with self.picture_lock:
            followed = self.followed
            if followed is None:
                return frozenset(), set()
            named = followed.feed.changes()  # asked first: what changes while reading is named next time
            changed: set[str] = set()
            self._note_dot_names(followed.scopes, named)
            if self.state is None:
                self.load_scopes(followed.scopes)  # what the follower needs first, nothing else
            elif named is None:
                changed = self.rescan_scopes(followed.scopes)
            elif named:
                changed = self._refresh_paths(named)
            self._unreported |= changed
            return followed.scopes, changed

    def _note_dot_names(self, scopes: frozenset[Scope], named: set[Path] | None) -> None:
        if named is None or self.state is None:
            self._dot_names.clear()  # the feed could not say: every set is looked at whole
            return
        root = Path(os.path.abspath(self.root))
        folders = {scope_dir(root, scope): scope for scope in scopes if scope in self._dot_names}
        for path in named:
            if path.name.startswith(".") and path.parent in folders:
                self._dot_names[folders[path.parent]].add(path.name)

    def leftover_names(self, scope: Scope) -> set[str] | None:
        """What a change must look at for what killed writers left in the set of ``scope``:
        once the followed sets are caught up, the names starting with "." that the feed named
        there since the set was last looked at; None: the whole set (it is not followed, or the
        feed could not say). Asked under the store-wide lock, so a name it cannot hold yet is
        one made after the answer."""
        with self.picture_lock:
            if self.followed is None or scope not in self.followed.scopes:
                return None
            self.catch_up()
            found = self._dot_names.get(scope)
            return None if found is None else set(found)

    def leftovers_looked_at(self, scope: Scope, waiting: set[str]) -> None:
        """The set of ``scope`` was just put right, under the lock, all but ``waiting`` (temp
        files not yet stale): a followed set's next look needs only what the feed names."""
        with self.picture_lock:
            if self.followed is not None and scope in self.followed.scopes and self.state is not None:
                self._dot_names[scope] = set(waiting)

    def refresh(self, paths: Iterable[Path | str] | None = None) -> set[Path]:
        """Re-read what changed on disk: only ``paths`` (files or folders), or all when None.

        Returns the paths whose state changed; the store's own writes return nothing.
        """
        with self.picture_lock:
            if self.state is None:
                self.loaded()
                return set()
            if self.partial is not None:
                self.loaded()  # the rest, read as it is now: nothing more to look at
                changed: set[str] = set()
            else:
                changed = self.rescan_all() if paths is None else self._refresh_paths(paths)
            changed, self._unreported = changed | self._unreported, set()
            return {Path(p) for p in changed}

    def refresh_scopes(self, scopes: Iterable[Scope]) -> set[Path]:
        """``refresh`` of the sets of ``scopes`` only (see ``rescan_scopes``)."""
        scopes = list(scopes)
        with self.picture_lock:
            if self.state is None:
                self.loaded()
                return set()
            if self.partial is not None and not self.partial.issuperset(scopes):
                self.loaded()
            changed, self._unreported = self.rescan_scopes(scopes) | self._unreported, set()
            return {Path(p) for p in changed}

    def settings_now(self) -> Limits:
        """The limits as settings.yaml says them now: a stat, and a read only when it changed.
        Every change asks under the lock, so limits another process just set apply at once;
        what that changed in the picture is reported by the next ``refresh``."""
        with self.picture_lock:
            self.loaded()
            settings = self._read_settings()
            if settings[0]:
                self._unreported |= self._full_pass(settings)  # the limits decide what is a problem
            elif settings[1]:
                self._unreported.add(str(self.root / SETTINGS_FILE))
            return self.limits

    def _refresh_paths(self, paths: Iterable[Path | str]) -> set[str]:
        state = self.state
        assert state is not None
        changed: set[str] = set()
        for raw_path in paths:
            found = refresh_path(self.root, state, self.limits, Path(os.path.abspath(os.fspath(raw_path))))
            if found is None:  # a set or the settings changed: one full pass covers the batch
                return changed | self.rescan_all()
            changed |= found
        return changed

    def loaded(self) -> Picture:
        """The picture of every set, loaded from the disk on first use (the sets a
        ``load_scopes`` left out are loaded now)."""
        state = self.state
        if state is None or self.partial is not None:
            with self.picture_lock:
                if self.state is None:
                    if not self.read_only:
                        self._finish_interrupted_move()
                    self.state = Picture()
                    with cyclic_gc_paused():
                        self.rescan_all(report=False)
                elif self.partial is not None:
                    with cyclic_gc_paused():
                        self._unreported |= self.rescan_all()
                state = self.state
                assert state is not None
        return state

    def loaded_for(self, scopes: Iterable[Scope]) -> Picture:
        """The picture, holding at least the sets of ``scopes`` (every set when it holds
        none of them yet: ``loaded``)."""
        state, partial = self.state, self.partial
        if state is not None and (partial is None or partial.issuperset(scopes)):
            return state
        return self.loaded()

    def load_scopes(self, scopes: Iterable[Scope]) -> None:
        """Load only the sets of ``scopes`` into a picture not loaded yet: what one chat
        receives, with no look at any other set (nor the parse index, which stands for all of
        them). Whatever needs more (a change, a list of the workspaces, a full refresh) loads
        the rest first; nothing happens when the picture is loaded already."""
        with self.picture_lock:
            if self.state is not None:
                return
            if not self.read_only:
                self._finish_interrupted_move()
            self.state = Picture()
            self.partial = frozenset(scopes)
            with cyclic_gc_paused():
                self.rescan_scopes(self.partial)

    def _finish_interrupted_move(self) -> None:
        """A move a killed writer left half done is finished (or its record set aside) before
        anything is read."""
        if not os.path.lexists(self.root / moves.INTENT):
            return
        try:
            with self.disk_lock:
                move_recovery.recover(self.root)
        except OSError:
            pass  # a read-only store: the next change finishes it

    def recover_moves(self) -> None:
        """Under the lock, before a change: finish a move a killed writer left, or set its
        record aside; what was set aside in the root is listed as ignored at once."""
        if os.path.lexists(self.root / moves.INTENT):
            move_recovery.recover(self.root)
            self.disk_lock.set_aside_any = True
        if self.disk_lock.set_aside_any and self.state is not None:
            self.disk_lock.set_aside_any = False
            self._note_root_ignored(self.state.ignored)

    def _note_root_ignored(self, ignored: dict[str, Ignored]) -> None:
        """Replace what is listed as ignored in the root itself (see ``store.move_recovery``)."""
        move_recovery.note_root(self.root, ignored)

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
        return self._full_pass(self._read_settings(), report=report)

    def _full_pass(self, settings: tuple[bool, bool], *, report: bool = True) -> set[str]:
        """``rescan_all`` once settings.yaml was read (``settings``: what ``_read_settings`` said)."""
        state = self.state
        assert state is not None
        changed: set[str] = set()
        limits_changed, settings_changed = settings
        if limits_changed:
            state.sigs.clear()  # the limits decide what is a problem: read everything again
        if settings_changed:
            changed.add(str(self.root / SETTINGS_FILE))
        ignored: dict[str, Ignored] = {}
        self._note_root_ignored(ignored)
        workspaces = self._list_workspaces(ignored)
        sets: list[tuple[Scope, Path]] = [(None, self.root / GLOBAL_DIR), *workspaces]
        self._check_history_top(ignored)
        if self.partial is not None:
            changed |= self._load_rest(sets, ignored)
            state.ignored = ignored
            self._take_workspaces(dict(workspaces))
            # Only now: ``loaded`` takes no lock while ``partial`` is None, and must not hand
            # out a picture half filled.
            self.partial = None
            return changed  # what came with the rest is new, as in a first load
        if state.items:
            changed |= self._rescan_sets(sets, ignored)
        else:
            changed |= self._load_sets(sets, ignored, report=report)
        changed |= set(ignored) ^ set(state.ignored)
        state.ignored = ignored
        return changed | self._take_workspaces(dict(workspaces))

    def _list_workspaces(self, ignored: dict[str, Ignored]) -> list[tuple[str, Path]]:
        """The workspace folders, noting in ``ignored`` what is not one."""
        with open_set_folder(self.root, self.root / WORKSPACES_DIR, ignored) as ws_fd:
            if ws_fd is None:
                return []
            workspaces, ws_ignored = list_workspaces(self.root, self.root / WORKSPACES_DIR, ws_fd)
            ignored.update((str(item.path), item) for item in ws_ignored)
            return workspaces

    def _load_sets(
        self, sets: list[tuple[Scope, Path]], ignored: dict[str, Ignored], *, report: bool
    ) -> set[str]:
        """Read every set into the empty picture (from the parse index where it is current),
        and write the index again when it was not."""
        state = self.state
        assert state is not None
        listed: list[tuple[Scope, Path, list[FileEntry]]] = []
        for scope, folder in sets:
            files, _changed = self._scan_set(scope, folder, ignored, load=False)
            if files is not None:
                listed.append((scope, folder, files))
        stale = first_load.load_sets(self.root, state, self.limits, listed, ignored)
        state.ordered.clear()
        state.chat_sums.clear()
        writer = (
            first_load.index_writer(self.root, state, self.limits) if stale and not self.read_only else None
        )
        if writer is not None and self.hold_index:
            self._index_waiting = writer
        elif writer is not None:
            self.index_writer = writer
            writer.start()
        return set(state.items) if report else set()  # all of them are new

    def _load_rest(self, sets: list[tuple[Scope, Path]], ignored: dict[str, Ignored]) -> set[str]:
        """Complete a picture ``load_scopes`` began: its sets brought up to date, every other
        one loaded (from the parse index where it is current). The paths of its sets whose
        state changed."""
        partial = self.partial
        assert partial is not None
        mine = [s for s in sets if s[0] in partial]
        changed = self._rescan_sets(mine, ignored)  # (drops what went, its folder too)
        self._load_sets([s for s in sets if s[0] not in partial], ignored, report=False)
        return changed

    def _rescan_sets(self, sets: list[tuple[Scope, Path]], ignored: dict[str, Ignored]) -> set[str]:
        """Read again each file of these sets whose stat changed, and drop what is gone."""
        state = self.state
        assert state is not None
        changed: set[str] = set()
        seen: set[str] = set()
        for scope, folder in sets:
            files, set_changed = self._scan_set(scope, folder, ignored, load=True)
            if files is not None:
                seen.update(entry.path for entry in files)
                changed |= set_changed
        for path in [p for p in state.items if p not in seen]:
            state.drop(path)
            changed.add(path)
        return changed

    def _take_workspaces(self, found: dict[str, Path]) -> set[str]:
        """Take the workspace folders listed now; the folders that came or went."""
        state = self.state
        assert state is not None
        was = state.workspaces
        state.workspaces = found
        if found.keys() == was.keys():
            return set()
        return {str(p) for k, p in (found | was).items() if (k in found) != (k in was)}

    def _scan_set(
        self, scope: Scope, folder: Path, ignored: dict[str, Ignored], *, load: bool
    ) -> tuple[list[FileEntry] | None, set[str]]:
        """List one set's files, noting in ``ignored`` what it ignores; with ``load``, read
        again each file whose stat changed. The files (None: the folder could not be opened)
        and the paths whose state changed."""
        state = self.state
        assert state is not None
        changed: set[str] = set()
        with open_set_folder(self.root, folder, ignored) as fd:
            if fd is None:
                return None, changed
            files, set_ignored = list_set(self.root, scope, folder, fd)
            ignored.update((str(item.path), item) for item in set_ignored)
            if load:
                for entry in files:
                    if load_entry(state, entry, fd, self.limits):
                        changed.add(entry.path)
        return files, changed

    def rescan_scopes(self, scopes: Iterable[Scope]) -> set[str]:
        """Bring only the sets of ``scopes`` up to date, exactly as the full pass would: their
        files, what is ignored in them, whether a workspace's folder is there; with them
        settings.yaml and the history area's own folders. The paths whose state changed.

        No other set is opened, listed or read. A full pass runs instead when the limits
        changed (they decide what is a problem), when the picture is empty (it was never
        loaded from any file), or when the workspaces folder itself cannot be used.
        """
        state = self.state
        assert state is not None
        wanted = list(dict.fromkeys(scopes))
        settings = self._read_settings()
        present = self._workspaces_now([scope for scope in wanted if scope is not None])
        # An empty picture ``load_scopes`` began is filled here, set by set; the limits it was
        # begun with are read just now.
        began = self.partial is not None and not state.items
        if (settings[0] and not began) or (not state.items and self.partial is None) or present is None:
            return self._full_pass(settings)
        changed = {str(self.root / SETTINGS_FILE)} if settings[1] else set()
        ignored: dict[str, Ignored] = {}
        self._check_history_top(ignored)
        owned = [self.root / HISTORY_DIR]
        for scope in wanted:
            folder = self.root / GLOBAL_DIR
            if scope is not None:
                folder = self.root / WORKSPACES_DIR / scope
                changed |= self._take_workspace(scope, present[scope], ignored)
            owned.append(folder)
            changed |= self._rescan_one_set(scope, folder, ignored)
        changed |= self._replace_ignored(owned, ignored)
        state.workspaces = dict(sorted(state.workspaces.items()))
        return changed

    def _take_workspace(self, key: str, now: Path | Ignored | None, ignored: dict[str, Ignored]) -> set[str]:
        """Take what one workspace's folder is now (``_workspaces_now``); its path when it came
        or went."""
        state = self.state
        assert state is not None
        was = state.workspaces.get(key)
        if isinstance(now, Ignored):
            ignored[str(now.path)] = now
        if isinstance(now, Path):
            state.workspaces[key] = now
        else:
            state.workspaces.pop(key, None)
        if isinstance(now, Path) == (was is not None):
            return set()
        return {str(now if isinstance(now, Path) else was)}

    def _rescan_one_set(self, scope: Scope, folder: Path, ignored: dict[str, Ignored]) -> set[str]:
        """Read again the files of one set whose stat changed, and drop what is gone from it."""
        state = self.state
        assert state is not None
        looked = scope is None or scope in state.workspaces
        files, changed = self._scan_set(scope, folder, ignored, load=True) if looked else (None, set[str]())
        seen = {entry.path for entry in files or ()}
        for item in list(state.by_scope.get(scope, {}).values()):
            key = item.location if isinstance(item, Memory) else str(item.path)  # no Path built
            if key not in seen and state.drop(key):
                changed.add(key)
        return changed

    def _replace_ignored(self, owned: list[Path], ignored: dict[str, Ignored]) -> set[str]:
        """What was ignored in the folders looked at is replaced; the rest stays as it was."""
        state = self.state
        assert state is not None
        prefixes = tuple(os.path.join(folder, "") for folder in owned)
        names = {str(folder) for folder in owned}
        before = {key for key in state.ignored if key in names or key.startswith(prefixes)}
        for key in before:
            del state.ignored[key]
        state.ignored.update(ignored)
        return before ^ set(ignored)

    def _workspaces_now(self, keys: list[str]) -> dict[str, Path | Ignored | None] | None:
        """What each of ``keys`` is in the workspaces folder now, as the full pass would list
        it: its folder, why it is ignored, or None when there is none. None when the
        workspaces folder itself is missing or refused (only a full pass tells all then)."""
        state = self.state
        assert state is not None
        folder = self.root / WORKSPACES_DIR
        if not keys:
            return {}
        if str(folder) in state.ignored:
            return None
        found: dict[str, Path | Ignored | None] = {}
        with open_set_folder(self.root, folder, {}) as fd:
            if fd is None:
                return None
            for key in keys:
                if is_silent_name(key):
                    found[key] = None  # never a workspace, never listed
                    continue
                try:
                    mode = os.stat(key, dir_fd=fd, follow_symlinks=False).st_mode
                except FileNotFoundError:
                    found[key] = None
                    continue
                except OSError:
                    return None
                path = folder / key
                why = workspace_ignored(self.root, path, is_link=S_ISLNK(mode), is_dir=S_ISDIR(mode))
                found[key] = path if why is None else why
        return found

    def write_index_now(self) -> None:
        """Stop holding the parse index back, and write the one waiting, if any."""
        self.hold_index = False
        writer, self._index_waiting = self._index_waiting, None
        if writer is not None:
            self.index_writer = writer
            writer.start()

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
        with self.picture_lock:
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
                safe_io.close_quietly(safe_io.open_folder(self.root, self.root.joinpath(*parts)))
            except safe_io.Unsafe as exc:
                item = unsafe_ignored(self.root, exc)
                ignored[str(item.path)] = item
            except OSError:
                continue

    def reload(self, path: Path) -> None:
        """Bring one file's state up to date (under the lock, before changing it)."""
        state = self.loaded()
        if refresh_path(self.root, state, self.limits, path) is None:
            self.rescan_all()
