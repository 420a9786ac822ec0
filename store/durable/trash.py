"""Deleting and restoring a memory file: the file itself moves into history and back.

A deletion is a rename on the same file system, never a copy, so even a huge problem file
costs nothing and whatever was in place at that moment is what is kept. ``deleted.json`` is
written first: a crash before the rename leaves the memory where it was, its record unread
(``read_deletion`` needs both files).
"""

from __future__ import annotations

import errno
import json
import os
from datetime import datetime
from pathlib import Path

from store.disk import safe_io
from store.disk.atomic import copy_at, missing_folders, remove_empty_folders, write_atomic_at
from store.disk.safe_io import entry_exists, fsync_quietly, unlink_quietly
from store.disk.swap import rename_new_at
from store.durable import history
from store.durable.history import NewVersion
from store.format.fields import Document, FileProblem
from store.format.parse import parse_bytes
from store.format.timestamps import format_timestamp
from store.model import Memory


def _write_meta(hdir_fd: int, title: str, moment: datetime, problem: bool, via: str) -> None:
    meta = {"deleted_at": format_timestamp(moment), "title": title, "problem": problem, "via": via}
    write_atomic_at(hdir_fd, history.DELETED_META, json.dumps(meta, ensure_ascii=False).encode("utf-8"))


def _describe(path: Path, doc: Document | FileProblem | Memory | None) -> tuple[str, bool]:
    """The title a deletion record shows, and whether the file was a problem (a file that
    could not be read is described as the store last read it, ``Memory``)."""
    if isinstance(doc, Document):
        return doc.fields.title, False
    if isinstance(doc, Memory):
        return doc.title, False
    return path.name, True


def delete(
    root: Path,
    path: Path,
    hdir: Path,
    seen: bytes | None,
    doc: Document | FileProblem | Memory | None,
    moment: datetime,
    *,
    via: str = "settings",
) -> None:
    """Move the memory file at ``path`` into ``hdir`` as its deletion record (``via``: where
    the deletion came from, e.g. ``chat``).

    ``seen``/``doc`` are what the caller read (``seen`` None with a ``Memory``: the file could
    not be read, which a rename does not need); if another program saved in between, the
    record is corrected to what was actually moved.
    """
    title, problem = _describe(path, doc)
    made = missing_folders(root, hdir)
    with safe_io.folder(root, path.parent) as set_fd:
        try:
            hdir_fd = safe_io.open_folder(root, hdir, create=True)
        except BaseException:
            remove_empty_folders(root, made)
            raise
        try:
            _move_into_history(root, path.name, set_fd, hdir_fd, made, (title, moment, problem, via))
            # Deleted: from here on nothing may refuse it.
            fsync_quietly(hdir_fd)
            fsync_quietly(set_fd)
            if seen is not None or not isinstance(doc, Memory):  # (else it could not be read)
                _correct_record(hdir_fd, path, seen, (title, moment, problem, via))
        finally:
            safe_io.close_quietly(hdir_fd)


def _correct_record(
    hdir_fd: int, path: Path, seen: bytes | None, meta: tuple[str, datetime, bool, str]
) -> None:
    """When another program saved the file at ``path`` between the read and the rename, the
    record says what was moved (a record that cannot be corrected keeps what the store read)."""
    title, moment, problem, via = meta
    try:
        moved = safe_io.read_at(hdir_fd, history.DELETED_BYTES, len(seen) if seen is not None else 0)
    except OSError:
        return  # cannot be read back (mode 000, say): the record says what the store last saw
    if moved == seen:
        return
    actual = parse_bytes(moved, history.READ_LIMITS) if moved is not None else None
    moved_title, moved_problem = _describe(path, actual)
    if (moved_title, moved_problem) != (title, problem):
        try:
            _write_meta(hdir_fd, moved_title, moment, moved_problem, via)
        except OSError:
            pass  # deleted all the same


def _move_into_history(
    root: Path, name: str, set_fd: int, hdir_fd: int, made: list[Path], meta: tuple[str, datetime, bool, str]
) -> None:
    """``deleted.json`` written, then the file ``name`` of the set renamed to ``deleted.md``
    (copied, then removed, when history is on another file system); refused means the record is
    taken back and the memory is where it was."""
    copied = False
    try:
        _write_meta(hdir_fd, *meta)
        try:
            os.replace(name, history.DELETED_BYTES, src_dir_fd=set_fd, dst_dir_fd=hdir_fd)
        except OSError as exc:
            if exc.errno != errno.EXDEV:
                raise
            # History on another file system (a mount point): copy whole, then remove.
            copy_at(set_fd, name, hdir_fd, history.DELETED_BYTES)
            copied = True
            os.unlink(name, dir_fd=set_fd)
    except BaseException:
        if not _still_there(name, set_fd):
            raise  # moved after all (the copy's removal failed): the record stays
        if copied:
            unlink_quietly(history.DELETED_BYTES, hdir_fd)
        unlink_quietly(history.DELETED_META, hdir_fd)
        remove_empty_folders(root, made)
        raise


def _still_there(name: str, set_fd: int) -> bool:
    """True when the memory file is still in its set (when that cannot be told, the record is
    kept: without its ``deleted.md`` it is no record, and the next change drops it)."""
    try:
        return entry_exists(name, set_fd)
    except OSError:
        return False


def restore(root: Path, path: Path, hdir: Path, version: NewVersion | None, keep: int) -> None:
    """Put a deleted file back at ``path`` (which must be free), keeping ``version`` first."""
    written = None
    if version is not None:
        written = history.write_new_version(root, hdir, version)
    try:
        with safe_io.folder(root, path.parent) as set_fd, safe_io.folder(root, hdir) as hdir_fd:
            rename_new_at(hdir_fd, history.DELETED_BYTES, set_fd, path.name)
            # Back in place: from here on nothing may refuse it. A ``deleted.json`` that cannot
            # be removed now, without its ``deleted.md``, is no record; the next change drops it.
            fsync_quietly(set_fd)
    except BaseException:
        if written is not None:
            history.remove_version(root, hdir, written.name)
        raise
    try:
        history.clear_deletion(root, hdir)
    except OSError:
        pass
    if written is not None:
        history.trim(root, hdir, keep)
