"""Reaching a target inside the folder synced (the project folder, or the home folder for the
user-level files) without ever going out of it.

Every folder is opened relative to its parent with ``O_NOFOLLOW``, from a descriptor of the
folder synced, so a folder swapped for a link between a look and its use is never gone
through; the file is opened the same way and checked with ``fstat`` before a byte is read. A
link inside the folder (``CLAUDE.md`` -> ``AGENTS.md``) is read with ``readlink`` and its
target walked the same way, from the folder synced: it is followed only while it stays inside
(at most ``MAX_LINK_HOPS`` links in a row; more is a link loop). Nothing resolves a path by
name (no ``realpath``), and the folder synced itself may be a link: where it lives is the
person's choice.
"""

from __future__ import annotations

import errno
import os
import posixpath
import stat
from dataclasses import dataclass
from pathlib import Path

from store.disk.safe_io import DIR_FLAGS, FILE_FLAGS

#: Links followed in a row before a target counts as a link loop (Linux's own limit).
MAX_LINK_HOPS = 40
#: The most of a target that is read: an instructions file is a few kilobytes.
TARGET_MAX_BYTES = 1024 * 1024
LINK_LOOP = "it is a link loop (links that lead back to each other), so it was left as it is"
_ROOT_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)


class TargetRefused(Exception):
    """A target that cannot be synced; ``str(err)`` is one line naming it."""


@dataclass(frozen=True, slots=True)
class Place:
    """Where a target is: its path inside the folder synced (links followed), a descriptor of
    the deepest folder on the way that exists, the folders below it still to make, and the
    file's name in its folder."""

    name: str
    path: str
    fd: int
    missing: tuple[str, ...]
    entry: str

    @property
    def folder(self) -> str:
        """The target's folder inside the folder synced ("" for that folder itself)."""
        return posixpath.dirname(self.path)

    @property
    def existing(self) -> str:
        """The folder ``fd`` is (inside the folder synced)."""
        parts = self.folder.split("/") if self.folder else []
        return "/".join(parts[: len(parts) - len(self.missing)])


def close_quietly(fd: int) -> None:
    """Close ``fd``; a failure is no refusal (what was written was synced before, what was
    read was read)."""
    try:
        os.close(fd)
    except OSError:
        pass


def _refused(name: str, why: str) -> TargetRefused:
    return TargetRefused(f"{name}: {why}; nothing was written.")


