"""Reading the store's folders: which entries are memories, problems, or ignored, and what
each memory file stands for."""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from store import messages as msg
from store.disk.layout import is_inside, is_silent_name, is_valid_key, memory_id_of
from store.disk.safe_io import FILE_FLAGS, Unsafe, close_quietly, open_folder, read_fd
from store.format.fields import Content, Document, FileProblem
from store.format.parse import parse_content
from store.limits import Limits
from store.model import Ignored, Memory, Problem, Scope, UnreadableFolder

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


def link_ignored(root: Path, path: Path) -> Ignored:
    """A link found where a memory, a set or a history entry could be: never followed; the
    reason says whether it leads out of the root (only looked up, to say so)."""
    return Ignored(path, msg.IGNORED_LINK_OUTSIDE if not is_inside(root, path) else msg.IGNORED_LINK)


def unsafe_ignored(root: Path, exc: Unsafe) -> Ignored:
    """The entry a refused walk or open stopped at (``exc.filename`` is its path under the
    root), with the reason it is not gone through."""
    path = Path(root, exc.filename)
    if exc.is_link:
        return link_ignored(root, path)
    return Ignored(path, msg.IGNORED_NOT_A_FOLDER if exc.kind == "not_folder" else msg.IGNORED_NOT_REGULAR)


def unreadable_folder(folder: Path, exc: OSError) -> UnreadableFolder:
    """A folder that could not be opened or listed, and why."""
    error = exc.strerror or str(exc)
    return UnreadableFolder(folder, msg.FOLDER_UNREADABLE.format(reason=error), error)


@contextmanager
def open_set_folder(root: Path, folder: Path, ignored: dict[str, Ignored]) -> Iterator[int | None]:
    """A set's folder opened without following a link on the way (None when it is
    missing, or refused: then ``ignored`` says why)."""
    try:
        fd = open_folder(root, folder)
    except FileNotFoundError:
        yield None
        return
    except Unsafe as exc:
        item = unsafe_ignored(root, exc)
        ignored[str(item.path)] = item
        yield None
        return
    except OSError as exc:
        ignored[str(folder)] = unreadable_folder(folder, exc)
        yield None
        return
    try:
        yield fd
    finally:
        close_quietly(fd)


def _entries(folder: Path, dir_fd: int) -> tuple[list[os.DirEntry[str]], list[Ignored]]:
    """A folder's entries (listed through its open descriptor); an unreadable one is listed
    as ignored."""
    try:
        return list(os.scandir(dir_fd)), []
    except (FileNotFoundError, NotADirectoryError):
        return [], []
    except OSError as exc:
        return [], [unreadable_folder(folder, exc)]


def list_set(root: Path, scope: Scope, folder: Path, dir_fd: int) -> tuple[list[FileEntry], list[Ignored]]:
    """The candidate memory files of one set (``dir_fd`` is ``folder`` opened), and what it
    ignores there: links, folders, pipes and devices, and names that are not ids."""
    files: list[FileEntry] = []
    entries, ignored = _entries(folder, dir_fd)
    prefix = os.path.join(folder, "")
    for entry in entries:
        name = entry.name
        try:
            # The listing's file type: no system call (links are not followed).
            regular = entry.is_file(follow_symlinks=False)
        except OSError:
            regular = False
        if regular and _MEMORY_NAME.match(name) is not None:
            files.append(FileEntry(prefix + name, scope, name[:8], name))
            continue
        if is_silent_name(name):
            continue
        path = _child(folder, name)
        if entry.is_symlink():
            ignored.append(link_ignored(root, path))
            continue
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
        except OSError:
            is_dir = False
        if is_dir:
            ignored.append(Ignored(path, msg.IGNORED_FOLDER_IN_SET))
        elif memory_id_of(name) is None:
            ignored.append(Ignored(path, msg.IGNORED_BAD_NAME))
        else:
            ignored.append(Ignored(path, msg.IGNORED_NOT_REGULAR))
    return files, ignored


