"""Reading the store's folders: which entries are memories, problems, or ignored."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from . import messages as msg
from .layout import is_inside, is_silent_name, is_valid_key, memory_id_of
from .limits import Limits
from .memoryfile import Content, FileProblem, parse_content
from .model import Ignored, Scope

# A child path without re-parsing the parent (pathlib's own shortcut for walking folders).
_child: Callable[[Path, str], Path] = getattr(Path, "_make_child_relpath", Path.joinpath)

#: What identifies one state of a file on disk; a change in any part means "read it again".
Signature = tuple[int, int, int, int]


def signature(st: os.stat_result) -> Signature:
    """Size, mtime_ns, ctime_ns and inode: a file whose stat changed is read again."""
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


class FileEntry(NamedTuple):
    """A candidate memory file found in a set: its path (as a string), scope, id and name."""

    path: str
    scope: Scope
    id: str
    name: str


_MEMORY_NAME = re.compile(r"[0-9a-f]{8}\.md\Z")


def _entries(folder: Path) -> tuple[list[os.DirEntry[str]], list[Ignored]]:
    """A folder's entries; a missing folder has none, an unreadable one is listed as ignored."""
    try:
        return list(os.scandir(folder)), []
    except (FileNotFoundError, NotADirectoryError):
        return [], []
    except OSError as exc:
        return [], [Ignored(folder, f"The folder could not be read: {exc.strerror or exc}.")]


def list_set(root: Path, scope: Scope, folder: Path) -> tuple[list[FileEntry], list[Ignored]]:
    """The candidate memory files of one set, and what it ignores there."""
    files: list[FileEntry] = []
    entries, ignored = _entries(folder)
    for entry in entries:
        name = entry.name
        if _MEMORY_NAME.match(name) is not None and not entry.is_symlink():
            try:
                is_dir = entry.is_dir()  # from the listing: no system call
            except OSError:
                is_dir = False
            if not is_dir:
                files.append(FileEntry(entry.path, scope, name[:8], name))
                continue
        if is_silent_name(name):
            continue
        path = _child(folder, name)
        if entry.is_symlink() and not is_inside(root, path):
            ignored.append(Ignored(path, msg.IGNORED_LINK_OUTSIDE))
            continue
        memory_id = memory_id_of(name)
        try:
            is_dir = entry.is_dir()
        except OSError:
            is_dir = False
        if is_dir:
            ignored.append(Ignored(path, msg.IGNORED_FOLDER_IN_SET))
        elif memory_id is None:
            ignored.append(Ignored(path, msg.IGNORED_BAD_NAME))
        else:
            files.append(FileEntry(entry.path, scope, memory_id, name))
    return files, ignored


def list_workspaces(root: Path, folder: Path) -> tuple[list[tuple[str, Path]], list[Ignored]]:
    """The valid workspace folders (key, path), and the entries ignored beside them."""
    found: list[tuple[str, Path]] = []
    entries, ignored = _entries(folder)
    for entry in entries:
        name = entry.name
        if is_silent_name(name):
            continue
        path = Path(entry.path)
        if entry.is_symlink() and not is_inside(root, path):
            ignored.append(Ignored(path, msg.IGNORED_LINK_OUTSIDE))
        elif not entry.is_dir():
            ignored.append(Ignored(path, "A file here is not a workspace folder."))
        elif not is_valid_key(name):
            ignored.append(Ignored(path, msg.IGNORED_BAD_KEY))
        else:
            found.append((name, path))
    return sorted(found), ignored


def read_file(path: Path | str, limits: Limits) -> tuple[Signature, Content | FileProblem] | None:
    """Read one memory file: its fields and text, or its problem; None when it is gone or
    not a regular file.

    The size check comes from the open file's stat, so a huge file is never read.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except PermissionError as exc:
        try:
            st = os.stat(path)
        except OSError:
            return None
        return signature(st), FileProblem(msg.FILE_UNREADABLE.format(reason=exc.strerror or exc))
    except OSError as exc:
        return (0, 0, 0, 0), FileProblem(msg.FILE_UNREADABLE.format(reason=exc.strerror or exc))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        sig = signature(st)
        if st.st_size > limits.file_max_bytes:
            return sig, FileProblem(msg.FILE_TOO_LARGE.format(n=limits.file_max_bytes))
        try:
            # Ask for one byte more than fstat saw: a short read is the end of a regular file,
            # so an unchanged file costs one read, with a buffer of its own size.
            raw = os.read(fd, st.st_size + 1)
            while st.st_size < len(raw) <= limits.file_max_bytes:  # it grew since the fstat
                more = os.read(fd, limits.file_max_bytes + 1 - len(raw))
                if not more:
                    break
                raw += more
        except OSError as exc:
            return sig, FileProblem(msg.FILE_UNREADABLE.format(reason=exc.strerror or exc))
    finally:
        os.close(fd)
    return sig, parse_content(raw, limits)
