"""The transaction every change runs in, and the steps the changes share.

``transaction`` takes the store-wide lock and puts right what killed writers left; inside
it, ``current`` looks at the memory's file as it is now, ``record_outside`` keeps an
outside edit as an ``external`` version first, and ``commit`` hands the new bytes to
``store.commit`` (the version first, the memory file swapped in last) and takes the result
into the picture. ``changing`` is the opening of every change to one memory: the checks of
what it names, the transaction, and the memory as it is now. The change kinds themselves are
in ``store.changes``.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from store import messages as msg
from store.disk import safe_io
from store.disk.atomic import missing_folders, remove_empty_folders
from store.disk.layout import history_dir, is_valid_id, make_dirs, scope_dir
from store.disk.layout import memory_path as _memory_path
from store.durable import commit, history, leftovers
from store.durable.commit import read_limited
from store.durable.history import NewVersion
from store.errors import CouldNotChange, StoreError, UnknownMemory
from store.format.fields import Document, FileProblem
from store.format.parse import parse_bytes
from store.limits import Limits
from store.model import Memory, Problem, Scope, Version
from store.read.disk_sync import DiskSync
from store.read.scan import item_for, read_file
from store.write.budget import Budget
from store.write.rules import check_scope, check_via, length_refusal, refuse, title_refusal


@dataclass(frozen=True, slots=True)
class Current:
    """One memory as its file is now, read under the store-wide lock."""

    scope: Scope
    memory_id: str
    doc: Document
    raw: bytes  # the file's bytes as read: ``commit`` keeps anything written since as a version


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
        if self.sync.read_only:
            raise CouldNotChange(msg.READ_ONLY_STORE)
        with self.sync.picture_lock:
            try:
                self.sync.loaded()  # a load that meets a fault refuses the change, in the spec's words
                make_dirs(self.root)
                with self.sync.disk_lock:
                    self.sync.recover_moves()
                    self.sync.settings_now()  # limits another process set apply at once
                    yield
            except StoreError:
                raise
            except OSError as exc:
                raise CouldNotChange(exc.strerror or str(exc)) from exc

    @contextmanager
    def transaction(
        self, scope: Scope, memory_id: str | None = None, *, also: tuple[Scope, ...] = ()
    ) -> Iterator[None]:
        """The store-wide lock, with what killed writers left in the set (``also``: and the
        other sets it touches) and in the memory's history put right first: every change runs
        inside one."""
        with self._writing():
            if not self._swept:
                leftovers.sweep(self.root, [None, *self.budget.workspaces_now()], self.sync.limits)
                self._swept = True
            # Only the sets this change touches: None is Global, so "no other set" is ().
            for each in dict.fromkeys((scope, *also)):
                self._refuse_unreadable_set(each)
                self._recover_set(each)
            if memory_id is not None and is_valid_id(memory_id):
                leftovers.clean_history(self.root, history_dir(self.root, scope, memory_id))
            yield

    def _recover_set(self, scope: Scope) -> None:
        """``leftovers.recover_set``: of a set a feed follows, only the names it saw come (a
        listing of a set of thousands costs more than the rest of a change's reading)."""
        waiting = leftovers.recover_set(self.root, scope, self.sync.limits, self.sync.leftover_names(scope))
        self.sync.leftovers_looked_at(scope, waiting)

    def _refuse_unreadable_set(self, scope: Scope) -> None:
        """Refuse a change in a set whose folder is there but cannot be opened, naming the folder
        (the system's bare "Permission denied" on a file in it says neither which nor why)."""
        folder = scope_dir(self.root, scope)
        try:
            fd = safe_io.open_folder(self.root, folder)
        except (FileNotFoundError, safe_io.Unsafe):
            return  # made by the change, or refused by it in its own words
        except OSError as exc:
            raise CouldNotChange(
                msg.FOLDER_NOT_OPENED.format(folder=folder, reason=exc.strerror or exc)
            ) from exc
        safe_io.close_quietly(fd)

    @contextmanager
    def changing(
        self,
        scope: Scope,
        memory_id: str,
        *,
        via: str = "settings",
        also: tuple[Scope, ...] = (),
        turning_on: bool = False,
    ) -> Iterator[Current]:
        """The opening of every change to one memory: ``scope`` and ``via`` checked, then, in
        one transaction, the memory as it is now (refused when it is missing or a problem;
        ``turning_on``: see ``current``)."""
        check_scope(scope)
        for other in also:
            check_scope(other)
        check_via(via)
        with self.transaction(scope, memory_id, also=also):
            doc, raw = self.current(scope, memory_id, turning_on=turning_on)
            yield Current(scope, memory_id, doc, raw)

    def current(self, scope: Scope, memory_id: str, *, turning_on: bool = False) -> tuple[Document, bytes]:
        """The memory's file as it is on disk now, and its bytes; refused when missing or a
        problem. ``turning_on``: a file that is a problem only for its title or text length is
        refused with the message that names the value and the limit."""
        if not is_valid_id(memory_id):
            raise UnknownMemory(memory_id)
        path = _memory_path(self.root, scope, memory_id)
        self.sync.reload(path)
        item = self.sync.loaded().by_scope.get(scope, {}).get(memory_id)
        if item is None:
            raise UnknownMemory(memory_id)
        if isinstance(item, Problem):
            if turning_on:
                self._refuse_over_limits(path)
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

    def _refuse_over_limits(self, path: Path) -> None:
        """Refuse with ``TooLong`` (the value and the limit) when the problem file at ``path``
        is a memory over its title or text limit, and nothing else."""
        found = self.over_limits(path)
        if found is not None:
            doc, _raw = found
            limits = self.sync.limits
            refuse(title_refusal(doc.fields.title, limits) or length_refusal(doc.text, limits))

    def over_limits(self, path: Path) -> tuple[Document, bytes] | None:
        """The problem file at ``path`` read past the title and text limits, with its bytes,
        when that is its only problem (None otherwise)."""
        limits = self.sync.limits
        raw = read_limited(self.root, path, limits.file_max_bytes)
        if raw is None or len(raw) > limits.file_max_bytes:
            return None
        doc = self.past_limits(raw)
        return None if doc is None else (doc, raw)

    def past_limits(self, raw: bytes) -> Document | None:
        """``raw`` read as a memory with no title or text limit (None: it is not one)."""
        limits = replace(self.sync.limits, title_max_chars=10**9, text_max_chars=10**9)
        doc = parse_bytes(raw, limits)
        return doc if isinstance(doc, Document) else None

    def record_outside(self, scope: Scope, memory_id: str, doc: Document) -> bool:
        """Keep the file's current text as a version when history does not have it yet; True
        when a version was written."""
        hdir = history_dir(self.root, scope, memory_id)
        newest = history.newest_version(self.root, hdir)
        if newest is not None and (newest.title, newest.text) == (doc.fields.title, doc.text):
            return False
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
        return True

    def _make_set(self, scope: Scope) -> None:
        """Create a workspace's folder the first time something is written there."""
        folder = scope_dir(self.root, scope)
        safe_io.check_folder(self.root, folder)
        if scope is not None and scope not in self.sync.loaded().workspaces:
            self.sync.loaded().workspaces[scope] = folder

    def commit(
        self, scope: Scope, memory_id: str, data: bytes, *, seen: bytes | None, version: NewVersion | None
    ) -> Memory:
        """Write ``data`` as the memory's file (``seen``: the bytes read, None for a new file),
        ``version`` kept first, and take the result into the picture."""
        if version is not None:  # checked before the lock too, maybe against older settings
            limits = self.sync.limits
            refuse(title_refusal(version.title, limits) or length_refusal(version.text, limits))
        made = missing_folders(self.root, scope_dir(self.root, scope))
        path = _memory_path(self.root, scope, memory_id)
        hdir = history_dir(self.root, scope, memory_id)
        try:
            self._make_set(scope)
            commit.commit(
                self.root, path, data, seen=seen, hdir=hdir, version=version, limits=self.sync.limits
            )
        except BaseException:
            if made:  # refused: no new empty workspace is left behind
                remove_empty_folders(self.root, made)
                if scope is not None:
                    self.sync.loaded().workspaces.pop(scope, None)
            raise
        return self._note_written(scope, memory_id, data)

    def _note_written(self, scope: Scope, memory_id: str, data: bytes | None = None) -> Memory:
        """Take the file just written into the picture, so ``refresh`` does not report it.

        The change is in place: when its file cannot be read back (EIO, EACCES) the picture
        takes ``data``, the bytes written, with no signature, so the next ``refresh`` reads it."""
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
        except OSError as exc:  # in place, but its folder cannot be opened now: the bytes stand in
            found = (0, 0, 0, 0), FileProblem(msg.FILE_UNREADABLE.format(reason=exc.strerror or exc))
        if found is None:
            self.sync.loaded().drop(str(path))
            raise UnknownMemory(memory_id)
        sig, parsed = found
        item = item_for(path, scope, memory_id, parsed)
        if not isinstance(item, Memory) and data is not None:
            written = parse_bytes(data, self.sync.limits)
            if isinstance(written, Document):
                sig, item = (0, 0, 0, 0), item_for(path, scope, memory_id, written)
        self.sync.loaded().put(str(path), sig, item)
        if not isinstance(item, Memory):
            raise CouldNotChange(f"its file has a problem: {item.message.rstrip('.')}")
        return item

    def _new_id(self, scope: Scope) -> str:
        while True:
            memory_id = secrets.token_hex(4)
            taken = safe_io.entry_exists(_memory_path(self.root, scope, memory_id)) or safe_io.entry_exists(
                history_dir(self.root, scope, memory_id)
            )
            if not taken:
                return memory_id
