"""Going under the store root safely: no link followed, only regular files read, every read bounded.

Every folder below the root is opened relative to its parent with ``O_NOFOLLOW``, so a
folder swapped for a link between a check and its use is never gone through, and every file
is opened with ``O_NOFOLLOW | O_NONBLOCK`` and checked with ``fstat`` before a byte is read
(a pipe or a device never blocks, a link is never followed). The root itself may be a link:
where it lives is the person's choice; nothing below it is followed.

A link is refused whether it leads out of the root or stays inside it: following one that
stays inside would need a second check that a swap could race, and writing through it would
replace the link rather than the file it names.

Reads and writes assume no more than the kernel promises: a ``read`` or ``write`` may do
part of what was asked (network and FUSE file systems do), so ``read_fd`` reads until the end
of the file (or the bound) and ``write_all`` writes until every byte is written, each asking
again after ``EINTR``. Every read and write of the project goes through these two loops.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
DIR_FLAGS = os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC
FILE_FLAGS = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | _CLOEXEC

#: What may be read of settings.yaml: five short lines need far less.
SETTINGS_MAX_BYTES = 16 * 1024
#: A deletion record's JSON: a moment, a title (or a file name) and a flag.
DELETION_META_MAX_BYTES = 64 * 1024
#: What one read asks for past the size ``fstat`` gave (a file that grew since, or its end).
_READ_CHUNK = 64 * 1024


class Unsafe(OSError):
    """An entry under the root that the store does not go through: a link, a folder that is
    not one, or a file that is not a regular file. ``reason`` completes "The memory could not
    be changed: "; ``kind`` is ``"link"``, ``"not_folder"``, ``"not_regular"`` or
    ``"outside"``; ``filename`` is the entry's path under the root."""

    def __init__(self, reason: str, path: Path | str, *, kind: str) -> None:
        super().__init__(errno.ELOOP, reason, os.fspath(path))
        self.reason = reason
        self.kind = kind

    @property
    def is_link(self) -> bool:
        """True when the entry is a link."""
        return self.kind == "link"


class TooLarge(OSError):
    """A file larger than the bound its reader allows (nothing of it was kept)."""

    def __init__(self, limit: int, path: Path | str) -> None:
        super().__init__(errno.EFBIG, f"the file is larger than {limit} bytes", os.fspath(path))
        self.limit = limit


def link_reason(shown: str) -> str:
    """Why a link is not gone through, naming it as ``shown`` (a path under the root)."""
    return f"{shown} is a link, and links in the memory folder are never followed"


def entry_reason(mode: int, shown: str, *, want_dir: bool) -> str | None:
    """Why an entry of this ``lstat`` mode is refused where a folder (``want_dir``) or a
    regular file is expected; None when it is what is expected."""
    if stat.S_ISLNK(mode):
        return link_reason(shown)
    if want_dir:
        return None if stat.S_ISDIR(mode) else f"{shown} is not a folder"
    return None if stat.S_ISREG(mode) else f"{shown} is not a regular file"


def relative_parts(root: Path, path: Path | str) -> tuple[str, ...]:
    """The parts of ``path`` below ``root`` (both absolute, not resolved); refused when
    ``path`` is not below it."""
    text, base = os.fspath(path), os.fspath(root)
    if text.startswith(base) and text[len(base) : len(base) + 1] == os.sep:
        # The store's own paths: plain string work (pathlib costs more than the open).
        parts = tuple(text[len(base) + 1 :].split(os.sep))
        if "" not in parts and "." not in parts and ".." not in parts:
            return parts
    elif text == base:
        return ()
    try:
        parts = Path(os.path.abspath(path)).relative_to(root).parts
    except ValueError:
        raise Unsafe("the path is outside the memory folder", path, kind="outside") from None
    if ".." in parts:
        raise Unsafe("the path is outside the memory folder", path, kind="outside")
    return parts


def _refusal(dir_fd: int, name: str, shown: str, *, want_dir: bool) -> OSError | None:
    """The refusal for an entry that an ``O_NOFOLLOW`` open would not take, if it is one."""
    try:
        st = os.lstat(name, dir_fd=dir_fd)
    except FileNotFoundError:
        return None
    reason = entry_reason(st.st_mode, shown, want_dir=want_dir)
    if reason is None:
        return None
    kind = "link" if stat.S_ISLNK(st.st_mode) else "not_folder" if want_dir else "not_regular"
    return Unsafe(reason, shown, kind=kind)


