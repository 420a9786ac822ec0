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

from . import history
from .atomic import fsync_dir, remove_durably, write_atomic
from .commit import read_limited
from .history import NewVersion
from .memory_fields import Document, FileProblem
from .memoryfile import parse_bytes
from .swap import rename_new
from .timestamps import format_timestamp


def _write_meta(root: Path, hdir: Path, title: str, moment: datetime, problem: bool, via: str) -> None:
    meta = {"deleted_at": format_timestamp(moment), "title": title, "problem": problem, "via": via}
    write_atomic(hdir / history.DELETED_META, json.dumps(meta, ensure_ascii=False).encode("utf-8"), root=root)


def _describe(path: Path, doc: Document | FileProblem | None) -> tuple[str, bool]:
    """The title a deletion record shows, and whether the file was a problem."""
    if isinstance(doc, Document):
        return doc.fields.title, False
    return path.name, True


def delete(
    root: Path,
    path: Path,
    hdir: Path,
    seen: bytes | None,
    doc: Document | FileProblem | None,
    moment: datetime,
    *,
    via: str = "settings",
) -> None:
    """Move the memory file at ``path`` into ``hdir`` as its deletion record (``via``: where
    the deletion came from, e.g. ``chat``).

    ``seen``/``doc`` are what the caller read; if another program saved in between, the record
    is corrected to what was actually moved.
    """
    title, problem = _describe(path, doc)
    _write_meta(root, hdir, title, moment, problem, via)
    kept = hdir / history.DELETED_BYTES
    try:
        os.replace(path, kept)
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            remove_durably(hdir / history.DELETED_META, root=root)
            raise
        # History on another file system (a mount point): copy, then remove.
        raw = read_limited(root, path, history.READ_LIMITS.file_max_bytes)
        write_atomic(kept, raw or b"", root=root)
        os.unlink(path)
    fsync_dir(hdir)
    fsync_dir(path.parent)
    moved = read_limited(root, kept, len(seen) if seen is not None else 0)
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
    fsync_dir(path.parent)
    history.clear_deletion(root, hdir)
    if written is not None:
        history.trim(root, hdir, keep)
