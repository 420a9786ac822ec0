"""``MemoryStore``: every memory of one Oda installation, read and written as the spec says."""

from __future__ import annotations

import gc
import os
import secrets
import stat
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from operator import attrgetter
from pathlib import Path
from typing import Any

from filelock import FileLock

from . import commit, history, leftovers, moves, parse_index, safe_io, trash
from . import messages as msg
from .chat import build_chat_memory, chat_chars, entry_chars, tokens_for_chars
from .commit import NewVersion, read_limited
from .duplicates import find_duplicates, find_similar
from .errors import (
    CouldNotChange,
    LooksSecret,
    MissingField,
    NoSuchVersion,
    NothingToChange,
    NothingToUndo,
    OverChatLimit,
    StoreError,
    TooLong,
    UnknownMemory,
)
from .layout import (
    GLOBAL_DIR,
    HISTORY_DIR,
    LOCK_FILE,
    SETTINGS_FILE,
    WORKSPACES_DIR,
    history_dir,
    history_scope_dir,
    is_silent_name,
    is_valid_id,
    is_valid_key,
    make_dirs,
    memory_id_of,
    scope_dir,
)
from .layout import memory_path as _memory_path
from .limits import Limits, read_settings
from .memoryfile import (
    Content,
    Document,
    Fields,
    FileProblem,
    normalize_text,
    normalize_title,
    parse_bytes,
    render_edit,
    render_new,
)
from .model import (
    Change,
    ChatEntry,
    ChatMemory,
    Deleted,
    Ignored,
    Memory,
    Problem,
    Scope,
    Version,
)
from .scan import (
    FileEntry,
    Signature,
    list_set,
    list_workspaces,
    read_file,
    signature,
    unsafe_ignored,
)
from .secrets import SecretWarning, new_secret_kinds, secret_warnings
from .timestamps import now_utc

VIAS = ("chat", "settings", "restore", "undo")


class _Loaded:
    """The in-memory picture of the disk: what each file is, by path and by scope.

    Paths are keyed as strings: hashing a fresh ``Path`` costs more than reading its stat.
    """

    def __init__(self) -> None:
        self.sigs: dict[str, Signature] = {}
        self.items: dict[str, Memory | Problem] = {}
        self.by_scope: dict[Scope, dict[str, Memory | Problem]] = {None: {}}
        self.ignored: dict[str, Ignored] = {}
        # Links and other refused entries met in the history area (it is not scanned up front).
        self.history_ignored: dict[str, Ignored] = {}
        self.workspaces: dict[str, Path] = {}
        self.ordered: dict[Scope, list[Memory]] = {}
        self.chat_sums: dict[Scope, tuple[int, int]] = {}
        self.derived: dict[str, Any] = {}  # whole-store results (duplicates…), until any change

    def put(self, path: str, sig: Signature, item: Memory | Problem) -> None:
        self.sigs[path] = sig
        self.items[path] = item
        self.by_scope.setdefault(item.scope, {})[item.id] = item
        self.touch(item.scope)

    def drop(self, path: str) -> bool:
        item = self.items.pop(path, None)
        self.sigs.pop(path, None)
        if item is None:
            return False
        scope_items = self.by_scope.get(item.scope, {})
        if scope_items.get(item.id) is item:
            del scope_items[item.id]
        self.touch(item.scope)
        return True

    def touch(self, scope: Scope) -> None:
        self.ordered.pop(scope, None)
        self.chat_sums.pop(scope, None)
        self.derived.clear()