def list_workspaces(root: Path, folder: Path, dir_fd: int) -> tuple[list[tuple[str, Path]], list[Ignored]]:
    """The valid workspace folders (key, path), and the entries ignored beside them."""
    found: list[tuple[str, Path]] = []
    entries, ignored = _entries(folder, dir_fd)
    for entry in entries:
        name = entry.name
        if is_silent_name(name):
            continue
        path = _child(folder, name)
        is_link = entry.is_symlink()
        why = workspace_ignored(
            root, path, is_link=is_link, is_dir=not is_link and entry.is_dir(follow_symlinks=False)
        )
        if why is None:
            found.append((name, path))
        else:
            ignored.append(why)
    return sorted(found), ignored


def workspace_ignored(root: Path, path: Path, *, is_link: bool, is_dir: bool) -> Ignored | None:
    """Why an entry of the workspaces folder is not a workspace (a link, a file, a name that
    is not a key); None when it is one."""
    if is_link:
        return link_ignored(root, path)
    if not is_dir:
        return Ignored(path, "A file here is not a workspace folder.")
    if not is_valid_key(path.name):
        return Ignored(path, msg.IGNORED_BAD_KEY)
    return None


def read_file(
    path: Path | str, limits: Limits, dir_fd: int | None = None
) -> tuple[Signature, Content | FileProblem] | None:
    """Read one memory file: its fields and text, or its problem; None when it is gone, a
    link or not a regular file (the next listing says so). With ``dir_fd``, ``path`` is a
    name in that open folder.

    The file is opened without following a link or waiting on a pipe, and the size check
    comes from the open file's stat, so a huge file is never read.
    """
    try:
        fd = os.open(path, FILE_FLAGS, dir_fd=dir_fd)
    except OSError as exc:
        return _unopened(path, dir_fd, exc)
    try:
        try:
            st = os.fstat(fd)
        except OSError as exc:  # no signature: the next look tries again
            return (0, 0, 0, 0), FileProblem(msg.FILE_UNREADABLE.format(reason=exc.strerror or exc))
        if not stat.S_ISREG(st.st_mode):
            return None
        sig = signature(st)
        if st.st_size > limits.file_max_bytes:
            return sig, FileProblem(msg.FILE_TOO_LARGE.format(n=limits.file_max_bytes))
        try:
            raw = read_fd(fd, st.st_size, limits.file_max_bytes)
        except OSError as exc:  # EIO: no signature, so the next look reads it again
            return (0, 0, 0, 0), FileProblem(msg.FILE_UNREADABLE.format(reason=exc.strerror or exc))
    finally:
        close_quietly(fd)
    return sig, parse_content(raw, limits)


def _unopened(path: Path | str, dir_fd: int | None, exc: OSError) -> tuple[Signature, FileProblem] | None:
    """What a memory file that could not be opened is: gone or a link now (None), or a
    problem saying why it cannot be read."""
    if isinstance(exc, FileNotFoundError) or exc.errno == errno.ELOOP:  # a link now: never followed
        return None
    reason = msg.FILE_UNREADABLE.format(reason=exc.strerror or exc)
    if not isinstance(exc, PermissionError):
        return (0, 0, 0, 0), FileProblem(reason)
    try:
        st = os.stat(path, dir_fd=dir_fd, follow_symlinks=False)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    # No signature: the next look tries again (a refusal need not change the file's stat).
    return (0, 0, 0, 0), FileProblem(reason)


def item_for(
    path: str | Path, scope: Scope, memory_id: str, parsed: Document | Content | FileProblem
) -> Memory | Problem:
    """The record a parsed file stands for: a memory, or a problem file."""
    if isinstance(parsed, FileProblem):
        return Problem(Path(path), scope, memory_id, parsed.message, parsed.line)
    f, text = (parsed.fields, parsed.text) if isinstance(parsed, Document) else parsed
    return Memory(
        memory_id,
        scope,
        f.title,
        text,
        f.enabled,
        f.source,
        f.session_id,
        f.created,
        f.updated,
        os.fspath(path),
        f.extra,
    )
