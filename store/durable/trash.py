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

from store.disk.atomic import fsync_dir, missing_folders, remove_durably, remove_empty_folders, write_atomic
from store.disk.swap import rename_new
from store.durable import history
from store.durable.commit import read_limited
from store.durable.history import NewVersion
from store.format.fields import Document, FileProblem
from store.format.parse import parse_bytes
from store.format.timestamps import format_timestamp
from store.model import Memory


def _write_meta(root: Path, hdir: Path, title: str, moment: datetime, problem: bool, via: str) -> None:
    meta = {"deleted_at": format_timestamp(moment), "title": title, "problem": problem, "via": via}
    write_atomic(hdir / history.DELETED_META, json.dumps(meta, ensure_ascii=False).encode("utf-8"), root=root)


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
    kept = hdir / history.DELETED_BYTES
    try:
        _write_meta(root, hdir, title, moment, problem, via)
        try:
            os.replace(path, kept)
        except OSError as exc:
            if exc.errno != errno.EXDEV:
                raise
            # History on another file system (a mount point): copy, then remove.
            raw = read_limited(root, path, history.READ_LIMITS.file_max_bytes)
            write_atomic(kept, raw or b"", root=root)
            os.unlink(path)
    except BaseException:
        if not os.path.lexists(path):
            raise  # moved after all (the copy's removal failed): the record stays
        remove_durably(hdir / history.DELETED_META, root=root)
        remove_empty_folders(root, made)
        raise
    # Deleted: from here on nothing may refuse it.
    fsync_dir(hdir)
    fsync_dir(path.parent)
    if seen is None and isinstance(doc, Memory):
        return  # it could not be read: the record says what the store last saw of it
    try:
        moved = read_limited(root, kept, len(seen) if seen is not None else 0)
    except OSError:
        return  # cannot be read back (mode 000, say): the record says what the store last saw
    if moved != seen:
        actual = parse_bytes(moved, history.READ_LIMITS) if moved is not None else None
        moved_title, moved_problem = _describe(path, actual)
        if (moved_title, moved_problem) != (title, problem):
            _write_meta(root, hdir, moved_title, moment, moved_problem, via)


def restore(root: Path, path: Path, hdir: Path, version: NewVersion | None, keep: int) -> None:
    """Put a deleted file back at ``path`` (which must be free), keeping ``version`` first."""
    written = None
    if version is not None:
        written = history.write_new_version(root, hdir, version)
    try:
        rename_new(hdir / history.DELETED_BYTES, path)
    except BaseException:
        if written is not None:
            history.remove_version(root, hdir, written.name)
        raise
    # Back in place: from here on nothing may refuse it. A ``deleted.json`` that cannot be
    # removed now, without its ``deleted.md``, is no record; the next change drops it.
    fsync_dir(path.parent)
    try:
        history.clear_deletion(root, hdir)
    except OSError:
        pass
    if written is not None:
        history.trim(root, hdir, keep)
