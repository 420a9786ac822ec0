"""Every change to the memory files, each one transaction (see ``store.transaction``).

Each change checks what it is given, then inside its transaction looks at its file as it is
now, checks the rules and the chat budget against the files as they are now, and writes
through the shared steps: an outside edit is kept as a version first, the new version is
written before the memory file is swapped in.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from store import messages as msg
from store.checks.chat import entry_chars
from store.checks.fingerprint import fingerprint
from store.disk import safe_io
from store.disk.atomic import missing_folders, remove_empty_folders
from store.disk.layout import history_dir, is_valid_id
from store.disk.layout import memory_path as _memory_path
from store.durable import commit, history, moves, trash
from store.durable.commit import read_limited
from store.durable.history import NewVersion
from store.errors import (
    ChangedSinceRead,
    CouldNotChange,
    NoSuchVersion,
    NothingToChange,
    NothingToUndo,
    UnknownMemory,
)
from store.format.fields import Document, Fields, FileProblem
from store.format.parse import parse_bytes
from store.format.render import render_edit, render_new
from store.limits import Limits
from store.model import Change, Memory, Problem, Scope, Version
from store.read.scan import item_for
from store.write import fixing
from store.write.rules import (
    check_scope,
    check_size,
    check_via,
    checked_edit,
    checked_extra,
    checked_new,
    length_refusal,
    new_file_bytes,
    refuse,
    secret_refusal,
    title_refusal,
)
from store.write.transaction import Current, Transactions


class Changes(Transactions):
    """The changes of one store (``MemoryStore`` hands each public change here)."""

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
        check_scope(scope)
        check_via(via)
        keys = checked_extra(extra)
        if source not in ("user", "ai"):
            raise CouldNotChange(f'the source "{source}" is not user or ai')
        title, text = checked_new(
            title, text, self._limits(), allow_secret=allow_secret, session_id=session_id
        )
        with self.transaction(scope):
            memory_id = self._new_id(scope)
            moment = self.now()
            fields = Fields(
                title=title,
                enabled=enabled,
                source=source,
                session_id=session_id,
                created=moment,
                updated=moment,
                extra=keys,
            )
            data = new_file_bytes(fields, text, self.sync.limits)
            if enabled:
                self.budget.check_tokens(scope, memory_id, None, (title, text))
            replaced = history.NOTHING_REPLACED if via == "chat" else None
            version = NewVersion(moment, via, title, text, source, replaced)
            return self.commit(scope, memory_id, data, seen=None, version=version)

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
        if title is None and text is None and enabled is None and not extra:
            raise NothingToChange()
        keys = checked_extra(extra)
        if enabled is False and title is None and text is None and not keys and expected is None:
            turned = self._turn_off_over_limits(scope, memory_id, via)
            if turned is not None:
                return turned
        given = None if callable(text) else text
        title, given = checked_edit(title, given, self._limits())
        with self.changing(scope, memory_id, via=via, turning_on=enabled is True) as now:
            self._check_expected(now.scope, now.memory_id, now.doc, expected)
            if callable(text):
                _title, given = checked_edit(None, text(now.doc.text), self.sync.limits)
            return self._apply(now, title, given, enabled, via=via, allow_secret=allow_secret, extra=keys)

    def _turn_off_over_limits(self, scope: Scope, memory_id: str, via: str) -> Change | None:
        """Turn off a memory whose file is a problem only for being over its title or text
        limit: turning off is never refused. It stays a problem file (not sent either way) and
        keeps no version; the change's memory is the file read past the limits. None when the
        file is not such a problem file (the edit goes on as any other)."""
        check_scope(scope)
        check_via(via)
        if not is_valid_id(memory_id):
            return None
        try:
            seen = self.sync.loaded().by_scope.get(scope, {}).get(memory_id)
        except OSError:
            return None  # the edit's own transaction refuses a load that meets a fault
        if not isinstance(seen, Problem):
            return None  # as last seen: a file that just became a problem is refused as one
        with self.transaction(scope, memory_id):
            path = _memory_path(self.root, scope, memory_id)
            self.sync.reload(path)
            if not isinstance(self.sync.loaded().by_scope.get(scope, {}).get(memory_id), Problem):
                return None
            found = self.over_limits(path)
            if found is None:
                return None
            doc, raw = found
            if not doc.fields.enabled:
                return Change(self._record(scope, memory_id, doc), changed=False)
            before = (doc.fields.title, doc.text)
            data = _edited_file(doc, self.sync.limits, before, before, self.now(), toggle=True, keys={})
            hdir = history_dir(self.root, scope, memory_id)
            commit.commit(self.root, path, data, seen=raw, hdir=hdir, version=None, limits=self.sync.limits)
            self.sync.reload(path)
            return Change(self._record(scope, memory_id, self.past_limits(data) or doc), changed=True)

    def _record(self, scope: Scope, memory_id: str, doc: Document) -> Memory:
        """The memory record of ``doc`` (read past the limits, it is no problem file)."""
        item = item_for(_memory_path(self.root, scope, memory_id), scope, memory_id, doc)
        if not isinstance(item, Memory):  # a Document always makes a memory record
            raise CouldNotChange("its file could not be read back")
        return item

    def _check_expected(self, scope: Scope, memory_id: str, doc: Document, expected: str | None) -> None:
        """Refuse with ``ChangedSinceRead`` when ``doc`` is not the content fingerprinted as
        ``expected`` (None: nothing to compare)."""
        if expected is None or fingerprint(doc.fields.title, doc.text, doc.fields.enabled) == expected:
            return
        item = item_for(_memory_path(self.root, scope, memory_id), scope, memory_id, doc)
        raise ChangedSinceRead(item if isinstance(item, Memory) else None)

    def _check_expected_deletion(
        self, scope: Scope, memory_id: str, doc: Document | FileProblem | None, expected: str, unreadable: str
    ) -> None:
        """``_check_expected`` for a file about to be deleted: a problem file now (or one that
        cannot be read) is not what the caller read either."""
        if isinstance(doc, Document):
            self._check_expected(scope, memory_id, doc, expected)
        elif isinstance(doc, FileProblem):
            raise ChangedSinceRead(None, doc.message)
        elif unreadable:
            raise ChangedSinceRead(None, unreadable)
        else:  # gone between the look and the read
            raise UnknownMemory(memory_id)

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
        if title is None and text is None:
            raise NothingToChange()
        return self.edit(scope, memory_id, title=title, text=text, via=via, allow_secret=allow_secret)

    def set_enabled(self, scope: Scope, memory_id: str, enabled: bool, *, via: str = "settings") -> Memory:
        """Turn a memory on (checked against the limits) or off (never refused)."""
        return self.edit(scope, memory_id, enabled=enabled, via=via).memory

    def _apply(
        self,
        now: Current,
        title: str | None,
        text: str | None,
        enabled: bool | None,
        *,
        via: str,
        allow_secret: bool,
        extra: dict[str, str] | None = None,
    ) -> Change:
        """The one write of ``edit`` (and of a version written back): every refusal first,
        then the outside text kept, then the new file with its version."""
        doc, limits = now.doc, self.sync.limits
        before = (doc.fields.title, doc.text)
        after = (before[0] if title is None else title, before[1] if text is None else text)
        turn_on = enabled is True and not doc.fields.enabled
        turn_off = enabled is False and doc.fields.enabled
        keys = {k: v for k, v in (extra or {}).items() if doc.fields.extra.get(k) != v}
        if after == before and not (turn_on or turn_off or keys):
            return Change(self._get(now.scope, now.memory_id), changed=False, note=msg.UNCHANGED)
        self._refuse_edit(now, limits, before, after, turn=(turn_on, turn_off), allow_secret=allow_secret)
        self.record_outside(now.scope, now.memory_id, doc)  # before ``moment``: it is older
        moment = self.now()
        data = _edited_file(doc, limits, before, after, moment, toggle=turn_on or turn_off, keys=keys)
        replaced = history.text_key(*before) if via == "chat" else None  # what undo writes back
        version = None if after == before else NewVersion(moment, via, *after, doc.fields.source, replaced)
        memory = self.commit(now.scope, now.memory_id, data, seen=now.raw, version=version)
        return Change(memory, changed=True)

    def _refuse_edit(
        self,
        now: Current,
        limits: Limits,
        before: tuple[str, str],
        after: tuple[str, str],
        *,
        turn: tuple[bool, bool],
        allow_secret: bool,
    ) -> None:
        """An edit's refusals, in order: secret-looking text it brings in, then the title and
        text limits when it turns the memory on (``turn``: on, off), then the chats' budget
        while the memory is on."""
        turn_on, turn_off = turn
        was_on = now.doc.fields.enabled
        if after != before and not allow_secret:
            refuse(secret_refusal(*after, before=before))
        if turn_on:
            refuse(title_refusal(after[0], limits) or length_refusal(after[1], limits))
        if (was_on or turn_on) and not turn_off:
            self.budget.check_tokens(now.scope, now.memory_id, before if was_on else None, after)

    def delete(
        self, scope: Scope, memory_id: str, *, via: str = "settings", expected: str | None = None
    ) -> None:
        """Delete a memory (or a problem file): never refused; it waits under ``deleted()``.

        The file itself is moved into history (a rename), never copied. ``expected``: the
        memory's ``fingerprint`` as the caller read it; when the file is not that now (or has
        become a problem file), the deletion is refused with ``ChangedSinceRead``.
        """
        check_scope(scope)
        check_via(via)
        if not is_valid_id(memory_id):
            raise UnknownMemory(memory_id)
        with self.transaction(scope, memory_id):
            path = _memory_path(self.root, scope, memory_id)
            self.sync.reload(path)
            item = self.sync.loaded().by_scope.get(scope, {}).get(memory_id)
            if item is None:
                raise UnknownMemory(memory_id)
            unreadable = ""
            try:
                raw = read_limited(self.root, path, self.sync.limits.file_max_bytes)
            except safe_io.Unsafe:
                raise
            except OSError as exc:  # unreadable (mode 000, EIO): deleting is a rename, never refused for it
                raw, unreadable = None, msg.FILE_UNREADABLE.format(reason=exc.strerror or exc)
            doc = None if raw is None else parse_bytes(raw, self.sync.limits)
            if expected is not None:
                self._check_expected_deletion(scope, memory_id, doc, expected, unreadable)
            if isinstance(doc, Document):
                self.record_outside(scope, memory_id, doc)
            last_seen = doc if raw is not None or not isinstance(item, Memory) else item
            trash.delete(
                self.root, path, history_dir(self.root, scope, memory_id), raw, last_seen, self.now(), via=via
            )
            self.sync.loaded().drop(str(path))

    def restore_deleted(self, scope: Scope, memory_id: str) -> Memory | None:
        """Put a deleted memory back byte for byte (None for a problem file, no memory)."""
        check_scope(scope)
        with self.transaction(scope, memory_id):
            hdir = history_dir(self.root, scope, memory_id)
            record = history.read_deletion(self.root, hdir) if is_valid_id(memory_id) else None
            path = _memory_path(self.root, scope, memory_id)
            if record is None and is_valid_id(memory_id) and not safe_io.entry_exists(path):
                newest = history.newest_version(self.root, hdir)
                if newest is not None:  # removed outside the app: its newest version comes back
                    return self._restore_newest(scope, memory_id, newest)
            if record is None:
                raise CouldNotChange(msg.NOT_DELETED.format(id=memory_id))
            if safe_io.entry_exists(path):
                raise CouldNotChange(msg.ID_IN_USE.format(id=memory_id))
            if record.unreadable is not None:
                raise CouldNotChange(record.unreadable)
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
                raise CouldNotChange(f"its file has a problem: {doc.message.rstrip('.')}")
            self._make_set(scope)
            trash.restore(self.root, path, hdir, version, self.sync.limits.versions_kept)
            if version is None:
                self.sync.reload(path)
                return None
            return self._note_written(scope, memory_id, record.raw)

    def purge_deleted(self, scope: Scope, memory_id: str) -> None:
        """Remove a deleted memory and all its versions for good (the one irreversible action)."""
        check_scope(scope)
        with self.transaction(scope, memory_id):
            hdir = history_dir(self.root, scope, memory_id)
            waiting = is_valid_id(memory_id) and (
                history.read_deletion(self.root, hdir) is not None
                or history.newest_version(self.root, hdir) is not None  # removed outside the app
            )
            if not waiting:
                raise CouldNotChange(msg.NOT_DELETED.format(id=memory_id))
            if safe_io.entry_exists(_memory_path(self.root, scope, memory_id)):
                raise CouldNotChange(msg.ID_IN_USE.format(id=memory_id))
            history.purge(self.root, hdir)

    def keep_outside_edit(self, scope: Scope, memory_id: str) -> bool:
        """Keep a memory's text as another program left it, as an ``external`` version, when
        history does not hold that text yet (once per text): the last text a person wrote can
        be restored even if the file is removed next. Nothing else is written. True when a
        version was kept; refused like any change when the memory is missing or a problem."""
        with self.changing(scope, memory_id) as now:
            return self.record_outside(scope, memory_id, now.doc)

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
        return self.commit(scope, memory_id, data, seen=None, version=version)

    def move(self, scope: Scope, memory_id: str, target: Scope) -> Memory:
        """Move a memory to another scope with its history (same id when it is free there).

        Refused with the usual message when a chat the memory would reach goes over its limit.
        A move interrupted by a crash is finished (or undone) by the next change or start.
        """
        check_scope(target)
        if target == scope:
            raise CouldNotChange(msg.SAME_SCOPE)
        with self.changing(scope, memory_id, also=(target,)) as now:
            doc = now.doc
            self.record_outside(scope, memory_id, doc)
            if doc.fields.enabled:
                size = entry_chars(doc.fields.title, doc.text)
                self.budget.check_chats({scope: (-size, -1), target: (size, 1)})
            new_id = memory_id
            if safe_io.entry_exists(_memory_path(self.root, target, new_id)) or safe_io.entry_exists(
                history_dir(self.root, target, new_id)
            ):
                new_id = self._new_id(target)
            plan = moves.Move(self.root, scope, memory_id, target, new_id)
            # A refused move into a new workspace leaves no empty workspace behind.
            made = missing_folders(self.root, plan.dest.parent) + missing_folders(
                self.root, plan.new_history.parent
            )
            try:
                # Every folder the move goes through, checked before anything is written.
                safe_io.check_folder(self.root, plan.new_history.parent)
                safe_io.check_folder(self.root, plan.dest.parent)
                if safe_io.entry_exists(plan.old_history):
                    safe_io.check_folder(self.root, plan.old_history)
                self._make_set(target)
                moves.run(plan, now.raw, self.sync.limits)
            except BaseException:
                if made:
                    remove_empty_folders(self.root, made)
                    if target is not None and not os.path.lexists(plan.dest.parent):
                        self.sync.loaded().workspaces.pop(target, None)
                raise
            self.sync.loaded().drop(str(plan.source))
            return self._note_written(target, new_id, now.raw)

    def restore_version(self, scope: Scope, memory_id: str, name: str) -> Memory:
        """Write an older version back, itself kept as a ``restore`` version (so undoable)."""
        with self.changing(scope, memory_id, via="restore") as now:
            wanted = next((v for v in self._versions(scope, memory_id) if v.name == name), None)
            if wanted is None:
                raise NoSuchVersion(name)
            return self._write_back(now, wanted, "restore")

    def undo(self, scope: Scope, memory_id: str) -> Memory:
        """Write back the text from before the newest chat change, as an ``undo`` version."""
        with self.changing(scope, memory_id, via="undo") as now:
            doc = now.doc
            versions = self._versions(scope, memory_id)
            wanted = _before_chat(versions, doc)
            if (wanted.title, wanted.text) == (doc.fields.title, doc.text):
                raise CouldNotChange(msg.BEFORE_CHAT_IS_CURRENT)
            return self._write_back(now, wanted, "undo")

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
        return fixing.write_fixed(
            self, Path(os.path.abspath(path)), data, seen=seen, allow_secret=allow_secret
        )

    def _write_back(self, now: Current, version: Version, via: str) -> Memory:
        """Write a kept version's title and text back (checked as they were kept, not
        normalised; a secret in it was there before)."""
        limits = self._limits()
        refuse(title_refusal(version.title, limits) or length_refusal(version.text, limits))
        return self._apply(now, version.title, version.text, None, via=via, allow_secret=True).memory


def _edited_file(
    doc: Document,
    limits: Limits,
    before: tuple[str, str],
    after: tuple[str, str],
    moment: datetime,
    *,
    toggle: bool,
    keys: Mapping[str, Any],
) -> bytes:
    """An edited file's bytes: ``updated`` now, the title when it changed, the switch flipped
    when ``toggle``, the caller's own ``keys`` set; refused over the file size limit."""
    fields: dict[str, Any] = {"updated": moment, **keys}
    if after[0] != before[0]:
        fields["title"] = after[0]
    if toggle:
        fields["enabled"] = not doc.fields.enabled
    data = render_edit(doc, fields, after[1]).encode("utf-8")
    check_size(data, limits)
    return data


