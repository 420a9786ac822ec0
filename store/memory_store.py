"""``MemoryStore``: every memory of one Oda installation, read and written as the spec says."""

from __future__ import annotations

import gc
import os
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from operator import attrgetter
from pathlib import Path
from typing import Any

from filelock import FileLock

from . import history, parse_index
from . import messages as msg
from .atomic import fsync_dir, remove_durably, write_atomic
from .chat import build_chat_memory, chat_chars, entry_chars, tokens_for_chars
from .duplicates import find_duplicates, find_similar
from .errors import StoreError
from .layout import (
    GLOBAL_DIR,
    HISTORY_DIR,
    LOCK_FILE,
    SETTINGS_FILE,
    WORKSPACES_DIR,
    history_dir,
    history_scope_dir,
    is_inside,
    is_silent_name,
    is_valid_id,
    is_valid_key,
    make_dirs,
    memory_id_of,
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
    parse_text,
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
from .scan import FileEntry, Signature, list_set, list_workspaces, read_file, signature
from .secrets import SecretWarning, describe_kinds, new_secret_kinds, secret_warnings
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
            raise StoreError(msg.UNKNOWN_ID.format(id=memory_id))
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
            return sorted(self._loaded().ignored.values(), key=lambda i: str(i.path))

    def memory_path(self, scope: Scope, memory_id: str) -> Path:
        """Where a memory's file is (whether or not it exists)."""
        self._check_scope(scope)
        return _memory_path(self.root, scope, memory_id)

    def check_title(self, title: str) -> str | None:
        """The message a title would be refused with, or None when it is fine."""
        title = normalize_title(title)
        if not title:
            return msg.NEEDS_TITLE
        if len(title) > self.limits.title_max_chars:
            return msg.TITLE_TOO_LONG.format(n=self.limits.title_max_chars, m=len(title))
        return None

    def check_text(self, text: str) -> str | None:
        """The message a text would be refused with, or None when it is fine."""
        text = normalize_text(text)
        if not text:
            return msg.NEEDS_TEXT
        if len(text) > self.limits.text_max_chars:
            return msg.TEXT_TOO_LONG.format(n=self.limits.text_max_chars, m=len(text))
        return None

    def check_secret(self, title: str, text: str, *, before: tuple[str, str] | None = None) -> str | None:
        """The message secret-looking text is refused with, or None when none is found.

        With ``before`` (the current title and text), only secrets it does not have count.
        """
        kinds = new_secret_kinds((title, text), before)
        return msg.LOOKS_SECRET.format(what=describe_kinds(kinds)) if kinds else None

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
            raise StoreError(msg.UNKNOWN_ID.format(id=memory_id))
        return history.list_versions(history_dir(self.root, scope, memory_id))

    def deleted(self, scope: Scope) -> list[Deleted]:
        """The memories of a scope waiting under Recently deleted, newest first."""
        self._check_scope(scope)
        folder = history_scope_dir(self.root, scope)
        try:
            ids = [n for n in os.listdir(folder) if is_valid_id(n)]
        except OSError:
            return []
        found: list[Deleted] = []
        for memory_id in ids:
            if _memory_path(self.root, scope, memory_id).exists():
                continue
            record = history.read_deletion(folder / memory_id)
            if record is None:
                newest = history.newest_version(folder / memory_id)
                if newest is not None:  # removed outside the app; its versions remain
                    found.append(
                        Deleted(memory_id, scope, newest.title, newest.moment, newest.text, outside=True)
                    )
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
            raise StoreError(msg.COULD_NOT_CHANGE.format(reason=f'the source "{source}" is not user or ai'))
        title, text = normalize_title(title), normalize_text(text)
        self._refuse(self.check_title(title) or self.check_text(text))
        if not allow_secret:
            self._refuse(self.check_secret(title, text))
        with self._writing():
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
            memory = self._write_memory(scope, memory_id, data)
            self._add_version(scope, memory_id, moment, via, title, text, source)
            return memory

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
            raise StoreError(msg.GIVE_TITLE_OR_TEXT)
        if title is not None:
            title = normalize_title(title)
            self._refuse(self.check_title(title))
        if text is not None:
            text = normalize_text(text)
            self._refuse(self.check_text(text))
        with self._writing():
            doc = self._current(scope, memory_id)
            self._record_outside(scope, memory_id, doc)
            new_title = doc.fields.title if title is None else title
            new_text = doc.text if text is None else text
            if (new_title, new_text) == (doc.fields.title, doc.text):
                return Change(self.get(scope, memory_id), changed=False, note=msg.UNCHANGED)
            if not allow_secret:
                self._refuse(self.check_secret(new_title, new_text, before=(doc.fields.title, doc.text)))
            memory = self._save_content(scope, memory_id, doc, new_title, new_text, via)
            return Change(memory, changed=True)

    def set_enabled(self, scope: Scope, memory_id: str, enabled: bool, *, via: str = "settings") -> Memory:
        """Turn a memory on (checked against the limits) or off (never refused)."""
        self._check_scope(scope)
        _check_via(via)
        with self._writing():
            doc = self._current(scope, memory_id)
            self._record_outside(scope, memory_id, doc)
            if doc.fields.enabled == enabled:
                return self.get(scope, memory_id)
            if enabled:
                self._check_tokens(scope, memory_id, None, (doc.fields.title, doc.text))
            data = render_edit(doc, {"enabled": enabled, "updated": now_utc()}, None)
            return self._write_memory(scope, memory_id, data.encode("utf-8"))

    def delete(self, scope: Scope, memory_id: str, *, via: str = "settings") -> None:
        """Delete a memory (or a problem file): never refused; it waits under ``deleted()``."""
        self._check_scope(scope)
        _check_via(via)
        with self._writing():
            path = _memory_path(self.root, scope, memory_id)
            self._reload(path)
            item = self._loaded().by_scope.get(scope, {}).get(memory_id)
            if item is None or not is_valid_id(memory_id):
                raise StoreError(msg.UNKNOWN_ID.format(id=memory_id))
            try:
                raw = path.read_bytes()
            except OSError as exc:
                raise StoreError(msg.COULD_NOT_CHANGE.format(reason=exc.strerror or exc)) from exc
            hdir = history_dir(self.root, scope, memory_id)
            if isinstance(item, Memory):
                doc = parse_bytes(raw, self._limits)
                if isinstance(doc, Document):
                    self._record_outside(scope, memory_id, doc)
                history.write_deletion(hdir, raw, item.title, now_utc(), problem=False)
            else:
                history.write_deletion(hdir, raw, path.name, now_utc(), problem=True)
            remove_durably(path)
            self._loaded().drop(str(path))

    def restore_deleted(self, scope: Scope, memory_id: str) -> Memory | None:
        """Write a deleted memory back byte for byte (None for a problem file, no memory)."""
        self._check_scope(scope)
        with self._writing():
            hdir = history_dir(self.root, scope, memory_id)
            record = history.read_deletion(hdir) if is_valid_id(memory_id) else None
            path = _memory_path(self.root, scope, memory_id)
            if record is None and is_valid_id(memory_id) and not path.exists():
                newest = history.newest_version(hdir)
                if newest is not None:
                    return self._restore_removed_outside(scope, memory_id, hdir, newest)
            if record is None:
                raise StoreError(msg.COULD_NOT_CHANGE.format(reason=msg.NOT_DELETED.format(id=memory_id)))
            if path.exists():
                raise StoreError(msg.COULD_NOT_CHANGE.format(reason=msg.ID_IN_USE.format(id=memory_id)))
            # Read with room to spare, so a text over today's limit gets the change message.
            doc = None if record.problem else parse_bytes(record.raw, history.READ_LIMITS)
            if isinstance(doc, Document):
                self._refuse(self.check_title(doc.fields.title) or self._check_length(doc.text))
                self._check_size(record.raw)
                if doc.fields.enabled:
                    self._check_tokens(scope, memory_id, None, (doc.fields.title, doc.text))
            elif isinstance(doc, FileProblem) and not record.problem:
                self._refuse(doc.message)
            sig = signature(write_atomic(path, record.raw))
            history.clear_deletion(hdir)
            item = self._item_for(path, scope, memory_id, parse_bytes(record.raw, self._limits))
            self._loaded().put(str(path), sig, item)
            if isinstance(item, Memory):
                self._add_version(scope, memory_id, now_utc(), "restore", item.title, item.text, item.source)
                return item
            return None

    def _restore_removed_outside(self, scope: Scope, memory_id: str, hdir: Path, newest: Version) -> Memory:
        """Write back the newest version of a memory whose file was removed outside the app."""
        doc = parse_bytes((hdir / history.VERSIONS / f"{newest.name}.md").read_bytes(), history.READ_LIMITS)
        source = doc.fields.source if isinstance(doc, Document) else "user"
        self._refuse(self.check_title(newest.title) or self._check_length(newest.text))
        self._check_tokens(scope, memory_id, None, (newest.title, newest.text))
        moment = now_utc()
        fields = Fields(title=newest.title, enabled=True, source=source, updated=moment)
        data = render_new(fields, newest.text).encode("utf-8")
        self._check_size(data)
        memory = self._write_memory(scope, memory_id, data)
        self._add_version(scope, memory_id, moment, "restore", memory.title, memory.text, source)
        return memory

    def purge_deleted(self, scope: Scope, memory_id: str) -> None:
        """Remove a deleted memory and all its versions for good (the one irreversible action)."""
        self._check_scope(scope)
        with self._writing():
            hdir = history_dir(self.root, scope, memory_id)
            waiting = is_valid_id(memory_id) and (
                history.read_deletion(hdir) is not None or history.newest_version(hdir) is not None
            )
            if not waiting:
                raise StoreError(msg.COULD_NOT_CHANGE.format(reason=msg.NOT_DELETED.format(id=memory_id)))
            if _memory_path(self.root, scope, memory_id).exists():
                raise StoreError(msg.COULD_NOT_CHANGE.format(reason=msg.ID_IN_USE.format(id=memory_id)))
            history.purge(hdir)

    def move(self, scope: Scope, memory_id: str, target: Scope) -> Memory:
        """Move a memory to another scope with its history (same id when it is free there).

        Refused with the usual message when a chat the memory would reach goes over its limit.
        """
        self._check_scope(scope)
        self._check_scope(target)
        if target == scope:
            raise StoreError(msg.COULD_NOT_CHANGE.format(reason=msg.SAME_SCOPE))
        with self._writing():
            doc = self._current(scope, memory_id)
            self._record_outside(scope, memory_id, doc)
            if doc.fields.enabled:
                size = entry_chars(doc.fields.title, doc.text)
                self._check_chats({scope: (-size, -1), target: (size, 1)})
            new_id = memory_id
            if (
                _memory_path(self.root, target, new_id).exists()
                or history_dir(self.root, target, new_id).exists()
            ):
                new_id = self._new_id(target)
            source = _memory_path(self.root, scope, memory_id)
            raw = source.read_bytes()
            # Order matters for a crash: the new file first, then its history, then the old
            # file, so at every moment the text is on disk at least once.
            moved = self._write_memory(target, new_id, raw)
            old_history = history_dir(self.root, scope, memory_id)
            if old_history.exists():
                new_history = history_dir(self.root, target, new_id)
                make_dirs(new_history.parent)
                os.replace(old_history, new_history)
                fsync_dir(new_history.parent)
                fsync_dir(old_history.parent)
            remove_durably(source)
            self._loaded().drop(str(source))
            return moved

    def restore_version(self, scope: Scope, memory_id: str, name: str) -> Memory:
        """Write an older version back, itself kept as a ``restore`` version (so undoable)."""
        self._check_scope(scope)
        with self._writing():
            doc = self._current(scope, memory_id)
            self._record_outside(scope, memory_id, doc)
            wanted = next((v for v in self.versions(scope, memory_id) if v.name == name), None)
            if wanted is None:
                raise StoreError(msg.NO_SUCH_VERSION.format(name=name))
            return self._write_back(scope, memory_id, doc, wanted, "restore")

    def undo(self, scope: Scope, memory_id: str) -> Memory:
        """Write back the text from before the newest chat change, as an ``undo`` version."""
        self._check_scope(scope)
        with self._writing():
            doc = self._current(scope, memory_id)
            self._record_outside(scope, memory_id, doc)
            versions = self.versions(scope, memory_id)
            for index, version in enumerate(versions):
                if version.source == "undo":
                    break
                if version.source == "chat":
                    if index + 1 >= len(versions):
                        raise StoreError(msg.COULD_NOT_CHANGE.format(reason=msg.NOTHING_BEFORE_CHAT))
                    return self._write_back(scope, memory_id, doc, versions[index + 1], "undo")
            raise StoreError(msg.NOTHING_TO_UNDO)

    # --- the frontmatter block as written ------------------------------------------------------

    def frontmatter(self, scope: Scope, memory_id: str) -> str:
        """The memory's frontmatter block as written in its file (the lines between ``---``)."""
        self._check_scope(scope)
        with self._mutex:
            self._loaded()
            return "\n".join(self._current(scope, memory_id).fm_lines)

    def check_frontmatter(self, block: str, text: str) -> str | None:
        """The store's own message for what is wrong with this block over ``text``, or None.

        A file problem reads as the spec's problem message (``The frontmatter is not valid
        YAML: …``); a title or text over its limit reads as the change message.
        """
        content = _with_block(block, f"\n{text}\n")
        if len(content.encode("utf-8")) > self._limits.file_max_bytes:  # named before any parsing
            return msg.FILE_TOO_LARGE.format(n=self._limits.file_max_bytes)
        parsed = parse_text(content, history.READ_LIMITS)
        if isinstance(parsed, FileProblem):
            return parsed.message
        return self.check_title(parsed.fields.title) or self._check_length(parsed.text)

    def change_frontmatter(
        self, scope: Scope, memory_id: str, block: str, *, via: str = "settings", allow_secret: bool = False
    ) -> Memory:
        """Write a new frontmatter block as given, the text below it kept byte for byte.

        Refused with ``check_frontmatter``'s message when the block is not a valid memory's,
        and like any change over a limit; a changed title is kept as a version.
        """
        self._check_scope(scope)
        _check_via(via)
        with self._writing():
            doc = self._current(scope, memory_id)
            self._record_outside(scope, memory_id, doc)
            content = _with_block(block, doc.body)
            parsed = parse_text(content, history.READ_LIMITS)
            if isinstance(parsed, FileProblem):
                raise StoreError(parsed.message)
            fields = parsed.fields
            self._refuse(self.check_title(fields.title) or self._check_length(parsed.text))
            if not allow_secret:
                self._refuse(
                    self.check_secret(fields.title, parsed.text, before=(doc.fields.title, doc.text))
                )
            data = content.encode("utf-8")
            self._check_size(data)
            if fields.enabled:
                before = (doc.fields.title, doc.text) if doc.fields.enabled else None
                self._check_tokens(scope, memory_id, before, (fields.title, parsed.text))
            memory = self._write_memory(scope, memory_id, data)
            if fields.title != doc.fields.title:
                self._add_version(scope, memory_id, now_utc(), via, fields.title, parsed.text, fields.source)
            return memory

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
                    self._state = _Loaded()
                    with _cyclic_gc_paused():
                        self._rescan_all(report=False)
                state = self._state
                assert state is not None
        return state

    def _read_settings(self) -> tuple[bool, bool]:
        """Reload settings.yaml if it changed: (the limits changed, anything changed)."""
        path = self.root / SETTINGS_FILE
        try:
            sig: Signature | None = signature(os.stat(path))
        except OSError:
            sig = None
        if sig == self._settings_sig:
            return False, False
        self._settings_sig = sig
        before = (self._limits, self._settings_problems)
        self._limits, self._settings_problems = read_settings(path)
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
        workspaces, ws_ignored = list_workspaces(self.root, self.root / WORKSPACES_DIR)
        if not (self.root / GLOBAL_DIR).exists() or is_inside(self.root, self.root / GLOBAL_DIR):
            sets: list[tuple[Scope, Path]] = [(None, self.root / GLOBAL_DIR)]
        else:
            sets = []
            ignored[str(self.root / GLOBAL_DIR)] = Ignored(self.root / GLOBAL_DIR, msg.IGNORED_LINK_OUTSIDE)
        sets += [(key, path) for key, path in workspaces]
        for item in ws_ignored:
            ignored[str(item.path)] = item
        fresh = not state.items
        index = parse_index.load(self.root, self._limits) if fresh else None
        read = 0
        for scope, folder in sets:
            files, set_ignored = list_set(self.root, scope, folder)
            for item in set_ignored:
                ignored[str(item.path)] = item
            if fresh:
                read += self._load_fresh(files, index)
                continue
            for entry in files:
                seen.add(entry.path)
                if self._load_entry(entry):
                    changed.add(entry.path)
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

    def _load_fresh(self, files: list[FileEntry], index: parse_index.ParseIndex | None) -> int:
        """Load a set's files into an empty picture: from the parse index when a file's stat
        is the one it recorded, else from the disk. Returns how many files were read."""
        state = self._state
        assert state is not None
        sigs, items, limits, read = state.sigs, state.items, self._limits, 0
        prefix = parse_index.relative_key(files[0].scope, "") if files else ""
        stat = os.stat
        for path, scope, memory_id, name in files:
            item: Memory | Problem | None = None
            sig: Signature
            if index is not None:
                try:
                    st = stat(path)
                except OSError:
                    continue
                sig = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
                item = index.lookup(prefix + name, sig, path, scope, memory_id)
            if item is None:
                result = read_file(path, limits)
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

    def _load_entry(self, entry: FileEntry) -> bool:
        """(Re)read one candidate file if its stat changed; True when its state changed."""
        state = self._state
        assert state is not None
        old = state.sigs.get(entry.path)
        if old is not None:
            try:
                if signature(os.stat(entry.path)) == old:
                    return False
            except OSError:
                pass
        result = read_file(entry.path, self._limits)
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
        changed: set[str] = set()
        was_ignored = state.ignored.pop(key, None)
        if memory_id is None or path.is_dir() or (path.is_symlink() and not is_inside(self.root, path)):
            files, set_ignored = list_set(self.root, scope, path.parent)
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
        if self._load_entry(FileEntry(key, scope, memory_id, path.name)):
            changed.add(key)
        return changed

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
            make_dirs(self.root)
            try:
                with self._lock:
                    yield
            except StoreError:
                raise
            except OSError as exc:
                raise StoreError(msg.COULD_NOT_CHANGE.format(reason=exc.strerror or exc)) from exc

    def _check_scope(self, scope: Scope) -> None:
        if scope is not None and (not isinstance(scope, str) or not is_valid_key(scope)):
            raise StoreError(msg.COULD_NOT_CHANGE.format(reason=msg.BAD_WORKSPACE_KEY.format(key=scope)))

    @staticmethod
    def _refuse(message: str | None) -> None:
        if message is not None:
            raise StoreError(message)

    def _check_length(self, text: str) -> str | None:
        if len(text) > self._limits.text_max_chars:
            return msg.TEXT_TOO_LONG.format(n=self._limits.text_max_chars, m=len(text))
        return None

    def _check_size(self, data: bytes) -> None:
        if len(data) > self._limits.file_max_bytes:
            reason = msg.FILE_WOULD_BE_TOO_LARGE.format(n=self._limits.file_max_bytes)
            raise StoreError(msg.COULD_NOT_CHANGE.format(reason=reason))

    def _current(self, scope: Scope, memory_id: str) -> Document:
        """The memory's file as it is on disk now; refused when missing or a problem."""
        if not is_valid_id(memory_id):
            raise StoreError(msg.UNKNOWN_ID.format(id=memory_id))
        path = _memory_path(self.root, scope, memory_id)
        self._reload(path)
        item = self._loaded().by_scope.get(scope, {}).get(memory_id)
        if item is None:
            raise StoreError(msg.UNKNOWN_ID.format(id=memory_id))
        if isinstance(item, Problem):
            reason = f"its file has a problem: {item.message.rstrip('.')}"
            raise StoreError(msg.COULD_NOT_CHANGE.format(reason=reason))
        try:
            parsed = parse_bytes(path.read_bytes(), self._limits)
        except OSError as exc:
            raise StoreError(msg.COULD_NOT_CHANGE.format(reason=exc.strerror or exc)) from exc
        if isinstance(parsed, FileProblem):  # changed between the stat and the read
            self._reload(path)
            raise StoreError(
                msg.COULD_NOT_CHANGE.format(reason=f"its file has a problem: {parsed.message.rstrip('.')}")
            )
        return parsed

    def _record_outside(self, scope: Scope, memory_id: str, doc: Document) -> None:
        """Keep the file's current text as a version when history does not have it yet."""
        hdir = history_dir(self.root, scope, memory_id)
        newest = history.newest_version(hdir)
        if newest is not None and (newest.title, newest.text) == (doc.fields.title, doc.text):
            return
        source = "external" if newest is not None or history.version_names(hdir) else "found"
        self._add_version(scope, memory_id, now_utc(), source, doc.fields.title, doc.text, doc.fields.source)

    def _add_version(
        self,
        scope: Scope,
        memory_id: str,
        moment: datetime,
        source: str,
        title: str,
        text: str,
        memory_source: str,
    ) -> None:
        history.add_version(
            history_dir(self.root, scope, memory_id),
            moment=moment,
            source=source,
            title=title,
            text=text,
            memory_source=memory_source,
            keep=self._limits.versions_kept,
        )

    def _save_content(
        self, scope: Scope, memory_id: str, doc: Document, title: str, text: str, via: str
    ) -> Memory:
        if doc.fields.enabled:
            self._check_tokens(scope, memory_id, (doc.fields.title, doc.text), (title, text))
        changes: dict[str, Any] = {"updated": now_utc()}
        if title != doc.fields.title:
            changes["title"] = title
        data = render_edit(doc, changes, text).encode("utf-8")
        self._check_size(data)
        memory = self._write_memory(scope, memory_id, data)
        self._add_version(scope, memory_id, changes["updated"], via, title, text, doc.fields.source)
        return memory

    def _write_back(self, scope: Scope, memory_id: str, doc: Document, version: Version, via: str) -> Memory:
        self._refuse(self.check_title(version.title) or self._check_length(version.text))
        if (version.title, version.text) == (doc.fields.title, doc.text):
            return self.get(scope, memory_id)
        return self._save_content(scope, memory_id, doc, version.title, version.text, via)

    def _write_memory(self, scope: Scope, memory_id: str, data: bytes) -> Memory:
        path = _memory_path(self.root, scope, memory_id)
        if scope is not None and scope not in self._loaded().workspaces:
            make_dirs(path.parent)
            self._loaded().workspaces[scope] = path.parent
        sig = signature(write_atomic(path, data))
        item = self._item_for(path, scope, memory_id, parse_bytes(data, self._limits))
        self._loaded().put(str(path), sig, item)
        assert isinstance(item, Memory)
        return item

    def _new_id(self, scope: Scope) -> str:
        while True:
            memory_id = secrets.token_hex(4)
            taken = (
                _memory_path(self.root, scope, memory_id).exists()
                or history_dir(self.root, scope, memory_id).exists()
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
        the limit and make it grow; the message names the chat that would be largest."""
        limit = self._limits.chat_max_tokens
        keys = {s for s in deltas if s is not None}
        chats: list[str | None] = [*sorted(keys)]
        if None in deltas:
            chats = [None, *sorted(set(self.workspaces()) | keys)]
        worst: tuple[int, str | None] | None = None
        for chat in chats:
            total, count = self._sums(None)
            d_chars, d_count = deltas.get(None, (0, 0))
            if chat is not None:
                more, n = self._sums(chat)
                extra_chars, extra_count = deltas.get(chat, (0, 0))
                total, count = total + more, count + n
                d_chars, d_count = d_chars + extra_chars, d_count + extra_count
            old = tokens_for_chars(chat_chars(total, count))
            new = tokens_for_chars(chat_chars(total + d_chars, count + d_count))
            if new > limit and new > old and (worst is None or new > worst[0]):
                worst = (new, chat)
        if worst is not None:
            tokens, chat = worst
            if chat is None:
                raise StoreError(msg.CHAT_OVER_LIMIT.format(n=tokens, m=limit))
            raise StoreError(msg.WORKSPACE_CHAT_OVER_LIMIT.format(key=chat, n=tokens, m=limit))


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


def _check_via(via: str) -> None:
    if via not in VIAS:
        raise StoreError(msg.COULD_NOT_CHANGE.format(reason=f'"{via}" is not a way a change can come'))


__all__ = ["MemoryStore"]


def _with_block(block: str, body: str) -> str:
    """A memory file's content from a frontmatter block and the body after its closing line."""
    block = block.replace("\r\n", "\n").strip("\n")
    return "---\n" + (block + "\n" if block else "") + "---\n" + body
