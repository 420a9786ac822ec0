"""Going under the store root safely: no link followed, only regular files read, every read bounded.

Every folder below the root is opened relative to its parent with ``O_NOFOLLOW``, so a
folder swapped for a link between a check and its use is never gone through, and every file
is opened with ``O_NOFOLLOW | O_NONBLOCK`` and checked with ``fstat`` before a byte is read
(a pipe or a device never blocks, a link is never followed). The root itself may be a link:
where it lives is the person's choice; nothing below it is followed.

A link is refused whether it leads out of the root or stays inside it: following one that
stays inside would need a second check that a swap could race, and writing through it would
replace the link rather than the file it names.
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
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
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
        os.close(fd)


def check_folder(root: Path, path: Path | str) -> None:
    """The write-side check: ``path`` and every folder between it and the root are real
    folders (made when missing); raises ``Unsafe`` with the reason otherwise."""
    os.close(open_folder(root, path, create=True))


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
        os.close(fd)
        raise
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise Unsafe(f"{shown or name} is not a regular file", shown or name, kind="not_regular")
    return fd, st


def read_fd(fd: int, size: int, max_bytes: int) -> bytes:
    """Read an open regular file of ``fstat`` size ``size``: at most ``max_bytes + 1`` bytes
    (one more than allowed tells a file that grew past the bound)."""
    # Ask for one byte more than fstat saw: a short read is the end of a regular file, so an
    # unchanged file costs one read, with a buffer of its own size.
    raw = os.read(fd, min(size, max_bytes) + 1)
    while size < len(raw) <= max_bytes:  # it grew since the fstat
        more = os.read(fd, max_bytes + 1 - len(raw))
        if not more:
            break
        raw += more
    return raw


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
            os.close(fd)


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
                try:
                    os.fsync(dir_fd)
                except OSError:
                    pass
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
