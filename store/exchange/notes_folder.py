"""Walking a notes folder by descriptors: linear in its folders, one descriptor open at a time.

Each subfolder is opened from its parent's descriptor (``openat`` with ``O_NOFOLLOW``), and the
walk goes back up by ``..`` of the folder it is in, checked to be the parent it came from
(a folder moved while it is walked is refused, never followed elsewhere). So every folder is
opened once, whatever its depth, and only one or two descriptors are open at any time. The
bounds are checked before the work they bound: ``MAX_DEPTH`` before a folder is opened,
``MAX_ENTRIES`` as each folder is listed. Hidden entries are left out; a link is refused.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

from store.disk.safe_io import DIR_FLAGS
from store.exchange.importers import BadSource

#: How deep a notes folder's subfolders may go.
MAX_DEPTH = 1000
#: The most entries (files and folders, hidden ones too) a notes folder's walk lists.
MAX_ENTRIES = 200_000

#: Called for each file the walk takes: the descriptor of its folder (open for the call), its
#: name, the folders from the root to it, and how it is shown.
TakeFile = Callable[[int, str, tuple[str, ...], str], None]

_ROOT_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)


def walk_files(root: Path, shown: str, wanted: Callable[[str], bool], take: TakeFile) -> None:
    """Call ``take`` for every file under ``root`` whose name is ``wanted``, folder by folder;
    ``BadSource`` (one line naming where) for a link, a bound passed or an entry unreadable."""
    try:
        fd = os.open(root, _ROOT_FLAGS)
    except OSError as exc:
        raise BadSource(
            f"{shown}: it could not be read: {exc.strerror or exc}; nothing was imported."
        ) from None
    walk = _Walk(fd, shown, wanted, take)
    try:
        walk.run()
    finally:
        os.close(walk.fd)


class _Walk:
    """One walk: ``fd`` is the folder it is in (the one descriptor it holds), ``parts`` the
    folders from the root to it. A path is spelt out only for a file taken or a refusal, so
    no folder costs more than its own entries, however deep it is."""

    def __init__(self, fd: int, shown: str, wanted: Callable[[str], bool], take: TakeFile) -> None:
        self.fd = fd
        self.shown = shown
        self.wanted = wanted
        self.take = take
        self.entries = 0
        self.parts: list[str] = []

    def where(self, name: str | None = None) -> str:
        """How the folder the walk is in (or ``name`` in it) is shown."""
        return "/".join([self.shown, *self.parts, *([name] if name is not None else [])])

    def refused(self, name: str | None, exc: OSError) -> BadSource:
        return BadSource(
            f"{self.where(name)}: it could not be read: {exc.strerror or exc}; nothing was imported."
        )

    def run(self) -> None:
        folders = [_identity(self.fd)]
        pending = [self._enter()]
        while pending:
            name = next(pending[-1], None)
            if name is None:
                pending.pop()
                folders.pop()
                if pending:
                    self._up(folders[-1])
                continue
            if len(self.parts) >= MAX_DEPTH:
                raise BadSource(
                    f"{self.where(name)}: folders are nested more than {MAX_DEPTH} deep; nothing was imported."
                )
            self._down(name)
            folders.append(_identity(self.fd))
            pending.append(self._enter())

    def _down(self, name: str) -> None:
        """Go into the subfolder ``name`` of the folder the walk is in, never through a link."""
        try:
            child = os.open(name, DIR_FLAGS, dir_fd=self.fd)
        except OSError as exc:
            raise self.refused(name, exc) from None
        os.close(self.fd)
        self.fd = child
        self.parts.append(name)

    def _up(self, parent: tuple[int, int]) -> None:
        """Go back to the parent of the folder the walk is in, refused unless it is ``parent``."""
        try:
            up = os.open("..", DIR_FLAGS, dir_fd=self.fd)
        except OSError as exc:
            raise self.refused(None, exc) from None
        if _identity(up) != parent:
            os.close(up)
            raise BadSource(f"{self.where()}: it was moved while it was read; nothing was imported.")
        os.close(self.fd)
        self.fd = up
        self.parts.pop()

    def _enter(self) -> Iterator[str]:
        """Take the wanted files of the folder the walk is in; its subfolders' names, in order."""
        try:
            names = sorted(os.listdir(self.fd))
        except OSError as exc:
            raise self.refused(None, exc) from None
        self.entries += len(names)
        if self.entries > MAX_ENTRIES:
            raise BadSource(
                f"{self.shown}: it holds more than {MAX_ENTRIES} files and folders; nothing was imported."
            )
        folders: list[str] = []
        for name in names:
            if name.startswith("."):
                continue
            try:
                mode = os.lstat(name, dir_fd=self.fd).st_mode
            except OSError as exc:
                raise self.refused(name, exc) from None
            if stat.S_ISLNK(mode):
                raise BadSource(
                    f"{self.where(name)}: it is a link, and no link in a folder being imported is followed; "
                    "nothing was imported."
                )
            if stat.S_ISDIR(mode):
                folders.append(name)
            elif self.wanted(name):
                self.take(self.fd, name, tuple(self.parts), self.where(name))
        return iter(folders)


def _identity(fd: int) -> tuple[int, int]:
    st = os.fstat(fd)
    return st.st_dev, st.st_ino