def open_folder(root: Path, folder: Path | str, *, create: bool = False) -> int:
    """A file descriptor of ``folder`` (the root or below it), reached one folder at a time
    without following any link; missing folders are made (0700) when ``create``.

    Raises ``Unsafe`` for a link or a non-folder on the way, ``FileNotFoundError`` when a
    folder is missing and not ``create``.
    """
    parts = relative_parts(root, folder)
    if create:
        os.makedirs(root, mode=0o700, exist_ok=True)
    fd = os.open(root, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
    try:
        for depth, part in enumerate(parts):
            child = _open_child(fd, part, "/".join(parts[: depth + 1]), create=create)
            close_quietly(fd)
            fd = child
    except BaseException:
        close_quietly(fd)
        raise
    return fd


def _open_child(fd: int, part: str, shown: str, *, create: bool) -> int:
    """The folder ``part`` inside the open folder ``fd``, never through a link (made when
    missing and ``create``)."""
    while True:
        try:
            return os.open(part, DIR_FLAGS, dir_fd=fd)
        except FileNotFoundError:
            if not create:
                raise
            try:
                os.mkdir(part, 0o700, dir_fd=fd)
            except FileExistsError:
                pass  # made meanwhile: open it
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
                refusal = _refusal(fd, part, shown, want_dir=True)
                if refusal is not None:
                    raise refusal from None
            raise


@contextmanager
def folder(root: Path, path: Path | str, *, create: bool = False) -> Iterator[int]:
    """``open_folder`` as a context: the descriptor is closed after the block."""
    fd = open_folder(root, path, create=create)
    try:
        yield fd
    finally:
        close_quietly(fd)


def close_quietly(fd: int) -> None:
    """Close a descriptor read from, or of a folder: an error there loses nothing (Linux frees
    the descriptor all the same), so it never turns a read, or a change made, into a failure.
    (A file written to is closed with ``os.close``: its error may be the write's.)"""
    try:
        os.close(fd)
    except OSError:
        pass


def fsync_quietly(dir_fd: int) -> None:
    """Make a rename or unlink in the folder ``dir_fd`` durable where the file system can (it
    is in place whether or not the sync works: a change made is never refused for it)."""
    try:
        os.fsync(dir_fd)
    except OSError:
        pass


def unlink_quietly(name: str, dir_fd: int) -> None:
    """Remove the entry ``name`` of the folder ``dir_fd`` if it can be (a temp file a failed
    step leaves: what is left is tidied by the next change)."""
    try:
        os.unlink(name, dir_fd=dir_fd)
    except OSError:
        pass


def entry_exists(name: Path | str, dir_fd: int | None = None) -> bool:
    """True when the entry is there (a link counts), False when it is not; any other error
    (EIO, EACCES) is raised: nothing is decided on a look that failed."""
    try:
        os.lstat(name, dir_fd=dir_fd)
    except (FileNotFoundError, NotADirectoryError):
        return False
    return True


def check_folder(root: Path, path: Path | str) -> None:
    """The write-side check: ``path`` and every folder between it and the root are real
    folders (made when missing); raises ``Unsafe`` with the reason otherwise."""
    close_quietly(open_folder(root, path, create=True))


def open_regular(
    name: str, dir_fd: int | None = None, shown: str | None = None
) -> tuple[int, os.stat_result]:
    """Open a regular file for reading without following a link or waiting on a pipe; its
    descriptor and ``fstat``. Raises ``Unsafe`` for anything else (the descriptor closed)."""
    try:
        fd = os.open(name, FILE_FLAGS, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP or (exc.errno == errno.EMLINK and _NOFOLLOW):
            raise Unsafe(link_reason(shown or name), shown or name, kind="link") from None
        raise
    try:
        st = os.fstat(fd)
    except BaseException:
        close_quietly(fd)
        raise
    if not stat.S_ISREG(st.st_mode):
        close_quietly(fd)
        raise Unsafe(f"{shown or name} is not a regular file", shown or name, kind="not_regular")
    return fd, st


def read_fd(fd: int, size: int, max_bytes: int) -> bytes:
    """Read an open regular file of ``fstat`` size ``size`` to its end: at most
    ``max_bytes + 1`` bytes (one more than allowed tells a file that grew past the bound).

    A read may return fewer bytes than asked without being at the end (network and FUSE file
    systems do), so only an empty read ends the file, or a first read that brought exactly the
    size ``fstat`` saw (the end: a file that grows after that is seen by its new stat); one
    interrupted (``EINTR``) is asked again.
    """
    limit = max_bytes + 1
    # The first read asks for one byte more than fstat saw, with a buffer of the file's size;
    # the next ones for what is still missing of it, or a chunk once past it (it grew).
    wanted = min(size, max_bytes) + 1
    parts: list[bytes] = []
    got = 0
    while got < limit:
        ask = wanted - got if got < wanted else _READ_CHUNK
        try:
            chunk = os.read(fd, min(ask, limit - got))
        except InterruptedError:
            continue
        if not chunk:
            break
        parts.append(chunk)
        got += len(chunk)
        if got == size and len(parts) == 1:
            break  # all fstat saw, in one read: 10,000 files, 10,000 reads fewer
    return parts[0] if len(parts) == 1 else b"".join(parts)


def write_all(fd: int, data: bytes) -> None:
    """Write all of ``data`` to the open file ``fd``: a write may take fewer bytes than given
    (a network or FUSE file system, a signal), so what is left is written again; one
    interrupted (``EINTR``) is tried again. A write that takes nothing raises (ENOSPC)."""
    view = memoryview(data)
    while view:
        try:
            written = os.write(fd, view)
        except InterruptedError:
            continue
        if written <= 0:
            raise OSError(errno.ENOSPC, "the file system took none of the bytes written")
        view = view[written:]


@contextmanager
def regular_file(root: Path, path: Path | str) -> Iterator[tuple[int, os.stat_result]]:
    """The regular file ``path`` under ``root`` opened for reading, reached without following
    any link, with its stat; closed after the block. Raises ``Unsafe`` (a link, not a regular
    file) or another ``OSError`` (missing, unreadable)."""
    parts = relative_parts(root, path)
    if not parts:
        raise Unsafe("the memory folder is not a file", path, kind="not_regular")
    with folder(root, Path(root, *parts[:-1])) as dir_fd:
        fd, st = open_regular(parts[-1], dir_fd, "/".join(parts))
        try:
            yield fd, st
        finally:
            close_quietly(fd)


def read_head(root: Path, path: Path | str, max_bytes: int) -> bytes:
    """At most ``max_bytes + 1`` bytes from the start of the regular file ``path`` under
    ``root``, reached without following any link (more than ``max_bytes`` means it is longer);
    raises ``Unsafe`` (a link, not a regular file) or another ``OSError``."""
    with regular_file(root, path) as (fd, st):
        return read_fd(fd, st.st_size, max_bytes)


def read_regular(root: Path, path: Path | str, max_bytes: int) -> bytes:
    """The bytes of the regular file ``path`` under ``root``, reached without following any
    link; raises ``Unsafe`` (a link, not a regular file), ``TooLarge`` (over ``max_bytes``,
    nothing read) or another ``OSError`` (missing, unreadable)."""
    with regular_file(root, path) as (fd, st):
        if st.st_size > max_bytes:
            raise TooLarge(max_bytes, path)
        raw = read_fd(fd, st.st_size, max_bytes)
    if len(raw) > max_bytes:
        raise TooLarge(max_bytes, path)
    return raw


def read_at(dir_fd: int, name: str, limit: int, shown: str | None = None) -> bytes | None:
    """The bytes of the regular file ``name`` in the open folder ``dir_fd``, at most
    ``limit + 1`` of them; None when there is none or it is not a regular file. A link there
    raises ``Unsafe`` (never followed); another error (EIO, EACCES) is raised."""
    try:
        fd, st = open_regular(name, dir_fd, shown or name)
    except FileNotFoundError:
        return None
    except Unsafe as exc:
        if exc.kind == "not_regular":
            return None
        raise
    try:
        return read_fd(fd, st.st_size, limit)
    finally:
        close_quietly(fd)


def list_names(root: Path, path: Path | str) -> list[str]:
    """The names in the folder ``path`` under ``root``; none when it is missing, and
    ``Unsafe`` when it (or a folder on the way) is a link or not a folder."""
    try:
        with folder(root, path) as fd:
            return os.listdir(fd)
    except FileNotFoundError:
        return []


def remove_file(root: Path, path: Path | str, *, durable: bool = True) -> bool:
    """Unlink ``path`` under ``root`` (a link itself, never what it names) and, when
    ``durable``, make it so; False when it was not there."""
    parts = relative_parts(root, path)
    try:
        with folder(root, Path(root, *parts[:-1])) as dir_fd:
            os.unlink(parts[-1], dir_fd=dir_fd)
            if durable:
                fsync_quietly(dir_fd)
    except FileNotFoundError:
        return False
    return True


def remove_tree(root: Path, path: Path | str) -> None:
    """Remove the folder ``path`` under ``root`` and all it holds, following no link (one
    on the way is refused; one inside is removed as a link)."""
    parts = relative_parts(root, path)
    try:
        with folder(root, Path(root, *parts[:-1])) as dir_fd:
            refusal = _refusal(dir_fd, parts[-1], "/".join(parts), want_dir=True)
            if refusal is not None:
                raise refusal
            shutil.rmtree(parts[-1], dir_fd=dir_fd)
    except FileNotFoundError:
        return
