"""Writes that a crash cannot tear: a private temp file, fsync, rename, fsync the folder."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from .layout import make_dirs
from .safe_io import check_folder, remove_file


def fsync_dir(folder: Path) -> None:
    """Make a rename or unlink in ``folder`` durable."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_temp(
    folder: Path, prefix: str, data: bytes, suffix: str = ".tmp", *, root: Path | None = None
) -> Path:
    """Write ``data`` to a new private file ``<prefix><random><suffix>`` in ``folder``, synced
    to disk, and return its path (the caller renames it into place or removes it). With
    ``root``, the folders on the way are checked as ``write_atomic`` checks them."""
    if root is not None:
        check_folder(root, folder)
    else:
        make_dirs(folder)
    while True:
        tmp = folder / f"{prefix}{secrets.token_hex(4)}{suffix}"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue
        break
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        tmp.unlink(missing_ok=True)
        raise
    os.close(fd)
    return tmp


def write_atomic(
    path: Path, data: bytes, *, durable: bool = True, root: Path | None = None, mode: int = 0o600
) -> os.stat_result:
    """Replace ``path`` with ``data`` all at once (mode 0600) and return the new file's stat.

    The temp file starts with a dot, so a scan never takes it for a memory. ``durable=False``
    skips the fsyncs (for caches: still never torn, but a crash may lose the new content).
    With ``root`` (the store's), every folder from it to ``path`` must be a real folder, not a
    link (``safe_io.Unsafe`` otherwise): the one check every write of the store passes.
    ``mode``: the new file's permissions (a file outside the store keeps its own).
    """
    folder = path.parent
    if root is not None:
        check_folder(root, folder)
    else:
        make_dirs(folder)
    tmp = folder / f".{path.name}.{secrets.token_hex(4)}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        if mode != 0o600:
            os.fchmod(fd, mode)
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        if durable:
            os.fsync(fd)
    except BaseException:
        os.close(fd)
        tmp.unlink(missing_ok=True)
        raise
    os.close(fd)
    try:
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    if durable:
        fsync_dir(folder)
    return os.lstat(path)


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
