"""A whole folder tree as something to compare: every entry's name, kind, mode and bytes."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path


def tree_state(folder: Path) -> dict[str, tuple[str, int, str]]:
    """Each entry under ``folder`` (links not followed): its kind, its mode and a hash of its
    bytes (a link: of where it points), by path relative to ``folder``; the folder itself too."""
    found: dict[str, tuple[str, int, str]] = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in [".", *dirnames, *filenames] if dirpath == os.fspath(folder) else [*dirnames, *filenames]:
            path = os.path.normpath(os.path.join(dirpath, name))
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                kind, data = "link", os.readlink(path).encode()
            elif stat.S_ISDIR(st.st_mode):
                kind, data = "folder", b""
            else:
                kind, data = "file", Path(path).read_bytes()
            found[os.path.relpath(path, folder)] = (
                kind,
                stat.S_IMODE(st.st_mode),
                hashlib.sha256(data).hexdigest(),
            )
    return found


def remove_tree(folder: Path) -> None:
    """Remove ``folder`` and everything in it, however deep, one descriptor at a time and
    without recursion (``shutil.rmtree`` and ``os.walk`` recurse once a level); links are
    removed, never followed."""
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
    fd = os.open(folder, flags)
    names: list[str] = []
    try:
        while True:
            below = None
            for entry in os.scandir(fd):
                if entry.is_dir(follow_symlinks=False):
                    below = entry.name
                    break
                os.unlink(entry.name, dir_fd=fd)
            if below is not None:
                child = os.open(below, flags, dir_fd=fd)
                os.close(fd)
                fd = child
                names.append(below)
                continue
            if not names:
                break
            up = os.open("..", flags, dir_fd=fd)
            os.close(fd)
            fd = up
            os.rmdir(names.pop(), dir_fd=fd)
    finally:
        os.close(fd)
    os.rmdir(folder)
