"""``MemoryStore``: every memory of one Oda installation, read and written as the spec says.

A thin front over the parts that do the work: ``store.read.disk_sync.DiskSync`` (the picture
of the disk and how it is kept up to date), ``store.write.budget.Budget`` (what a chat
receives), ``store.write.changes.Changes`` (every change, each one transaction),
``store.write.rules`` (the pure checks) and ``store.durable.history`` (versions and deletions).
Each change here is one line that hands its arguments to ``Changes``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from store.checks.chat import build_chat_memory
from store.checks.duplicates import find_duplicates, find_similar
from store.checks.secrets import SecretWarning, secret_warnings
from store.disk import safe_io
from store.disk.layout import SETTINGS_FILE, history_dir, history_scope_dir, is_valid_id, is_valid_key
from store.disk.layout import memory_path as _memory_path
from store.durable import agent_changes, history
from store.errors import UnknownMemory
from store.format.fields import Document
from store.format.parse import parse_bytes
from store.format.timestamps import now_utc
from store.limits import Limits
from store.model import (
    Change,
    ChatEntry,
    ChatMemory,
    Deleted,
    Ignored,
    Memory,
    Problem,
    ReviewItem,
    Scope,
    UnreadableFolder,
    Version,
)
from store.read.disk_sync import DiskSync
from store.read.followed import ChangeFeed, Followed
from store.read.picture import Picture, in_order
from store.read.settings import read_settings
from store.write.budget import Budget, chat_tokens
from store.write.changes import Changes
from store.write.frontmatter_edit import block_problem, change_frontmatter
from store.write.rules import check_scope, text_refusal, title_refusal

#: How much of a deleted problem file Recently deleted shows.
PROBLEM_PREVIEW_BYTES = 16 * 1024


class MemoryStore:
    """The memory files under one root: global, per workspace, their history and limits.

    Reads come from an in-memory picture that ``refresh`` brings up to date with the disk.
    Every change re-reads its file under the store-wide lock, so no outside edit is lost.
    """

    def __init__(self, root: Path | str, *, hold_index: bool = False, read_only: bool = False) -> None:
        """``hold_index``: the parse index (a cache of what was read) is written only when
        ``write_index_now`` is called, e.g. once an app's first frame is on screen.

        ``read_only``: the store only looks (a dry run): it never writes the parse index,
        never finishes what a killed writer left, never creates the lock file, and every
        change is refused (``CouldNotChange``)."""
        self.root = Path(os.path.abspath(os.fspath(root)))
        self._sync = DiskSync(self.root, read_only=read_only)
        self._sync.hold_index = hold_index
        self._picture_lock = self._sync.picture_lock
        # The clock is looked up here at each change, so a test can set ``store.memory_store.now_utc``.
        self._changes = Changes(self._sync, Budget(self._sync), lambda: now_utc())

    @property
    def _index_writer(self) -> threading.Thread | None:
        """The thread writing the parse index after a load (tests and benchmarks join it)."""
        return self._sync.index_writer

    def _loaded(self) -> Picture:
        return self._sync.loaded()

    # --- reading -----------------------------------------------------------------------------

    @property
    def limits(self) -> Limits:
        """The limits in force (settings.yaml, or the defaults)."""
        self._sync.loaded_for(())
        return self._sync.limits

    def limits_in_settings(self) -> Limits:
        """The limits settings.yaml sets now (or the defaults), read without loading the
        memories: what a list of tools and their limits needs, at once on a large store."""
        if self._sync.state is not None:
            return self.limits
        return read_settings(self.root, self.root / SETTINGS_FILE)[0]

    def settings_problems(self) -> list[str]:
        """One message for each bad line of settings.yaml (its key falls back to the default)."""
        self._loaded()
        return list(self._sync.settings_problems)

    def workspaces(self) -> list[str]:
        """The keys of the workspace folders, sorted."""
        return sorted(self._loaded().workspaces)

    def memories(self, scope: Scope) -> list[Memory]:
        """The problem-free memories of a scope, in (created, id) order."""
        with self._picture_lock:
            state = self._sync.loaded_for((scope,))
            ordered = state.ordered.get(scope)
            if ordered is None:
                ordered = in_order(state.by_scope.get(scope, {}).values())
                state.ordered[scope] = ordered
            return list(ordered)

    def get(self, scope: Scope, memory_id: str) -> Memory:
        """One memory; an unknown id (or a problem file) is refused with the spec's message."""
        item = self._sync.loaded_for((scope,)).by_scope.get(scope, {}).get(memory_id)
        if not isinstance(item, Memory):
            raise UnknownMemory(memory_id)
        return item

    def find(self, scope: Scope, memory_id: str) -> Memory | Problem | None:
        """What the file of that id is now: a memory, a problem file, or nothing."""
        return self._sync.loaded_for((scope,)).by_scope.get(scope, {}).get(memory_id)

    def problems(self) -> list[Problem]:
        """Every problem file, by scope then path."""
        with self._picture_lock:
            items = [p for p in self._loaded().items.values() if isinstance(p, Problem)]
        return sorted(items, key=lambda p: (p.scope is not None, p.scope or "", str(p.path)))

    def ignored(self) -> list[Ignored]:
        """Everything in the memory sets that is not treated as a memory, with the reason."""
        with self._picture_lock:
            state = self._loaded()
            found = state.history_ignored | state.ignored
            return sorted(found.values(), key=lambda i: str(i.path))

    def unreadable_folders(self) -> list[UnreadableFolder]:
        """The store's folders that could not be read (Global's, the workspaces folder, a
        workspace's): their memories are not listed, which does not mean there are none."""
        return [item for item in self.ignored() if isinstance(item, UnreadableFolder)]

    def memory_path(self, scope: Scope, memory_id: str) -> Path:
        """Where a memory's file is (whether or not it exists)."""
        check_scope(scope)
        return _memory_path(self.root, scope, memory_id)

    def check_title(self, title: str) -> str | None:
        """The message a title would be refused with, or None when it is fine."""
        refusal = title_refusal(title, self.limits)
        return None if refusal is None else str(refusal)

    def check_text(self, text: str) -> str | None:
        """The message a text would be refused with, or None when it is fine."""
        refusal = text_refusal(text, self.limits)
        return None if refusal is None else str(refusal)

    def check_file(self, data: bytes) -> tuple[str, int | None] | None:
        """What is wrong with a memory file's bytes, in the words the Problems list uses, and
        the file line it names (if any); None when the bytes are a memory's."""
        found = parse_bytes(data, self.limits)
        return None if isinstance(found, Document) else (found.message, found.line)

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
        with self._picture_lock:
            state = self._loaded()
            found = state.derived.get(key)
            if found is None:
                found = compute()
                state.derived[key] = found
            return list(found)

    # --- what a chat receives ----------------------------------------------------------------

    def chat_memory(self, workspace: str | None = None) -> ChatMemory:
        """Exactly what a chat in ``workspace`` receives (None: a chat outside any workspace)."""
        check_scope(workspace)
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
        check_scope(workspace)
        with self._picture_lock:
            return chat_tokens(self._sync.loaded_for((None, workspace)), workspace)

    # --- history -----------------------------------------------------------------------------

    def versions(self, scope: Scope, memory_id: str) -> list[Version]:
        """The kept versions of a memory (deleted ones too), newest first."""
        check_scope(scope)
        if not is_valid_id(memory_id):
            raise UnknownMemory(memory_id)
        hdir = history_dir(self.root, scope, memory_id)
        with self._picture_lock:
            self._sync.forget_history_ignored(hdir)
            try:
                safe_io.close_quietly(safe_io.open_folder(self.root, hdir / history.VERSIONS))
            except safe_io.Unsafe as exc:
                self._sync.note_history_ignored(exc)
                return []
            except OSError:
                return []
        try:
            return history.list_versions(self.root, hdir)
        except OSError:
            return []  # a version that cannot be read (EIO, EACCES): a change would say so

    def deleted(self, scope: Scope) -> list[Deleted]:
        """The memories of a scope waiting under Recently deleted, newest first."""
        check_scope(scope)
        folder = history_scope_dir(self.root, scope)
        with self._picture_lock:
            self._sync.forget_history_ignored(folder, (history.DELETED_BYTES, history.DELETED_META))
        try:
            ids = [n for n in safe_io.list_names(self.root, folder) if is_valid_id(n)]
        except safe_io.Unsafe as exc:
            self._sync.note_history_ignored(exc)
            return []
        except OSError:
            return []
        found: list[Deleted] = []
        for memory_id in ids:
            try:
                record = history.read_deletion(self.root, folder / memory_id)
            except safe_io.Unsafe as exc:
                self._sync.note_history_ignored(exc)
                continue
            if os.path.lexists(_memory_path(self.root, scope, memory_id)):
                continue
            if record is None:
                try:
                    newest = history.newest_version(self.root, folder / memory_id)
                except OSError:
                    continue
                if newest is not None:  # removed outside the app (rm); its versions remain
                    found.append(
                        Deleted(memory_id, scope, newest.title, newest.moment, newest.text, outside=True)
                    )
                continue
            text = ""
            if not record.problem:
                doc = parse_bytes(record.raw, history.READ_LIMITS)
                text = doc.text if isinstance(doc, Document) else ""
            else:
                text = self._problem_preview(folder / memory_id / history.DELETED_BYTES)
            found.append(
                Deleted(
                    memory_id, scope, record.title, record.deleted_at, text, record.problem, via=record.via
                )
            )
        return sorted(found, key=lambda d: (d.deleted_at, d.id), reverse=True)

    # --- what waits for review ------------------------------------------------------------------

    def agent_changes(self, marks: Mapping[Scope, Mapping[str, str]]) -> list[ReviewItem]:
        """What waits for review: the memories a chat (the agent) created, changed or deleted
        since the person last reviewed them (``store.durable.agent_changes`` says when).

        ``marks`` gives, by scope then memory id, the name of the version the person last
        reviewed; the caller keeps them (the store never writes them into memory files). Global
        first, then by workspace key, each in the store's (created, id) order, then what a chat
        deleted there (newest first). A memory whose history cannot be read now is left out.
        """
        found: list[ReviewItem] = []
        for scope in [None, *self.workspaces()]:
            reviewed = marks.get(scope, {})
            for memory in self.memories(scope):
                try:
                    item = agent_changes.changed_by_agent(self.root, memory, reviewed.get(memory.id))
                except OSError:
                    item = None  # its history cannot be read now (EIO, EACCES)
                if item is not None:
                    found.append(item)
            for deleted in self.deleted(scope):
                item = agent_changes.deleted_by_agent(self.root, deleted, reviewed.get(deleted.id))
                if item is not None:
                    found.append(item)
        return found

    def newest_version_name(self, scope: Scope, memory_id: str) -> str | None:
        """The name of a memory's newest version without ``.md`` (what a review marks), or None
        when it has none; a history that cannot be read (EIO, EACCES) raises ``OSError``."""
        if (scope is not None and not is_valid_key(scope)) or not is_valid_id(memory_id):
            return None
        return agent_changes.newest_name(self.root, scope, memory_id)

    def _problem_preview(self, path: Path) -> str:
        """The start of a deleted problem file as text (the whole file, frontmatter and all, up
        to ``PROBLEM_PREVIEW_BYTES``), or "" when it is not readable as UTF-8."""
        try:
            head = safe_io.read_head(self.root, path, PROBLEM_PREVIEW_BYTES)
        except OSError:
            return ""
        cut = len(head) > PROBLEM_PREVIEW_BYTES
        data = head[:PROBLEM_PREVIEW_BYTES]
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            # A character cut at the end of the preview is dropped; bad bytes elsewhere are not text.
            if not cut or exc.start < len(data) - 3:
                return ""
            text = data[: exc.start].decode("utf-8")
        return text + ("\n…" if cut else "")

    # --- changes: each one transaction (store.write.changes does the work) ---------------------

    def create(  # noqa: PLR0913 - the spec's fields, and the caller's own keys (``extra``)
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
        extra: Mapping[str, str] | None = None,
    ) -> Memory:
        """Save a new memory; refused with the spec's messages over a limit, and when its
        title or text looks like a secret unless ``allow_secret``. ``extra``: frontmatter keys
        of the caller's own (a plain name that is no memory field, a one-line text), e.g. where
        an import came from; they come back in ``Memory.extra``."""
        return self._changes.create(
            scope,
            title,
            text,
            enabled=enabled,
            source=source,
            session_id=session_id,
            via=via,
            allow_secret=allow_secret,
            extra=extra,
        )

    def edit(  # noqa: PLR0913 - the fields it sets, where from, and what the caller read
        self,
        scope: Scope,
        memory_id: str,
        *,
        title: str | None = None,
        text: str | Callable[[str], str] | None = None,
        enabled: bool | None = None,
        via: str = "settings",
        allow_secret: bool = False,
        extra: Mapping[str, str] | None = None,
        expected: str | None = None,
    ) -> Change:
        """Set a memory's title, text and whether it is on, together: one transaction, and one
        version when the title or text changes (turning on or off alone keeps none).

        ``text`` may be a function of the current text (e.g. one passage replaced), called
        under the lock with the text as it is now; what it raises refuses the edit.
        The title and text are checked as ``change`` checks them. Turning a memory off is never
        refused; turning it on is refused over its title or text limit and when a chat it
        reaches would go over its token limit. An edit that changes nothing saves nothing.
        ``extra`` sets frontmatter keys of the caller's own, as ``create`` takes them (no version
        is kept for them alone).

        ``expected``: the memory's ``fingerprint`` as the caller read it. The store compares it
        under its lock with the file as it is then, and refuses an edit of content the caller
        never saw with ``ChangedSinceRead`` (carrying the memory as it is now).
        """
        return self._changes.edit(
            scope,
            memory_id,
            title=title,
            text=text,
            enabled=enabled,
            via=via,
            allow_secret=allow_secret,
            extra=extra,
            expected=expected,
        )

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
        return self._changes.change(
            scope, memory_id, title=title, text=text, via=via, allow_secret=allow_secret
        )

    def set_enabled(self, scope: Scope, memory_id: str, enabled: bool, *, via: str = "settings") -> Memory:
        """Turn a memory on (checked against the limits) or off (never refused)."""
        return self._changes.set_enabled(scope, memory_id, enabled, via=via)

    def delete(
        self, scope: Scope, memory_id: str, *, via: str = "settings", expected: str | None = None
    ) -> None:
        """Delete a memory (or a problem file): never refused; it waits under ``deleted()``.

        The file itself is moved into history (a rename), never copied. ``expected``: the
        memory's ``fingerprint`` as the caller read it; when the file is not that now (or has
        become a problem file), the deletion is refused with ``ChangedSinceRead``.
        """
        return self._changes.delete(scope, memory_id, via=via, expected=expected)

    def restore_deleted(self, scope: Scope, memory_id: str) -> Memory | None:
        """Put a deleted memory back byte for byte (None for a problem file, no memory)."""
        return self._changes.restore_deleted(scope, memory_id)

    def purge_deleted(self, scope: Scope, memory_id: str) -> None:
        """Remove a deleted memory and all its versions for good (the one irreversible action)."""
        return self._changes.purge_deleted(scope, memory_id)

    def move(self, scope: Scope, memory_id: str, target: Scope) -> Memory:
        """Move a memory to another scope with its history (same id when it is free there).

        Refused with the usual message when a chat the memory would reach goes over its limit.
        A move interrupted by a crash is finished (or undone) by the next change or start.
        """
        return self._changes.move(scope, memory_id, target)

    def restore_version(self, scope: Scope, memory_id: str, name: str) -> Memory:
        """Write an older version back, itself kept as a ``restore`` version (so undoable)."""
        return self._changes.restore_version(scope, memory_id, name)

    def undo(self, scope: Scope, memory_id: str) -> Memory:
        """Write back the text from before the newest chat change, as an ``undo`` version."""
        return self._changes.undo(scope, memory_id)

    def change_frontmatter(
        self,
        scope: Scope,
        memory_id: str,
        block: str,
        *,
        via: str = "settings",
        allow_secret: bool = False,
    ) -> Memory:
        """Write a new frontmatter block as given, the text below it kept byte for byte.

        Refused with ``check_frontmatter``'s message when the block is not a valid memory's,
        and like any change over a limit; a changed title is kept as a version.
        """
        return change_frontmatter(self._changes, scope, memory_id, block, via=via, allow_secret=allow_secret)

    def write_fixed(
        self, path: Path | str, data: bytes, *, seen: bytes | None, allow_secret: bool = False
    ) -> Memory | None:
        """Write a file the person fixed by hand (a problem file, an ignored file or
        ``settings.yaml``) as given, in one transaction, never through a link; the picture
        takes it in. ``seen``: the file's bytes as the person's screen showed them (None: no file).

        Another program's save since then is never replaced: a memory is kept as an
        ``external`` version first, anything else refuses the fix (``CouldNotChange``). A fix
        that makes the file a memory is kept as a ``settings`` version, and is refused like any
        change over the chat's limit, and when its title or text looks like a secret
        (``LooksSecret``) unless ``allow_secret``. Returns the memory the file is now (None
        while it is not one). Once the file is in place the fix is never reported as refused.
        """
        return self._changes.write_fixed(path, data, seen=seen, allow_secret=allow_secret)

    def keep_outside_edit(self, scope: Scope, memory_id: str) -> bool:
        """Keep a memory's text as another program left it, as an ``external`` version, when
        history does not hold that text yet (once per text): the last text a person wrote can
        be restored even if the file is removed next. Nothing else is written. True when a
        version was kept; refused like any change when the memory is missing or a problem."""
        return self._changes.keep_outside_edit(scope, memory_id)

    # --- the frontmatter block as written ------------------------------------------------------

    def frontmatter(self, scope: Scope, memory_id: str) -> str:
        """The memory's frontmatter block as written in its file (the lines between ``---``)."""
        check_scope(scope)
        with self._picture_lock:
            self._loaded()
            doc, _raw = self._changes.current(scope, memory_id)
            return "\n".join(doc.fm_lines)

    def check_frontmatter(self, block: str, text: str) -> str | None:
        """The store's own message for what is wrong with this block over ``text``, or None."""
        return block_problem(block, text, self.limits)

    # --- keeping up with the disk ------------------------------------------------------------

    def refresh(self, paths: Iterable[Path | str] | None = None) -> set[Path]:
        """Re-read what changed on disk: only ``paths`` (files or folders), or all when None.

        Returns the paths whose state changed; the store's own writes return nothing.
        """
        return self._sync.refresh(paths)

    def refresh_or_load(self, first: Iterable[Scope] | None = None) -> set[Path]:
        """``refresh()``, except on a store not loaded yet: then the load, which reads the disk
        as it is now, is all there is to do (a full look right after it finds nothing new, and
        costs half as much again at 10,000 memories). Returns the paths whose state changed.

        ``first``: on a store not loaded yet, load only the sets of these scopes (what one
        chat receives); the rest is loaded by ``load_rest``, or by the first read or change
        that needs it."""
        if self._sync.state is None:
            if first is None:
                self._loaded()
            else:
                self.load_scopes(first)
            return set()
        return self.refresh()

    def load_scopes(self, scopes: Iterable[Scope]) -> None:
        """On a store not loaded yet, load only the sets of ``scopes`` (``GLOBAL`` or workspace
        keys), with no look at any other set: a chat's first answer needs nothing more. Every
        read of another set, and every change (its budget check sees every chat it reaches),
        loads the rest first; so does ``load_rest``. Nothing happens on a loaded store."""
        scopes = list(scopes)
        for scope in scopes:
            check_scope(scope)
        self._sync.load_scopes(scopes)

    def load_rest(self) -> None:
        """Load the sets ``load_scopes`` left out (nothing when every set is loaded), e.g. in a
        background thread once a chat's first answer is sent, so no later call waits for them."""
        self._loaded()

    def refresh_scopes(self, scopes: Iterable[Scope]) -> set[Path]:
        """``refresh()`` for the sets of ``scopes`` only (``GLOBAL`` or workspace keys): what a
        chat of one workspace receives, without a look at any other workspace.

        With the same guarantees as the full pass for those sets: a file changed, added,
        removed or turned into something that is not a regular file, a set's folder gone or
        come, problem files; settings.yaml is read too, and a change of the limits (they decide
        what is a problem) brings the whole picture up to date. Returns the paths whose state
        changed; other sets stay as they were last looked at.
        """
        scopes = list(scopes)
        for scope in scopes:
            check_scope(scope)
        return self._sync.refresh_scopes(scopes)

    def follow(self, scopes: Iterable[Scope], feed: ChangeFeed) -> None:
        """Keep the sets of ``scopes`` up to date from ``feed`` (see ``store.followed``):
        ``catch_up`` reads again what it names, and a change's budget check takes those sets'
        sums from the picture once caught up. A feed followed before is closed."""
        followed = Followed(frozenset(scopes), feed)
        for scope in followed.scopes:
            check_scope(scope)
        self._take_feed(followed)

    def unfollow(self) -> None:
        """Stop following a feed (it is closed): changes look at each file again."""
        self._take_feed(None)

    def _take_feed(self, followed: Followed | None) -> None:
        with self._picture_lock:
            before, self._sync.followed = self._sync.followed, followed
        if before is not None:
            before.feed.close()

    def catch_up(self) -> set[Path]:
        """Bring the followed sets up to date with the disk: the files the feed names, or a look
        at the sets whole when it cannot say. Returns the paths whose state changed (also
        reported by the next ``refresh``); nothing when no feed is followed."""
        _scopes, changed = self._sync.catch_up()
        return {Path(p) for p in changed}

    def write_index_now(self) -> None:
        """Write the parse index held back since the load (``hold_index``), in the background."""
        with self._picture_lock:
            self._sync.write_index_now()


__all__ = ["MemoryStore"]