class MemoryStore:
    """The memory files under one root: global, per workspace, their history and limits.

    Reads come from an in-memory picture that ``refresh`` brings up to date with the disk.
    Every change re-reads its file under the store-wide lock, so no outside edit is lost.
    """

    def __init__(self, root: Path | str) -> None:
        self.root = Path(os.path.abspath(os.fspath(root)))
        self._mutex = threading.RLock()
        self._lock = FileLock(str(self.root / LOCK_FILE), thread_local=False)
        self._state: _Loaded | None = None
        self._limits = Limits()
        self._settings_problems: list[str] = []
        self._settings_sig: Signature | None = None
        self._index_writer: threading.Thread | None = None
        self._swept = False  # the first change puts right what killed writers left anywhere

    # --- reading -----------------------------------------------------------------------------

    @property
    def limits(self) -> Limits:
        """The limits in force (settings.yaml, or the defaults)."""
        self._loaded()
        return self._limits

    def settings_problems(self) -> list[str]:
        """One message for each bad line of settings.yaml (its key falls back to the default)."""
        self._loaded()
        return list(self._settings_problems)

    def workspaces(self) -> list[str]:
        """The keys of the workspace folders, sorted."""
        return sorted(self._loaded().workspaces)

    def memories(self, scope: Scope) -> list[Memory]:
        """The problem-free memories of a scope, in (created, id) order."""
        with self._mutex:
            state = self._loaded()
            ordered = state.ordered.get(scope)
            if ordered is None:
                ordered = _in_order(state.by_scope.get(scope, {}).values())
                state.ordered[scope] = ordered
            return list(ordered)

    def get(self, scope: Scope, memory_id: str) -> Memory:
        """One memory; an unknown id (or a problem file) is refused with the spec's message."""
        item = self._loaded().by_scope.get(scope, {}).get(memory_id)
        if not isinstance(item, Memory):
            raise UnknownMemory(memory_id)
        return item

    def find(self, scope: Scope, memory_id: str) -> Memory | Problem | None:
        """What the file of that id is now: a memory, a problem file, or nothing."""
        return self._loaded().by_scope.get(scope, {}).get(memory_id)

    def problems(self) -> list[Problem]:
        """Every problem file, by scope then path."""
        with self._mutex:
            items = [p for p in self._loaded().items.values() if isinstance(p, Problem)]
        return sorted(items, key=lambda p: (p.scope is not None, p.scope or "", str(p.path)))

    def ignored(self) -> list[Ignored]:
        """Everything in the memory sets that is not treated as a memory, with the reason."""
        with self._mutex:
            state = self._loaded()
            found = state.history_ignored | state.ignored
            return sorted(found.values(), key=lambda i: str(i.path))

    def memory_path(self, scope: Scope, memory_id: str) -> Path:
        """Where a memory's file is (whether or not it exists)."""
        self._check_scope(scope)
        return _memory_path(self.root, scope, memory_id)

    def check_title(self, title: str) -> str | None:
        """The message a title would be refused with, or None when it is fine."""
        refusal = self._title_refusal(title)
        return None if refusal is None else str(refusal)

    def check_text(self, text: str) -> str | None:
        """The message a text would be refused with, or None when it is fine."""
        refusal = self._text_refusal(text)
        return None if refusal is None else str(refusal)

    def check_secret(self, title: str, text: str, *, before: tuple[str, str] | None = None) -> str | None:
        """The message secret-looking text is refused with, or None when none is found.

        With ``before`` (the current title and text), only secrets it does not have count.
        """
        refusal = self._secret_refusal(title, text, before=before)
        return None if refusal is None else str(refusal)

    def _title_refusal(self, title: str) -> StoreError | None:
        title = normalize_title(title)
        if not title:
            return MissingField("title")
        if len(title) > self.limits.title_max_chars:
            return TooLong("title", self.limits.title_max_chars, len(title))
        return None

    def _text_refusal(self, text: str) -> StoreError | None:
        text = normalize_text(text)
        if not text:
            return MissingField("text")
        return self._check_length(text)

    @staticmethod
    def _secret_refusal(title: str, text: str, *, before: tuple[str, str] | None) -> StoreError | None:
        kinds = new_secret_kinds((title, text), before)
        return LooksSecret(kinds) if kinds else None

    # --- hygiene: duplicates, similar, secret warnings ---------------------------------------

    def duplicates(self) -> list[list[Memory]]:
        """Groups of enabled memories a chat receives together whose texts are the same after
        normalising (see store.duplicates for how groups are formed)."""
        return [list(g) for g in self._derived("duplicates", lambda: find_duplicates(self._by_scope()))]

    def similar(self) -> list[list[Memory]]:
        """Groups of enabled memories a chat receives together that are similar (same title, or
        one text containing the other) but not duplicates."""
        return [list(g) for g in self._derived("similar", lambda: find_similar(self._by_scope()))]

    def secret_warnings(self) -> list[SecretWarning]:
        """Memories whose title or text looks like it contains a secret (warnings: still sent)."""
        return list(self._derived("secrets", lambda: secret_warnings(self._by_scope())))

    def _by_scope(self) -> dict[Scope, list[Memory]]:
        return {scope: self.memories(scope) for scope in [None, *self.workspaces()]}

    def _derived(self, key: str, compute: Callable[[], list[Any]]) -> list[Any]:
        with self._mutex:
            state = self._loaded()
            found = state.derived.get(key)
            if found is None:
                found = compute()
                state.derived[key] = found
            return list(found)

    # --- what a chat receives ----------------------------------------------------------------

    def chat_memory(self, workspace: str | None = None) -> ChatMemory:
        """Exactly what a chat in ``workspace`` receives (None: a chat outside any workspace)."""
        self._check_scope(workspace)
        scopes: list[Scope] = [None] if workspace is None else [None, workspace]
        entries = [
            ChatEntry(m.id, m.scope, m.title, m.text)
            for scope in scopes
            for m in self.memories(scope)
            if m.enabled
        ]
        return build_chat_memory(entries)

    def chat_tokens(self, workspace: str | None = None) -> int:
        """The estimate of ``chat_memory(workspace)``, without building its text."""
        self._check_scope(workspace)
        with self._mutex:
            total, count = self._sums(None)
            if workspace is not None:
                more, n = self._sums(workspace)
                total, count = total + more, count + n
            return tokens_for_chars(chat_chars(total, count))

    def _sums(self, scope: Scope) -> tuple[int, int]:
        state = self._loaded()
        sums = state.chat_sums.get(scope)
        if sums is None:
            sent = [m for m in state.by_scope.get(scope, {}).values() if isinstance(m, Memory) and m.enabled]
            sums = (sum(entry_chars(m.title, m.text) for m in sent), len(sent))
            state.chat_sums[scope] = sums
        return sums

    # --- history -----------------------------------------------------------------------------

    def versions(self, scope: Scope, memory_id: str) -> list[Version]:
        """The kept versions of a memory (deleted ones too), newest first."""
        self._check_scope(scope)
        if not is_valid_id(memory_id):
            raise UnknownMemory(memory_id)
        hdir = history_dir(self.root, scope, memory_id)
        with self._mutex:
            self._forget_history_ignored(hdir)
            try:
                os.close(safe_io.open_folder(self.root, hdir / history.VERSIONS))
            except safe_io.Unsafe as exc:
                self._note_history_ignored(exc)
                return []
            except OSError:
                return []
        return history.list_versions(self.root, hdir)

    def deleted(self, scope: Scope) -> list[Deleted]:
        """The memories of a scope waiting under Recently deleted, newest first."""
        self._check_scope(scope)
        folder = history_scope_dir(self.root, scope)
        with self._mutex:
            self._forget_history_ignored(folder, (history.DELETED_BYTES, history.DELETED_META))
        try:
            ids = [n for n in safe_io.list_names(self.root, folder) if is_valid_id(n)]
        except safe_io.Unsafe as exc:
            self._note_history_ignored(exc)
            return []
        except OSError:
            return []
        found: list[Deleted] = []
        for memory_id in ids:
            try:
                record = history.read_deletion(self.root, folder / memory_id)
            except safe_io.Unsafe as exc:
                self._note_history_ignored(exc)
                continue
            if record is None or os.path.lexists(_memory_path(self.root, scope, memory_id)):
                continue
            text = ""
            if not record.problem:
                doc = parse_bytes(record.raw, history.READ_LIMITS)
                text = doc.text if isinstance(doc, Document) else ""
            found.append(Deleted(memory_id, scope, record.title, record.deleted_at, text, record.problem))
        return sorted(found, key=lambda d: (d.deleted_at, d.id), reverse=True)

    # --- changes -----------------------------------------------------------------------------

    def create(
        self,
        scope: Scope,
        title: str,
        text: str,
        *,
        enabled: bool = True,
        source: str = "user",
        session_id: str | None = None,
        via: str = "settings",
        allow_secret: bool = False,
    ) -> Memory:
        """Save a new memory; refused with the spec's messages over a limit, and when its
        title or text looks like a secret unless ``allow_secret``."""
        self._check_scope(scope)
        _check_via(via)
        if source not in ("user", "ai"):
            raise CouldNotChange(f'the source "{source}" is not user or ai')
        _check_encodable(title, text, session_id or "")
        title, text = normalize_title(title), normalize_text(text)
        self._refuse(self._title_refusal(title) or self._text_refusal(text))
        if not allow_secret:
            self._refuse(self._secret_refusal(title, text, before=None))
        with self._transaction(scope):
            memory_id = self._new_id(scope)
            moment = now_utc()
            fields = Fields(
                title=title,
                enabled=enabled,
                source=source,
                session_id=session_id,
                created=moment,
                updated=moment,
            )
            data = render_new(fields, text).encode("utf-8")
            self._check_size(data)
            if enabled:
                self._check_tokens(scope, memory_id, None, (title, text))
            version = NewVersion(moment, via, title, text, source)
            return self._commit(scope, memory_id, data, seen=None, version=version)

    def change(
        self,
        scope: Scope,
        memory_id: str,
        *,
        title: str | None = None,
        text: str | None = None,
        via: str = "settings",
        allow_secret: bool = False,
    ) -> Change:
        """Change a memory's title, text or both; a change that changes nothing saves nothing.

        A change that brings in secret-looking text the memory did not have is refused unless
        ``allow_secret`` (a secret already there does not block other edits).
        """
        self._check_scope(scope)
        _check_via(via)
        if title is None and text is None:
            raise NothingToChange()
        _check_encodable(title or "", text or "")
        if title is not None:
            title = normalize_title(title)
            self._refuse(self._title_refusal(title))
        if text is not None:
            text = normalize_text(text)
            self._refuse(self._text_refusal(text))
        with self._transaction(scope, memory_id):
            doc, raw = self._current(scope, memory_id)
            new_title = doc.fields.title if title is None else title
            new_text = doc.text if text is None else text
            if (new_title, new_text) == (doc.fields.title, doc.text):
                return Change(self.get(scope, memory_id), changed=False, note=msg.UNCHANGED)
            if not allow_secret:
                self._refuse(self._secret_refusal(new_title, new_text, before=(doc.fields.title, doc.text)))
            memory = self._save_content(scope, memory_id, doc, raw, new_title, new_text, via)
            return Change(memory, changed=True)

    def set_enabled(self, scope: Scope, memory_id: str, enabled: bool, *, via: str = "settings") -> Memory:
        """Turn a memory on (checked against the limits) or off (never refused)."""
        self._check_scope(scope)
        _check_via(via)
        with self._transaction(scope, memory_id):
            doc, raw = self._current(scope, memory_id)
            if doc.fields.enabled == enabled:
                return self.get(scope, memory_id)
            self._record_outside(scope, memory_id, doc)
            if enabled:
                self._check_tokens(scope, memory_id, None, (doc.fields.title, doc.text))
            data = render_edit(doc, {"enabled": enabled, "updated": now_utc()}, None).encode("utf-8")
            return self._commit(scope, memory_id, data, seen=raw, version=None)

    def delete(self, scope: Scope, memory_id: str, *, via: str = "settings") -> None:
        """Delete a memory (or a problem file): never refused; it waits under ``deleted()``.

        The file itself is moved into history (a rename), never copied.
        """
        self._check_scope(scope)
        _check_via(via)
        if not is_valid_id(memory_id):
            raise UnknownMemory(memory_id)
        with self._transaction(scope, memory_id):
            path = _memory_path(self.root, scope, memory_id)
            self._reload(path)
            item = self._loaded().by_scope.get(scope, {}).get(memory_id)
            if item is None:
                raise UnknownMemory(memory_id)
            raw = read_limited(self.root, path, self._limits.file_max_bytes)
            doc = None if raw is None else parse_bytes(raw, self._limits)
            if isinstance(doc, Document):
                self._record_outside(scope, memory_id, doc)
            trash.delete(self.root, path, history_dir(self.root, scope, memory_id), raw, doc, now_utc())
            self._loaded().drop(str(path))

    def restore_deleted(self, scope: Scope, memory_id: str) -> Memory | None:
        """Put a deleted memory back byte for byte (None for a problem file, no memory)."""
        self._check_scope(scope)
        with self._transaction(scope, memory_id):
            hdir = history_dir(self.root, scope, memory_id)
            record = history.read_deletion(self.root, hdir) if is_valid_id(memory_id) else None
            if record is None:
                raise CouldNotChange(msg.NOT_DELETED.format(id=memory_id))
            path = _memory_path(self.root, scope, memory_id)
            if os.path.lexists(path):
                raise CouldNotChange(msg.ID_IN_USE.format(id=memory_id))
            # Read with room to spare, so a text over today's limit gets the change message.
            doc = None if record.problem else parse_bytes(record.raw, history.READ_LIMITS)
            version = None
            if isinstance(doc, Document):
                self._refuse(self._title_refusal(doc.fields.title) or self._check_length(doc.text))
                self._check_size(record.raw)
                if doc.fields.enabled:
                    self._check_tokens(scope, memory_id, None, (doc.fields.title, doc.text))
                version = NewVersion(now_utc(), "restore", doc.fields.title, doc.text, doc.fields.source)
            elif isinstance(doc, FileProblem):
                raise StoreError(doc.message)
            self._make_set(scope)
            trash.restore(self.root, path, hdir, version, self._limits.versions_kept)
            if version is None:
                self._reload(path)
                return None
            return self._note_written(scope, memory_id)

    def purge_deleted(self, scope: Scope, memory_id: str) -> None:
        """Remove a deleted memory and all its versions for good (the one irreversible action)."""
        self._check_scope(scope)
        with self._transaction(scope, memory_id):
            hdir = history_dir(self.root, scope, memory_id)
            if not is_valid_id(memory_id) or history.read_deletion(self.root, hdir) is None:
                raise CouldNotChange(msg.NOT_DELETED.format(id=memory_id))
            if os.path.lexists(_memory_path(self.root, scope, memory_id)):
                raise CouldNotChange(msg.ID_IN_USE.format(id=memory_id))
            history.purge(self.root, hdir)

    def move(self, scope: Scope, memory_id: str, target: Scope) -> Memory:
        """Move a memory to another scope with its history (same id when it is free there).

        Refused with the usual message when a chat the memory would reach goes over its limit.
        A move interrupted by a crash is finished (or undone) by the next change or start.
        """
        self._check_scope(scope)
        self._check_scope(target)
        if target == scope:
            raise CouldNotChange(msg.SAME_SCOPE)
        with self._transaction(scope, memory_id, also=target):
            doc, raw = self._current(scope, memory_id)
            self._record_outside(scope, memory_id, doc)
            if doc.fields.enabled:
                size = entry_chars(doc.fields.title, doc.text)
                self._check_chats({scope: (-size, -1), target: (size, 1)})
            new_id = memory_id
            if os.path.lexists(_memory_path(self.root, target, new_id)) or os.path.lexists(
                history_dir(self.root, target, new_id)
            ):
                new_id = self._new_id(target)
            plan = moves.Move(self.root, scope, memory_id, target, new_id)
            # Every folder the move goes through, checked before anything is written.
            safe_io.check_folder(self.root, plan.new_history.parent)
            safe_io.check_folder(self.root, plan.dest.parent)
            if os.path.lexists(plan.old_history):
                safe_io.check_folder(self.root, plan.old_history)
            self._make_set(target)
            moves.run(plan, raw, self._limits)
            self._loaded().drop(str(plan.source))
            return self._note_written(target, new_id)

    def restore_version(self, scope: Scope, memory_id: str, name: str) -> Memory:
        """Write an older version back, itself kept as a ``restore`` version (so undoable)."""
        self._check_scope(scope)
        with self._transaction(scope, memory_id):
            doc, raw = self._current(scope, memory_id)
            wanted = next((v for v in self.versions(scope, memory_id) if v.name == name), None)
            if wanted is None:
                raise NoSuchVersion(name)
            return self._write_back(scope, memory_id, doc, raw, wanted, "restore")

    def undo(self, scope: Scope, memory_id: str) -> Memory:
        """Write back the text from before the newest chat change, as an ``undo`` version."""
        self._check_scope(scope)
        with self._transaction(scope, memory_id):
            doc, raw = self._current(scope, memory_id)
            self._record_outside(scope, memory_id, doc)
            versions = self.versions(scope, memory_id)
            for index, version in enumerate(versions):
                if version.source == "undo":
                    break
                if version.source == "chat":
                    if index + 1 < len(versions):
                        return self._write_back(scope, memory_id, doc, raw, versions[index + 1], "undo")
                    if doc.fields.created is not None and version.moment == doc.fields.created:
                        raise CouldNotChange(msg.NOTHING_BEFORE_CHAT)
                    raise CouldNotChange(msg.BEFORE_CHAT_NOT_KEPT)
            raise NothingToUndo()

    # --- keeping up with the disk ------------------------------------------------------------

    def refresh(self, paths: Iterable[Path | str] | None = None) -> set[Path]:
        """Re-read what changed on disk: only ``paths`` (files or folders), or all when None.

        Returns the paths whose state changed; the store's own writes return nothing.
        """
        with self._mutex:
            if self._state is None:
                self._loaded()
                return set()
            changed = self._rescan_all() if paths is None else self._refresh_paths(paths)
            return {Path(p) for p in changed}

    # --- internals: loading ------------------------------------------------------------------

    def _refresh_paths(self, paths: Iterable[Path | str]) -> set[str]:
        changed: set[str] = set()
        for raw_path in paths:
            found = self._refresh_path(Path(os.path.abspath(os.fspath(raw_path))))
            if found is None:  # a set or the settings changed: one full pass covers the batch
                return changed | self._rescan_all()
            changed |= found
        return changed

    def _loaded(self) -> _Loaded:
        state = self._state
        if state is None:
            with self._mutex:
                if self._state is None:
                    self._finish_interrupted_move()
                    self._state = _Loaded()
                    with _cyclic_gc_paused():
                        self._rescan_all(report=False)
                state = self._state
                assert state is not None
        return state

    def _finish_interrupted_move(self) -> None:
        """A move a killed writer left half done is finished before anything is read."""
        if not os.path.lexists(self.root / moves.INTENT):
            return
        try:
            with self._lock:
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
        before = (self._limits, self._settings_problems)
        self._limits, self._settings_problems = read_settings(self.root, path)
        return self._limits != before[0], (self._limits, self._settings_problems) != before

    def _rescan_all(self, *, report: bool = True) -> set[str]:
        """Bring the whole picture up to date; the paths whose state changed (when ``report``)."""
        state = self._state
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
        with self._set_folder(self.root / WORKSPACES_DIR, ignored) as ws_fd:
            if ws_fd is not None:
                workspaces, ws_ignored = list_workspaces(self.root, self.root / WORKSPACES_DIR, ws_fd)
                ignored.update((str(item.path), item) for item in ws_ignored)
        sets: list[tuple[Scope, Path]] = [(None, self.root / GLOBAL_DIR), *workspaces]
        self._check_history_top(ignored)
        fresh = not state.items
        listed: list[tuple[Scope, Path, list[FileEntry]]] = []
        for scope, folder in sets:
            with self._set_folder(folder, ignored) as fd:
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
            bound = parse_index.expected_max_bytes(sum(len(f) for _, _, f in listed), self._limits)
            try:
                index = parse_index.load(self.root, self._limits, bound)
            except safe_io.Unsafe as exc:
                index = None
                item = unsafe_ignored(self.root, exc)
                state.history_ignored[str(item.path)] = item
            for _scope, folder, files in listed:
                with self._set_folder(folder, ignored) as fd:
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
    def _set_folder(self, folder: Path, ignored: dict[str, Ignored]) -> Iterator[int | None]:
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

    def _forget_history_ignored(self, folder: Path, names: tuple[str, ...] = ()) -> None:
        """Drop what was noted of ``folder`` in the history area, and of its entries
        ``names`` (all of them when none are given): they are being looked at again."""
        state = self._loaded()
        for key in list(state.history_ignored):
            if key == str(folder) or (
                key.startswith(os.path.join(folder, ""))
                and (not names or Path(key).name in names or Path(key).parent == folder)
            ):
                del state.history_ignored[key]

    def _note_history_ignored(self, exc: safe_io.Unsafe) -> None:
        """List an entry of the history area the store refused to go through as ignored."""
        with self._mutex:
            item = unsafe_ignored(self.root, exc)
            self._loaded().history_ignored[str(item.path)] = item

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
        state = self._state
        assert state is not None
        sigs, items, limits, read = state.sigs, state.items, self._limits, 0
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
                item = self._item_for(path, scope, memory_id, parsed)
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
        state = self._state
        assert state is not None
        if not state.items or not self.root.is_dir():
            return
        sigs = state.sigs
        snapshot = [(sigs[path], item) for path, item in state.items.items()]
        root, limits = self.root, self._limits

        def write() -> None:
            # Hand the interpreter straight back: a new thread otherwise keeps it for a whole
            # switch interval (5 ms) while the caller, who just started it, waits.
            time.sleep(0)
            parse_index.save(root, limits, snapshot)

        self._index_writer = threading.Thread(target=write, name="store-parse-index", daemon=False)
        self._index_writer.start()

    def _load_entry(self, entry: FileEntry, dir_fd: int) -> bool:
        """(Re)read one candidate file (``dir_fd``: its folder, open) if its stat changed;
        True when its state changed."""
        state = self._state
        assert state is not None
        old = state.sigs.get(entry.path)
        if old is not None:
            try:
                if signature(os.stat(entry.name, dir_fd=dir_fd, follow_symlinks=False)) == old:
                    return False
            except OSError:
                pass
        result = read_file(entry.name, self._limits, dir_fd)
        if result is None:
            return state.drop(entry.path)
        sig, parsed = result
        item = self._item_for(entry.path, entry.scope, entry.id, parsed)
        previous = state.items.get(entry.path)
        state.put(entry.path, sig, item)
        return previous != item

    def _item_for(
        self, path: str | Path, scope: Scope, memory_id: str, parsed: Document | Content | FileProblem
    ) -> Memory | Problem:
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

    def _relative_parts(self, path: Path) -> tuple[str, ...]:
        try:
            return Path(os.path.abspath(path)).relative_to(self.root).parts
        except ValueError:
            return ()

    def _refresh_path(self, path: Path) -> set[str] | None:
        """Re-read one path; None when only a full rescan can tell what changed."""
        state = self._state
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

    def _reload(self, path: Path) -> None:
        """Bring one file's state up to date (under the lock, before changing it)."""
        self._loaded()
        if self._refresh_path(path) is None:
            self._rescan_all()

    # --- internals: writing ------------------------------------------------------------------

    @contextmanager
    def _writing(self) -> Iterator[None]:
        with self._mutex:
            self._loaded()
            try:
                make_dirs(self.root)
                with self._lock:
                    moves.recover(self.root)
                    yield
            except StoreError:
                raise
            except OSError as exc:
                raise CouldNotChange(exc.strerror or str(exc)) from exc

    @contextmanager
    def _transaction(
        self, scope: Scope, memory_id: str | None = None, *, also: Scope = None
    ) -> Iterator[None]:
        """The store-wide lock, with what killed writers left in the sets (and the memory's
        history) put right first: every change runs inside one."""
        with self._writing():
            if not self._swept:
                leftovers.sweep(self.root, [None, *self._workspaces_now()], self._limits)
                self._swept = True
            for each in {scope, also}:
                leftovers.recover_set(self.root, each, self._limits)
            if memory_id is not None and is_valid_id(memory_id):
                leftovers.clean_history(self.root, history_dir(self.root, scope, memory_id))
            yield

    def _check_scope(self, scope: Scope) -> None:
        if scope is not None and (not isinstance(scope, str) or not is_valid_key(scope)):
            raise CouldNotChange(msg.BAD_WORKSPACE_KEY.format(key=scope))

    @staticmethod
    def _refuse(refusal: StoreError | None) -> None:
        if refusal is not None:
            raise refusal

    def _check_length(self, text: str) -> StoreError | None:
        if len(text) > self.limits.text_max_chars:
            return TooLong("text", self.limits.text_max_chars, len(text))
        return None

    def _check_size(self, data: bytes) -> None:
        if len(data) > self._limits.file_max_bytes:
            raise CouldNotChange(msg.FILE_WOULD_BE_TOO_LARGE.format(n=self._limits.file_max_bytes))

    def _current(self, scope: Scope, memory_id: str) -> tuple[Document, bytes]:
        """The memory's file as it is on disk now, and its bytes; refused when missing or a problem."""
        if not is_valid_id(memory_id):
            raise UnknownMemory(memory_id)
        path = _memory_path(self.root, scope, memory_id)
        self._reload(path)
        item = self._loaded().by_scope.get(scope, {}).get(memory_id)
        if item is None:
            raise UnknownMemory(memory_id)
        if isinstance(item, Problem):
            raise CouldNotChange(f"its file has a problem: {item.message.rstrip('.')}")
        raw = read_limited(self.root, path, self._limits.file_max_bytes)
        if raw is None:
            self._reload(path)
            raise UnknownMemory(memory_id)
        parsed = parse_bytes(raw, self._limits)
        if isinstance(parsed, FileProblem):  # changed between the stat and the read
            self._reload(path)
            raise CouldNotChange(f"its file has a problem: {parsed.message.rstrip('.')}")
        return parsed, raw

    def _record_outside(self, scope: Scope, memory_id: str, doc: Document) -> None:
        """Keep the file's current text as a version when history does not have it yet."""
        hdir = history_dir(self.root, scope, memory_id)
        newest = history.newest_version(self.root, hdir)
        if newest is not None and (newest.title, newest.text) == (doc.fields.title, doc.text):
            return
        source = "external" if newest is not None or history.version_names(self.root, hdir) else "found"
        history.add_version(
            self.root,
            hdir,
            moment=now_utc(),
            source=source,
            title=doc.fields.title,
            text=doc.text,
            memory_source=doc.fields.source,
            keep=self._limits.versions_kept,
        )

    def _save_content(
        self, scope: Scope, memory_id: str, doc: Document, raw: bytes, title: str, text: str, via: str
    ) -> Memory:
        self._record_outside(scope, memory_id, doc)
        if doc.fields.enabled:
            self._check_tokens(scope, memory_id, (doc.fields.title, doc.text), (title, text))
        changes: dict[str, Any] = {"updated": now_utc()}
        if title != doc.fields.title:
            changes["title"] = title
        data = render_edit(doc, changes, text).encode("utf-8")
        self._check_size(data)
        version = NewVersion(changes["updated"], via, title, text, doc.fields.source)
        return self._commit(scope, memory_id, data, seen=raw, version=version)

    def _write_back(
        self, scope: Scope, memory_id: str, doc: Document, raw: bytes, version: Version, via: str
    ) -> Memory:
        self._refuse(self._title_refusal(version.title) or self._check_length(version.text))
        if (version.title, version.text) == (doc.fields.title, doc.text):
            return self.get(scope, memory_id)
        return self._save_content(scope, memory_id, doc, raw, version.title, version.text, via)

    def _make_set(self, scope: Scope) -> None:
        """Create a workspace's folder the first time something is written there."""
        folder = scope_dir(self.root, scope)
        safe_io.check_folder(self.root, folder)
        if scope is not None and scope not in self._loaded().workspaces:
            self._loaded().workspaces[scope] = folder

    def _commit(
        self, scope: Scope, memory_id: str, data: bytes, *, seen: bytes | None, version: NewVersion | None
    ) -> Memory:
        self._make_set(scope)
        path = _memory_path(self.root, scope, memory_id)
        hdir = history_dir(self.root, scope, memory_id)
        commit.commit(self.root, path, data, seen=seen, hdir=hdir, version=version, limits=self._limits)
        return self._note_written(scope, memory_id)

    def _note_written(self, scope: Scope, memory_id: str) -> Memory:
        """Take the file just written into the picture, so ``refresh`` does not report it."""
        path = _memory_path(self.root, scope, memory_id)
        found = read_file(path, self._limits)
        if found is None:
            self._loaded().drop(str(path))
            raise UnknownMemory(memory_id)
        sig, parsed = found
        item = self._item_for(path, scope, memory_id, parsed)
        self._loaded().put(str(path), sig, item)
        if not isinstance(item, Memory):
            raise CouldNotChange(f"its file has a problem: {item.message.rstrip('.')}")
        return item

    def _new_id(self, scope: Scope) -> str:
        while True:
            memory_id = secrets.token_hex(4)
            taken = os.path.lexists(_memory_path(self.root, scope, memory_id)) or os.path.lexists(
                history_dir(self.root, scope, memory_id)
            )
            if not taken:
                return memory_id

    def _check_tokens(
        self,
        scope: Scope,
        memory_id: str,
        before: tuple[str, str] | None,
        after: tuple[str, str] | None,
    ) -> None:
        """Refuse when some chat this memory reaches would go over the limit and grow."""
        current = self._loaded().by_scope.get(scope, {}).get(memory_id)
        if before is None and isinstance(current, Memory) and current.enabled:
            before = (current.title, current.text)
        delta_chars = (entry_chars(*after) if after else 0) - (entry_chars(*before) if before else 0)
        delta_count = (after is not None) - (before is not None)
        self._check_chats({scope: (delta_chars, delta_count)})

    def _check_chats(self, deltas: dict[Scope, tuple[int, int]]) -> None:
        """Refuse when these changes (characters, entries, by scope) would take some chat over
        the limit and make it grow; the message names the chat that would be largest.

        The sums come from the files as they are now (another process may have just written),
        read again only where their stat changed.
        """
        limit = self._limits.chat_max_tokens
        keys = {s for s in deltas if s is not None}
        chats: list[str | None] = [*sorted(keys)]
        workspaces = self._workspaces_now() if None in deltas else {}
        if None in deltas:
            chats = [None, *sorted(set(workspaces) | keys)]
        sums = {s: self._sums_now(s, workspaces.get(s) if s is not None else None) for s in {None, *chats}}
        worst: tuple[int, str | None] | None = None
        for chat in chats:
            total, count = sums[None]
            d_chars, d_count = deltas.get(None, (0, 0))
            if chat is not None:
                more, n = sums[chat]
                extra_chars, extra_count = deltas.get(chat, (0, 0))
                total, count = total + more, count + n
                d_chars, d_count = d_chars + extra_chars, d_count + extra_count
            old = tokens_for_chars(chat_chars(total, count))
            new = tokens_for_chars(chat_chars(total + d_chars, count + d_count))
            if new > limit and new > old and (worst is None or new > worst[0]):
                worst = (new, chat)
        if worst is not None:
            tokens, chat = worst
            raise OverChatLimit(chat, tokens, limit)

    def _workspaces_now(self) -> dict[str, Path]:
        ignored: dict[str, Ignored] = {}
        with self._set_folder(self.root / WORKSPACES_DIR, ignored) as fd:
            if fd is None:
                return {}
            found, _ignored = list_workspaces(self.root, self.root / WORKSPACES_DIR, fd)
        return dict(found)

    def _sums_now(self, scope: Scope, folder: Path | None) -> tuple[int, int]:
        """(characters, entries) a scope adds to a chat, from its files as they are now: a stat
        of each, a read only of those whose stat is not the one in the picture."""
        state = self._loaded()
        folder = folder or scope_dir(self.root, scope)
        total = count = 0
        with self._set_folder(folder, {}) as fd:
            if fd is None:
                return 0, 0
            files, _ignored = list_set(self.root, scope, folder, fd)
            for entry in files:
                item: Memory | Problem | None = state.items.get(entry.path)
                try:
                    st = os.stat(entry.name, dir_fd=fd, follow_symlinks=False)
                except OSError:
                    continue
                if item is None or signature(st) != state.sigs.get(entry.path):
                    found = read_file(entry.name, self._limits, fd)
                    item = None if found is None else self._item_for(entry.path, scope, entry.id, found[1])
                if isinstance(item, Memory) and item.enabled:
                    total += entry_chars(item.title, item.text)
                    count += 1
        return total, count


