"""A folder the test's user may not enter, as a folder of another user at mode 700 is to
everyone but root; the tests run as root, whom the mode does not stop, so the refusal the
kernel would give is injected: every open, listing, look-up, making and renaming of the folder
or of anything in it fails with EACCES (looking at the folder itself from its parent still
works, as it does)."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

#: The ``os`` calls refused, with the keyword that names a folder descriptor each path is in.
_CALLS = ("open", "scandir", "listdir", "stat", "lstat", "mkdir", "rename", "replace", "unlink", "rmdir")


def _where(path: Any, dir_fd: int | None) -> str | None:
    """The absolute path a call names (None for a descriptor, whose opening was refused already)."""
    if isinstance(path, int):
        return os.readlink(f"/proc/self/fd/{path}")
    if path is None:
        return None
    text = os.fsdecode(os.fspath(path))
    if dir_fd is not None and not os.path.isabs(text):
        text = os.path.join(os.readlink(f"/proc/self/fd/{dir_fd}"), text)
    return os.path.normpath(os.path.abspath(text))


def refuse_folder(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """From now on ``folder`` cannot be read, entered or changed (EACCES), until the monkeypatch
    is undone."""
    shut = os.path.normpath(os.path.abspath(folder))

    def inside(where: str | None, *, itself: bool) -> bool:
        if where is None:
            return False
        return (itself and where == shut) or where.startswith(shut + os.sep)

    def refusing(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        looks = name in ("stat", "lstat")

        def call(*args: Any, **kwargs: Any) -> Any:
            dir_fd = kwargs.get("dir_fd")
            paths = [args[0] if args else kwargs.get("path", ".")]
            if name in ("rename", "replace"):
                paths = [_where(args[0], kwargs.get("src_dir_fd")), _where(args[1], kwargs.get("dst_dir_fd"))]
                named = [p for p in paths if p is not None]
            else:
                named = [_where(paths[0], dir_fd)]
            # Its own stat is read from the parent, which may be read; anything else is refused.
            if any(inside(where, itself=not looks) for where in named):
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(named[0]))
            return real(*args, **kwargs)

        return call

    for name in _CALLS:
        monkeypatch.setattr(os, name, refusing(name, getattr(os, name)))
