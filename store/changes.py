"""Every change to the memory files: one transaction, with each guarantee in one place.

Each change runs ``_transaction`` (the store-wide lock; what killed writers left put right),
then looks at its file as it is now (an outside edit is kept as an ``external`` version first),
checks the rules and the chat budget against the files as they are now, and hands the new
bytes to ``store.commit`` (the version first, the memory file swapped in last).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from . import commit, history, leftovers, moves, safe_io, trash
from . import messages as msg
from .atomic import write_atomic
from .budget import Budget
from .chat import entry_chars
from .commit import read_limited
from .disk_sync import DiskSync, item_for
from .errors import CouldNotChange, NoSuchVersion, NothingToChange, NothingToUndo, StoreError, UnknownMemory
from .history import NewVersion
from .layout import history_dir, is_valid_id, make_dirs, scope_dir
from .layout import memory_path as _memory_path
from .limits import Limits
from .memoryfile import (
    Document,
    Fields,
    FileProblem,
    normalize_text,
    normalize_title,
    parse_bytes,
    render_edit,
    render_new,
)
from .model import Change, Memory, Problem, Scope, Version
from .rules import (
    check_encodable,
    check_scope,
    check_size,
    check_via,
    length_refusal,
    refuse,
    secret_refusal,
    text_refusal,
    title_refusal,
)
from .scan import read_file


class Changes:
    """The changes of one store (``MemoryStore`` hands each public change here)."""

    def __init__(self, sync: DiskSync, budget: Budget, now: Callable[[], datetime]) -> None:
        self.root = sync.root
        self.sync = sync
        self.budget = budget
        self.now = now
        self._swept = False  # the first change puts right what killed writers left anywhere

    def _limits(self) -> Limits:
        self.sync.loaded()
        return self.sync.limits

    def _get(self, scope: Scope, memory_id: str) -> Memory:
        item = self.sync.loaded().by_scope.get(scope, {}).get(memory_id)
        if not isinstance(item, Memory):
            raise UnknownMemory(memory_id)
        return item

    def _versions(self, scope: Scope, memory_id: str) -> list[Version]:
        return history.list_versions(self.root, history_dir(self.root, scope, memory_id))

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
        """``MemoryStore.create``."""
        check_scope(scope)
        check_via(via)
        if source not in ("user", "ai"):
            raise CouldNotChange(f'the source "{source}" is not user or ai')
        check_encodable(title, text, session_id or "")
        title, text = normalize_title(title), normalize_text(text)
        refuse(title_refusal(title, self._limits()) or text_refusal(text, self._limits()))
        if not allow_secret:
            refuse(secret_refusal(title, text, before=None))
        with self._transaction(scope):
            memory_id = self._new_id(scope)
            moment = self.now()
            fields = Fields(
                title=title,
                enabled=enabled,
                source=source,
                session_id=session_id,
                created=moment,
                updated=moment,
            )
            data = render_new(fields, text).encode("utf-8")
            check_size(data, self.sync.limits)
            if enabled:
                self.budget.check_tokens(scope, memory_id, None, (title, text))
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
        """``MemoryStore.change``."""
        check_scope(scope)
        check_via(via)
        if title is None and text is None:
            raise NothingToChange()
        check_encodable(title or "", text or "")
        if title is not None:
            title = normalize_title(title)
            refuse(title_refusal(title, self._limits()))
        if text is not None:
            text = normalize_text(text)
            refuse(text_refusal(text, self._limits()))
        with self._transaction(scope, memory_id):
            doc, raw = self._current(scope, memory_id)
            new_title = doc.fields.title if title is None else title
            new_text = doc.text if text is None else text
            if (new_title, new_text) == (doc.fields.title, doc.text):
                return Change(self._get(scope, memory_id), changed=False, note=msg.UNCHANGED)
            if not allow_secret:
                refuse(secret_refusal(new_title, new_text, before=(doc.fields.title, doc.text)))
            memory = self._save_content(scope, memory_id, doc, raw, new_title, new_text, via)
            return Change(memory, changed=True)

    def set_enabled(self, scope: Scope, memory_id: str, enabled: bool, *, via: str = "settings") -> Memory:
        """``MemoryStore.set_enabled``."""
        check_scope(scope)
        check_via(via)
        with self._transaction(scope, memory_id):
            doc, raw = self._current(scope, memory_id)
            if doc.fields.enabled == enabled:
                return self._get(scope, memory_id)
            self._record_outside(scope, memory_id, doc)
            if enabled:
                self.budget.check_tokens(scope, memory_id, None, (doc.fields.title, doc.text))
            data = render_edit(doc, {"enabled": enabled, "updated": self.now()}, None).encode("utf-8")
            return self._commit(scope, memory_id, data, seen=raw, version=None)

    def delete(self, scope: Scope, memory_id: str, *, via: str = "settings") -> None:
        """``MemoryStore.delete``."""
        check_scope(scope)
        check_via(via)
        if not is_valid_id(memory_id):
            raise UnknownMemory(memory_id)
        with self._transaction(scope, memory_id):
            path = _memory_path(self.root, scope, memory_id)
            self.sync.reload(path)
            item = self.sync.loaded().by_scope.get(scope, {}).get(memory_id)
            if item is None:
                raise UnknownMemory(memory_id)
            raw = read_limited(self.root, path, self.sync.limits.file_max_bytes)
            doc = None if raw is None else parse_bytes(raw, self.sync.limits)
            if isinstance(doc, Document):
                self._record_outside(scope, memory_id, doc)
            trash.delete(self.root, path, history_dir(self.root, scope, memory_id), raw, doc, self.now())
            self.sync.loaded().drop(str(path))

    def restore_deleted(self, scope: Scope, memory_id: str) -> Memory | None:
        """``MemoryStore.restore_deleted``."""
        check_scope(scope)
        with self._transaction(scope, memory_id):
            hdir = history_dir(self.root, scope, memory_id)
            record = history.read_deletion(self.root, hdir) if is_valid_id(memory_id) else None
            path = _memory_path(self.root, scope, memory_id)
            if record is None and is_valid_id(memory_id) and not os.path.lexists(path):
                newest = history.newest_version(self.root, hdir)
                if newest is not None:  # removed outside the app: its newest version comes back
                    return self._restore_newest(scope, memory_id, newest)
            if record is None:
                raise CouldNotChange(msg.NOT_DELETED.format(id=memory_id))
            if os.path.lexists(path):
                raise CouldNotChange(msg.ID_IN_USE.format(id=memory_id))
            # Read with room to spare, so a text over today's limit gets the change message.
            doc = None if record.problem else parse_bytes(record.raw, history.READ_LIMITS)
            version = None
            if isinstance(doc, Document):
                refuse(
                    title_refusal(doc.fields.title, self._limits())
                    or length_refusal(doc.text, self._limits())
                )
                check_size(record.raw, self.sync.limits)
                if doc.fields.enabled:
                    self.budget.check_tokens(scope, memory_id, None, (doc.fields.title, doc.text))
                version = NewVersion(self.now(), "restore", doc.fields.title, doc.text, doc.fields.source)
            elif isinstance(doc, FileProblem):
                raise StoreError(doc.message)
            self._make_set(scope)
            trash.restore(self.root, path, hdir, version, self.sync.limits.versions_kept)
            if version is None:
                self.sync.reload(path)
                return None
            return self._note_written(scope, memory_id)

    def purge_deleted(self, scope: Scope, memory_id: str) -> None:
        """``MemoryStore.purge_deleted``."""
        check_scope(scope)
        with self._transaction(scope, memory_id):
            hdir = history_dir(self.root, scope, memory_id)
            waiting = is_valid_id(memory_id) and (
                history.read_deletion(self.root, hdir) is not None
                or history.newest_version(self.root, hdir) is not None  # removed outside the app
            )
            if not waiting:
                raise CouldNotChange(msg.NOT_DELETED.format(id=memory_id))
            if os.path.lexists(_memory_path(self.root, scope, memory_id)):
                raise CouldNotChange(msg.ID_IN_USE.format(id=memory_id))
            history.purge(self.root, hdir)

    def _restore_newest(self, scope: Scope, memory_id: str, newest: Version) -> Memory:
        """Write back the newest version of a memory whose file was removed outside the app."""
        limits = self._limits()
        refuse(title_refusal(newest.title, limits) or length_refusal(newest.text, limits))
        self.budget.check_tokens(scope, memory_id, None, (newest.title, newest.text))
        moment = self.now()
        source = history.memory_source(self.root, history_dir(self.root, scope, memory_id), newest)
        data = render_new(Fields(newest.title, True, source, updated=moment), newest.text).encode("utf-8")
        check_size(data, self.sync.limits)
        version = NewVersion(moment, "restore", newest.title, newest.text, source)
        return self._commit(scope, memory_id, data, seen=None, version=version)

    def move(self, scope: Scope, memory_id: str, target: Scope) -> Memory:
        """``MemoryStore.move``."""
        check_scope(scope)
        check_scope(target)
        if target == scope:
            raise CouldNotChange(msg.SAME_SCOPE)
        with self._transaction(scope, memory_id, also=target):
            doc, raw = self._current(scope, memory_id)
            self._record_outside(scope, memory_id, doc)
            if doc.fields.enabled:
                size = entry_chars(doc.fields.title, doc.text)
                self.budget.check_chats({scope: (-size, -1), target: (size, 1)})
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
            moves.run(plan, raw, self.sync.limits)
            self.sync.loaded().drop(str(plan.source))
            return self._note_written(target, new_id)

    def restore_version(self, scope: Scope, memory_id: str, name: str) -> Memory:
        """``MemoryStore.restore_version``."""
        check_scope(scope)
        with self._transaction(scope, memory_id):
            doc, raw = self._current(scope, memory_id)
            wanted = next((v for v in self._versions(scope, memory_id) if v.name == name), None)
            if wanted is None:
                raise NoSuchVersion(name)
            return self._write_back(scope, memory_id, doc, raw, wanted, "restore")

    def undo(self, scope: Scope, memory_id: str) -> Memory:
        """``MemoryStore.undo``."""
        check_scope(scope)
        with self._transaction(scope, memory_id):
            doc, raw = self._current(scope, memory_id)
            versions = self._versions(scope, memory_id)
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

    def write_fixed(self, path: Path, data: bytes) -> None:
        """Write a file the person fixed by hand (a problem file, ``settings.yaml``) under the
        store-wide lock, through the root-checked atomic write."""
        with self._writing():
            write_atomic(path, data, root=self.root)

    # --- the transaction and its steps --------------------------------------------------------

    @contextmanager
    def _writing(self) -> Iterator[None]:
        with self.sync.mutex:
            self.sync.loaded()
            try:
                make_dirs(self.root)
                with self.sync.lock:
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
                leftovers.sweep(self.root, [None, *self.budget.workspaces_now()], self.sync.limits)
                self._swept = True
            for each in {scope, also}:
                leftovers.recover_set(self.root, each, self.sync.limits)
            if memory_id is not None and is_valid_id(memory_id):
                leftovers.clean_history(self.root, history_dir(self.root, scope, memory_id))
            yield

    def _current(self, scope: Scope, memory_id: str) -> tuple[Document, bytes]:
        """The memory's file as it is on disk now, and its bytes; refused when missing or a problem."""
        if not is_valid_id(memory_id):
            raise UnknownMemory(memory_id)
        path = _memory_path(self.root, scope, memory_id)
        self.sync.reload(path)
        item = self.sync.loaded().by_scope.get(scope, {}).get(memory_id)
        if item is None:
            raise UnknownMemory(memory_id)
        if isinstance(item, Problem):
            raise CouldNotChange(f"its file has a problem: {item.message.rstrip('.')}")
        raw = read_limited(self.root, path, self.sync.limits.file_max_bytes)
        if raw is None:
            self.sync.reload(path)
            raise UnknownMemory(memory_id)
        parsed = parse_bytes(raw, self.sync.limits)
        if isinstance(parsed, FileProblem):  # changed between the stat and the read
            self.sync.reload(path)
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
            moment=self.now(),
            source=source,
            title=doc.fields.title,
            text=doc.text,
            memory_source=doc.fields.source,
            keep=self.sync.limits.versions_kept,
        )

    def _save_content(
        self, scope: Scope, memory_id: str, doc: Document, raw: bytes, title: str, text: str, via: str
    ) -> Memory:
        self._record_outside(scope, memory_id, doc)
        if doc.fields.enabled:
            self.budget.check_tokens(scope, memory_id, (doc.fields.title, doc.text), (title, text))
        changes: dict[str, Any] = {"updated": self.now()}
        if title != doc.fields.title:
            changes["title"] = title
        data = render_edit(doc, changes, text).encode("utf-8")
        check_size(data, self.sync.limits)
        version = NewVersion(changes["updated"], via, title, text, doc.fields.source)
        return self._commit(scope, memory_id, data, seen=raw, version=version)

    def _write_back(
        self, scope: Scope, memory_id: str, doc: Document, raw: bytes, version: Version, via: str
    ) -> Memory:
        refuse(title_refusal(version.title, self._limits()) or length_refusal(version.text, self._limits()))
        if (version.title, version.text) == (doc.fields.title, doc.text):
            return self._get(scope, memory_id)
        return self._save_content(scope, memory_id, doc, raw, version.title, version.text, via)

    def _make_set(self, scope: Scope) -> None:
        """Create a workspace's folder the first time something is written there."""
        folder = scope_dir(self.root, scope)
        safe_io.check_folder(self.root, folder)
        if scope is not None and scope not in self.sync.loaded().workspaces:
            self.sync.loaded().workspaces[scope] = folder

    def _commit(
        self, scope: Scope, memory_id: str, data: bytes, *, seen: bytes | None, version: NewVersion | None
    ) -> Memory:
        self._make_set(scope)
        path = _memory_path(self.root, scope, memory_id)
        hdir = history_dir(self.root, scope, memory_id)
        commit.commit(self.root, path, data, seen=seen, hdir=hdir, version=version, limits=self.sync.limits)
        return self._note_written(scope, memory_id)

    def _note_written(self, scope: Scope, memory_id: str) -> Memory:
        """Take the file just written into the picture, so ``refresh`` does not report it."""
        path = _memory_path(self.root, scope, memory_id)
        found = read_file(path, self.sync.limits)
        if found is None:
            self.sync.loaded().drop(str(path))
            raise UnknownMemory(memory_id)
        sig, parsed = found
        item = item_for(path, scope, memory_id, parsed)
        self.sync.loaded().put(str(path), sig, item)
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
