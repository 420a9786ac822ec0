"""Writes that a crash cannot tear: a private temp file, fsync, rename, fsync the folder.

Every step is taken relative to a descriptor of the folder the write checked (``openat``,
``renameat``, ``unlinkat``, ``fsync`` of that descriptor), never by path: a folder swapped for a
link after the check is never written through, and nothing is left outside the folder.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from store.disk.layout import make_dirs
from store.disk.safe_io import (
    close_quietly,
    entry_exists,
    folder,
    fsync_quietly,
    open_regular,
    relative_parts,
    remove_file,
    unlink_quietly,
    write_all,
)

_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
#: How much of a file ``copy_at`` holds in memory at once.
_COPY_CHUNK = 1 << 20


def fsync_dir(folder: Path) -> None:
    """Make a rename or unlink in ``folder`` durable (by path: for a folder outside a store)."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    fsync_quietly(fd)
    close_quietly(fd)


def write_temp_at(
    dir_fd: int, prefix: str, data: bytes, suffix: str = ".tmp", *, durable: bool = True, mode: int = 0o600
) -> str:
    """Write ``data`` to a new file ``<prefix><random><suffix>`` in the open folder ``dir_fd``
    (``mode``: private unless told), synced to disk unless not ``durable``, and return its
    name (the caller renames it into place or removes it). Refused means nothing is left: the
    temp file is removed when any step fails, its close included (a network file system may
    report a failed write only there)."""
    while True:
        name = f"{prefix}{secrets.token_hex(4)}{suffix}"
        try:
            fd = os.open(name, _NEW_FILE, 0o600, dir_fd=dir_fd)
        except FileExistsError:
            continue
        break
    try:
        try:
            if mode != 0o600:
                os.fchmod(fd, mode)
            write_all(fd, data)
            if durable:
                os.fsync(fd)
        except BaseException:
            close_quietly(fd)
            raise
        os.close(fd)
    except BaseException:
        unlink_quietly(name, dir_fd)
        raise
    return name


def replace_at(dir_fd: int, tmp: str, name: str, *, durable: bool = True) -> None:
    """Rename the temp file ``tmp`` over ``name`` in the folder ``dir_fd`` (the temp file is
    removed when that fails), then make it durable."""
    try:
        os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        unlink_quietly(tmp, dir_fd)
        raise
    if durable:
        fsync_quietly(dir_fd)


def write_atomic_at(dir_fd: int, name: str, data: bytes, *, durable: bool = True, mode: int = 0o600) -> None:
    """``write_atomic`` of the entry ``name`` in the open folder ``dir_fd``."""
    tmp = write_temp_at(dir_fd, f".{name}.", data, durable=durable, mode=mode)
    replace_at(dir_fd, tmp, name, durable=durable)


@contextmanager
def _parent(path: Path, root: Path | None) -> Iterator[int]:
    """The folder of ``path`` opened (made when missing): under ``root``, reached without
    following a link; else by its path (a folder of the app's own, wherever the person put it)."""
    if root is not None:
        with folder(root, path.parent, create=True) as fd:
            yield fd
        return
    make_dirs(path.parent)
    fd = os.open(path.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        yield fd
    finally:
        close_quietly(fd)


def write_atomic(
    path: Path, data: bytes, *, durable: bool = True, root: Path | None = None, mode: int = 0o600
) -> None:
    """Replace ``path`` with ``data`` all at once (mode 0600 unless ``mode`` says otherwise).

    The temp file starts with a dot, so a scan never takes it for a memory, and is made,
    written, synced and renamed into place in the folder opened once (``write_atomic_at``).
    ``durable=False`` skips the fsyncs (for caches: still never torn, but a crash may lose the
    new content). With ``root`` (the store's), every folder from it to ``path`` must be a real
    folder, not a link (``safe_io.Unsafe`` otherwise), and a write that fails takes away the
    folders it made. Refused means nothing is left behind.
    """
    made = missing_folders(root, path.parent) if root is not None else []
    try:
        with _parent(path, root) as dir_fd:
            write_atomic_at(dir_fd, path.name, data, durable=durable, mode=mode)
    except BaseException:
        if root is not None and made:
            remove_empty_folders(root, made)
        raise


def copy_at(src_fd: int, src: str, dst_fd: int, dst: str) -> None:
    """Copy the regular file ``src`` of the folder ``src_fd`` to ``dst`` in ``dst_fd``, whole
    (however large, a chunk at a time), with its permissions, atomically and durably; for a
    rename between file systems (EXDEV). Raises ``safe_io.Unsafe`` when ``src`` is not a
    regular file."""
    fd, st = open_regular(src, src_fd)
    try:
        tmp = f".{dst}.{secrets.token_hex(4)}.tmp"
        out = os.open(tmp, _NEW_FILE, 0o600, dir_fd=dst_fd)
        try:
            try:
                os.fchmod(out, st.st_mode & 0o7777)
                while chunk := _read_chunk(fd):
                    write_all(out, chunk)
                os.fsync(out)
            except BaseException:
                close_quietly(out)
                raise
            os.close(out)
        except BaseException:
            unlink_quietly(tmp, dst_fd)
            raise
    finally:
        close_quietly(fd)
    replace_at(dst_fd, tmp, dst)


def _read_chunk(fd: int) -> bytes:
    while True:
        try:
            return os.read(fd, _COPY_CHUNK)
        except InterruptedError:
            continue


def remove_durably(path: Path, *, root: Path | None = None) -> None:
    """Unlink ``path`` (if there) and make the removal durable; with ``root``, reached
    without following a link (``safe_io.Unsafe`` for one on the way)."""
    if root is not None:
        remove_file(root, path)
        return
    try:
        os.unlink(path)
    except FileNotFoundError:
        return
    fsync_dir(path.parent)


def missing_folders(root: Path, path: Path) -> list[Path]:
    """The folders from ``root`` down to ``path`` that are not there yet, outermost first: what
    a change that makes ``path`` must take away again when it is refused."""
    parts = relative_parts(root, path)
    missing: list[Path] = []
    for depth in range(len(parts), 0, -1):
        candidate = Path(root, *parts[:depth])
        if entry_exists(candidate):  # a look that fails refuses the change: never taken for "missing"
            break
        missing.append(candidate)
    return missing[::-1]


def remove_empty_folders(root: Path, made: list[Path]) -> None:
    """Take away the folders of ``made`` (``missing_folders``) that are still empty, innermost
    first, without following a link; one that is not empty (or not removable) stays."""
    for path in reversed(made):
        try:
            with folder(root, path.parent) as dir_fd:
                os.rmdir(path.name, dir_fd=dir_fd)
        except FileNotFoundError:
            continue  # never made: the change stopped before it
        except OSError:
            return


__all__ = [
    "copy_at",
    "fsync_dir",
    "missing_folders",
    "remove_durably",
    "remove_empty_folders",
    "replace_at",
    "write_atomic",
    "write_atomic_at",
    "write_temp_at",
]