def _before_chat(versions: list[Version], doc: Document) -> Version:
    """The kept version of the text the newest change from a chat replaced (``versions``
    newest first); refused with the true reason when there is none to write back.

    A chat's version names the text it replaced (``Version.replaced``), so that text is found
    wherever history keeps it now: the same text is kept once, as its newest version, so it
    may have moved after the chat's own. A version kept before this was noted falls back to
    the version just older than the chat's."""
    current = history.text_key(doc.fields.title, doc.text)
    for index, version in enumerate(versions):
        if version.source == "undo":
            break
        if version.source != "chat":
            continue
        if version.replaced == history.NOTHING_REPLACED:
            raise CouldNotChange(msg.NOTHING_BEFORE_CHAT)
        if version.replaced is not None:
            found = next((v for v in versions if history.text_key(v.title, v.text) == version.replaced), None)
            if found is not None:
                return found
            if version.replaced == current:  # put back outside the app, and not kept yet
                raise CouldNotChange(msg.BEFORE_CHAT_IS_CURRENT)
            raise CouldNotChange(msg.BEFORE_CHAT_NOT_KEPT)
        if doc.fields.created is not None and version.moment == doc.fields.created:
            raise CouldNotChange(msg.NOTHING_BEFORE_CHAT)
        if index + 1 < len(versions):
            return versions[index + 1]
        raise CouldNotChange(msg.BEFORE_CHAT_NOT_KEPT)
    raise NothingToUndo()