class Walker:
    """Descriptors of one folder synced and of the places found in it (closed by ``close``)."""

    def __init__(self, base: Path) -> None:
        self.base = Path(os.path.abspath(base))
        try:
            self.fd = os.open(self.base, _ROOT_FLAGS)
        except OSError as exc:
            raise TargetRefused(
                f"The folder {self.base} could not be opened: {exc.strerror or exc}; nothing was written."
            ) from None
        self._held: list[int] = []

    def close(self) -> None:
        """Close every descriptor this walker opened."""
        for fd in [*self._held, self.fd]:
            close_quietly(fd)
        self._held = []

    def __enter__(self) -> Walker:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def keep(self, fd: int) -> int:
        """Hold ``fd`` until the walker is closed."""
        self._held.append(fd)
        return fd

    def parts(self, name: str) -> list[str]:
        """The parts of target ``name`` (relative to the folder synced, or absolute inside it)."""
        if os.path.isabs(name):
            given = os.path.normpath(name)
            base = os.fspath(self.base)
            if given != base and not given.startswith(base.rstrip(os.sep) + os.sep):
                raise _refused(name, f"it is outside the folder {self.base}")
            name = os.path.relpath(given, base)
        parts = [p for p in name.replace(os.sep, "/").split("/") if p not in ("", ".")]
        if not parts or parts[-1] == "..":
            raise _refused(name, "it names a folder, not a file")
        return parts

    def locate(self, name: str) -> Place:
        """Where target ``name`` is, links inside the folder synced followed."""
        chain: list[tuple[str, int]] = []  # the folders walked so far, each with its descriptor
        try:
            return self._walk(name, self.parts(name), chain)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise _refused(name, LINK_LOOP) from None
            raise _refused(name, f"it could not be reached: {exc.strerror or exc}") from None
        finally:
            for _part, fd in chain:
                close_quietly(fd)

    def _walk(self, name: str, pending: list[str], chain: list[tuple[str, int]]) -> Place:
        hops = 0
        while pending:
            part = pending.pop(0)
            if part == "..":
                if not chain:
                    raise _refused(name, f"it is outside the folder {self.base}")
                close_quietly(chain.pop()[1])
                continue
            here = chain[-1][1] if chain else self.fd
            walked = [c for c, _ in chain]
            try:
                st = os.lstat(part, dir_fd=here)
            except FileNotFoundError:
                return self._missing(name, walked, [part, *pending], here)
            if stat.S_ISLNK(st.st_mode):
                hops += 1
                if hops > MAX_LINK_HOPS:
                    raise _refused(name, LINK_LOOP)
                pending[:0] = self._link_parts(name, part, here, chain)
            elif not pending:
                return Place(name, "/".join([*walked, part]), self.keep(os.dup(here)), (), part)
            elif not stat.S_ISDIR(st.st_mode):
                raise _refused(name, f"{'/'.join([*walked, part])} is not a folder")
            else:
                chain.append((part, self._open_folder(name, part, here)))
        raise _refused(name, "it names a folder, not a file")

    def _open_folder(self, name: str, part: str, here: int) -> int:
        try:
            return os.open(part, DIR_FLAGS, dir_fd=here)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                raise _refused(name, f"the folder {part} was replaced while it was being synced") from None
            raise

    def _link_parts(self, name: str, part: str, here: int, chain: list[tuple[str, int]]) -> list[str]:
        """The parts a link at ``part`` leads to, to be walked next (from the folder synced
        when it is absolute: ``chain`` is emptied)."""
        target = os.readlink(part, dir_fd=here)
        if not os.path.isabs(target):
            return [p for p in target.split("/") if p not in ("", ".")]
        base = os.fspath(self.base)
        if not target.startswith(base.rstrip(os.sep) + os.sep):
            raise _refused(
                name,
                f"it leads to {target}, outside the folder {self.base}; links out of it are never followed",
            )
        for _part, fd in chain:
            close_quietly(fd)
        chain.clear()
        return [p for p in os.path.relpath(target, base).split("/") if p not in ("", ".")]

    def _missing(self, name: str, walked: list[str], rest: list[str], here: int) -> Place:
        """A target whose file (and maybe folders) does not exist yet."""
        if ".." in rest:
            raise _refused(name, "it goes up (..) from a folder that does not exist")
        path = "/".join([*walked, *rest])
        return Place(name, path, self.keep(os.dup(here)), tuple(rest[:-1]), rest[-1])

    def still_there(self, place: Place) -> bool:
        """True when the folder ``place.fd`` is still the one its path names (no folder on the
        way replaced, by a link or otherwise, since it was found)."""
        parts = place.existing.split("/") if place.existing else []
        fd = os.dup(self.fd)
        try:
            for part in parts:
                child = os.open(part, DIR_FLAGS, dir_fd=fd)
                close_quietly(fd)
                fd = child
            now, then = os.fstat(fd), os.fstat(place.fd)
            return (now.st_dev, now.st_ino) == (then.st_dev, then.st_ino)
        except OSError:
            return False
        finally:
            close_quietly(fd)


def read_entry(folder_fd: int, entry: str, shown: str) -> tuple[bytes, os.stat_result] | None:
    """The bytes and stat of the regular file ``entry`` in ``folder_fd`` (None: there is none),
    read to its end and at most ``TARGET_MAX_BYTES``; ``TargetRefused`` for anything else."""
    try:
        fd = os.open(entry, FILE_FLAGS, dir_fd=folder_fd)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK):
            raise _refused(shown, "it became a link while it was being synced") from None
        raise _refused(shown, f"it could not be read: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _refused(shown, "it is not a regular file")
        if st.st_size > TARGET_MAX_BYTES:
            raise _refused(
                shown, f"it is larger than {TARGET_MAX_BYTES // 1024} KiB, too large for an instructions file"
            )
        return _read_all(fd, shown), st
    except OSError as exc:
        raise _refused(shown, f"it could not be read: {exc.strerror or exc}") from None
    finally:
        close_quietly(fd)


def _read_all(fd: int, shown: str) -> bytes:
    """Read to the end (a short read is not the end), at most ``TARGET_MAX_BYTES``."""
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = os.read(fd, TARGET_MAX_BYTES + 1 - size)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > TARGET_MAX_BYTES:
            raise _refused(
                shown, f"it is larger than {TARGET_MAX_BYTES // 1024} KiB, too large for an instructions file"
            )