@contextmanager
def _cyclic_gc_paused() -> Iterator[None]:
    """Hold off the cyclic garbage collector while a start builds thousands of records.

    None of them can be part of a cycle, yet every 700 new ones would trigger a collection
    that walks them all again (10 to 20% of a start at 10,000 files).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _in_order(items: Iterable[Memory | Problem]) -> list[Memory]:
    """The memories among ``items`` by (created, id); those without ``created`` first."""
    undated: list[Memory] = []
    dated: list[Memory] = []
    for item in items:
        if isinstance(item, Memory):
            (undated if item.created is None else dated).append(item)
    undated.sort(key=_BY_ID)
    dated.sort(key=_BY_CREATED_ID)  # C-level keys: a start sorts every scope once
    return undated + dated


_BY_ID = attrgetter("id")
_BY_CREATED_ID = attrgetter("created", "id")


def _check_encodable(*values: str) -> None:
    """Refuse text that cannot be written as UTF-8 (a lone surrogate from a tool call)."""
    for value in values:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise CouldNotChange(
                f"the text has a character that cannot be saved (U+{ord(value[exc.start]):04X})"
            ) from None


def _check_via(via: str) -> None:
    if via not in VIAS:
        raise CouldNotChange(f'"{via}" is not a way a change can come')


__all__ = ["MemoryStore"]
