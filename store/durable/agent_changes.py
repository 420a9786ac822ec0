"""What waits for review: what a chat (the agent) created, changed or deleted since the person
last reviewed it, read from the history against the review marks the caller keeps.

A memory waits when its newest version's source is ``chat``, that version is newer than the
mark, and the file still holds that version's title and text (an edit made since, in the app or
in an editor, is the person's own and needs no review). A memory a chat deleted waits too (its
deletion record says ``via: chat``) until the deletion is marked reviewed (its mark is the
deletion's moment with ``-deleted``) or the memory is restored. A mark is a version's name
without ``.md`` (``20261129T215234123Z-chat``); only the newest two versions of a candidate are
read (the history folder's listing says which).
"""

from __future__ import annotations

from pathlib import Path

from store.disk.layout import history_dir, memory_path
from store.durable.history import read_version, version_name_parts, version_names
from store.format.timestamps import format_moment
from store.model import Deleted, Memory, ReviewItem, Scope, Version


def mark_key(name: str) -> tuple[str, int]:
    """Version names (and marks) in time order: the moment, then the -2, -3… of the same moment."""
    parts = version_name_parts(name + ".md")
    return ("", 0) if parts is None else (parts[0], parts[2])


def _source_of(name: str) -> str | None:
    parts = version_name_parts(name + ".md")
    return None if parts is None else parts[1]


def newest_name(root: Path, scope: Scope, memory_id: str) -> str | None:
    """The name of a memory's newest version, without ``.md`` (None when it has none); a history
    that cannot be read (EIO, EACCES) raises."""
    names = version_names(root, history_dir(root, scope, memory_id))
    return names[-1][:-3] if names else None


def changed_by_agent(root: Path, memory: Memory, mark: str | None) -> ReviewItem | None:
    """``memory`` as a chat left it, when that waits for review since ``mark``; a history that
    cannot be read raises (``OSError``)."""
    hdir = history_dir(root, memory.scope, memory.id)
    names = [n[:-3] for n in version_names(root, hdir)]  # oldest first
    if not names or _source_of(names[-1]) != "chat":
        return None
    if mark is not None and mark_key(mark) >= mark_key(names[-1]):
        return None
    newest = read_version(root, hdir, names[-1] + ".md")
    if newest is None or (newest.title, newest.text) != (memory.title, memory.text):
        return None  # edited since the chat saved it: the person's own text
    before = read_version(root, hdir, names[-2] + ".md") if len(names) >= 2 else None
    return ReviewItem(memory=memory, newest=newest, before=before, reviewed=mark)


def deleted_by_agent(root: Path, deleted: Deleted, mark: str | None) -> ReviewItem | None:
    """A chat's deletion not reviewed since ``mark``: its mark is the deletion's moment,
    ``-deleted``."""
    if deleted.via != "chat" or deleted.problem:
        return None
    name = f"{format_moment(deleted.deleted_at)}-deleted"
    if mark is not None and mark_key(mark) >= mark_key(name):
        return None
    path = str(memory_path(root, deleted.scope, deleted.id))
    was = Memory(deleted.id, deleted.scope, deleted.title, deleted.text, True, "ai", None, None, None, path)
    before = Version(name, deleted.deleted_at, "chat", deleted.title, deleted.text)
    newest = Version(name, deleted.deleted_at, "chat", "", "")
    return ReviewItem(memory=was, newest=newest, before=before, reviewed=mark, deleted=deleted)
