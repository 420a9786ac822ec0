"""The transaction every change runs in, and the steps the changes share.

``_transaction`` takes the store-wide lock and puts right what killed writers left; inside
it, ``_current`` looks at the memory's file as it is now, ``_record_outside`` keeps an
outside edit as an ``external`` version first, and ``_commit`` hands the new bytes to
``store.commit`` (the version first, the memory file swapped in last) and takes the result
into the picture. The change kinds themselves are in ``store.changes``.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from typing import Any

from . import commit, history, leftovers, safe_io
from .budget import Budget
from .commit import read_limited
from .disk_sync import DiskSync
from .errors import CouldNotChange, StoreError, UnknownMemory
from .history import NewVersion
from .layout import history_dir, is_valid_id, make_dirs, scope_dir
from .layout import memory_path as _memory_path
from .limits import Limits
from .memory_fields import Document, FileProblem
from .memory_render import render_edit
from .memoryfile import parse_bytes
from .model import Memory, Problem, Scope, Version
from .rules import check_size, length_refusal, refuse, title_refusal
from .scan import item_for, read_file


class Transactions:
    """What every change of one store runs through (``store.changes.Changes`` builds on it)."""

    def __init__(self, sync: DiskSync, budget: Budget, now: Callable[[], datetime]) -> None:
        self.root = sync.root
        self.sync = sync
        self.budget = budget
        self.now = now
        self._swept = False  # the first change puts right what killed writers left anywhere

    def _limits(self) -> Limits:
        return self.sync.settings_now()

    def _get(self, scope: Scope, memory_id: str) -> Memory:
        item = self.sync.loaded().by_scope.get(scope, {}).get(memory_id)
        if not isinstance(item, Memory):
            raise UnknownMemory(memory_id)
        return item

    def _versions(self, scope: Scope, memory_id: str) -> list[Version]:
        return history.list_versions(self.root, history_dir(self.root, scope, memory_id))

    @contextmanager
    def _writing(self) -> Iterator[None]:
        with self.sync.mutex:
            self.sync.loaded()
            try:
                make_dirs(self.root)
                with self.sync.lock:
                    self.sync.recover_moves()
                    self.sync.settings_now()  # limits another process set apply at once
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

    def _refuse_over_limits(self, scope: Scope, memory_id: str) -> None:
        """Refuse turning on a memory over its title or text limit with the message that names
        the value and the limit (its file is a problem only for its length)."""
        path = _memory_path(self.root, scope, memory_id)
        self.sync.reload(path)
        if not isinstance(self.sync.loaded().by_scope.get(scope, {}).get(memory_id), Problem):
            return
        limits = self.sync.limits
        raw = read_limited(self.root, path, limits.file_max_bytes)
        if raw is None or len(raw) > limits.file_max_bytes:
            return
        doc = parse_bytes(raw, replace(limits, title_max_chars=10**9, text_max_chars=10**9))
        if isinstance(doc, Document):
            refuse(title_refusal(doc.fields.title, limits) or length_refusal(doc.text, limits))

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
        replaced = history.text_key(doc.fields.title, doc.text) if via == "chat" else None
        version = NewVersion(changes["updated"], via, title, text, doc.fields.source, replaced)
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
        if version is not None:  # checked before the lock too, maybe against older settings
            refuse(
                title_refusal(version.title, self.sync.limits)
                or length_refusal(version.text, self.sync.limits)
            )
        self._make_set(scope)
        path = _memory_path(self.root, scope, memory_id)
        hdir = history_dir(self.root, scope, memory_id)
        commit.commit(self.root, path, data, seen=seen, hdir=hdir, version=version, limits=self.sync.limits)
        return self._note_written(scope, memory_id)

    def _note_written(self, scope: Scope, memory_id: str) -> Memory:
        """Take the file just written into the picture, so ``refresh`` does not report it."""
        path = _memory_path(self.root, scope, memory_id)
        try:
            # Read back through the set's folder opened without following a link: a folder
            # swapped for a link since the write is refused, never read through.
            with safe_io.folder(self.root, path.parent) as dir_fd:
                found = read_file(path.name, self.sync.limits, dir_fd=dir_fd)
        except safe_io.Unsafe:
            self.sync.loaded().drop(str(path))
            raise
        except FileNotFoundError:
            found = None
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
