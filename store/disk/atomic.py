"""Writes that a crash cannot tear: a private temp file, fsync, rename, fsync the folder."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from store.disk.layout import make_dirs
from store.disk.safe_io import check_folder, folder, relative_parts, remove_file


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
    folder: Path,
    prefix: str,
    data: bytes,
    suffix: str = ".tmp",
    *,
    root: Path | None = None,
    durable: bool = True,
    mode: int = 0o600,
) -> Path:
    """Write ``data`` to a new file ``<prefix><random><suffix>`` in ``folder`` (``mode``: private
    unless told), synced to disk unless not ``durable``, and return its path (the caller renames
    it into place or removes it). With ``root`` (the store's), every folder from it to ``folder``
    must be a real folder, not a link (``safe_io.Unsafe`` otherwise): the one check every write
    of the store passes."""
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
        if mode != 0o600:
            os.fchmod(fd, mode)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        if durable:
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

    The temp file (``write_temp``, which takes ``durable``, ``root`` and ``mode``) starts with a
    dot, so a scan never takes it for a memory. ``durable=False`` skips the fsyncs (for caches:
    still never torn, but a crash may lose the new content). ``mode``: the new file's
    permissions (a file outside the store keeps its own).
    """
    folder = path.parent
    tmp = write_temp(folder, f".{path.name}.", data, root=root, durable=durable, mode=mode)
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


def missing_folders(root: Path, path: Path) -> list[Path]:
    """The folders from ``root`` down to ``path`` that are not there yet, outermost first: what
    a change that makes ``path`` must take away again when it is refused."""
    parts = relative_parts(root, path)
    missing: list[Path] = []
    for depth in range(len(parts), 0, -1):
        candidate = Path(root, *parts[:depth])
        if os.path.lexists(candidate):
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
