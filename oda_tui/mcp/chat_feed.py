"""What changed in a chat's sets since the last tool call, read from the kernel at the call.

A tool call must see every change saved before it, and looking at each of 10,000 files on
every call costs tens of milliseconds. On Linux the kernel queues a change event the moment a
change is made, so reading that queue at the start of a call (it never blocks) names every
file changed since the last call, and only those are read again. Anything else (a set's
folder made, removed or replaced, settings.yaml, events lost to a full queue, a system
without inotify, a watch that cannot be made) answers None: look at the chat's sets whole.

Only the store's folder, its workspaces folder and the chat's own set folders are watched,
each on its own (no recursion), and a set folder never through a link.
"""

from __future__ import annotations

import ctypes
import errno
import os
import struct
import sys
import weakref
from pathlib import Path

from store import GLOBAL_DIR, SETTINGS_FILE, WORKSPACES_DIR, Scope

_MODIFY, _ATTRIB, _CLOSE_WRITE = 0x2, 0x4, 0x8
_MOVED_FROM, _MOVED_TO, _CREATE, _DELETE = 0x40, 0x80, 0x100, 0x200
_DELETE_SELF, _MOVE_SELF, _Q_OVERFLOW, _IGNORED = 0x400, 0x800, 0x4000, 0x8000
_ONLYDIR, _DONT_FOLLOW = 0x01000000, 0x02000000
_NONBLOCK, _CLOEXEC = os.O_NONBLOCK, 0o2000000
_CHANGES = _MODIFY | _ATTRIB | _CLOSE_WRITE | _MOVED_FROM | _MOVED_TO | _CREATE | _DELETE
_GONE = _DELETE_SELF | _MOVE_SELF | _IGNORED
_EVENT = struct.Struct("iIII")
#: A folder that is not there (or not a folder) now: its parent's watch tells when it comes.
_ABSENT = {errno.ENOENT, errno.ENOTDIR, errno.ELOOP}


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.inotify_init1.argtypes = [ctypes.c_int]
        libc.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
        return libc
    except (OSError, AttributeError):
        return None


_LIBC = _libc()


class _Unwatchable(Exception):
    """A watch could not be made for a reason that will not pass (no inotify, no watches left)."""


class ChatFeed:
    """The paths changed in ``scopes``' sets of the store at ``root`` since the last ``changes``."""

    def __init__(self, root: Path, scopes: list[Scope]) -> None:
        self._root = Path(os.path.abspath(root))
        self._scopes = scopes
        self._fd: int | None = None
        self._folders: dict[int, Path] = {}  # watch -> the set folder it watches
        self._parents: dict[int, set[str]] = {}  # watch -> the names in it that make the sets
        self._usable = _LIBC is not None
        self._closer: weakref.finalize[[int], ChatFeed] | None = None

    def changes(self) -> set[Path] | None:
        """The files changed since the last call, or None: look at the sets whole (then the feed
        is in place again, so the next call has only what changed after this one)."""
        if not self._usable:
            return None
        if self._fd is None:
            self._arm()
            return None
        found: set[Path] = set()
        while True:
            try:
                data = os.read(self._fd, 65536)
            except BlockingIOError:
                return found
            except OSError:
                self._arm()
                return None
            if not self._take(data, found):
                self._arm()  # the sets' folders changed: watch them as they are now
                return None

    def _take(self, data: bytes, found: set[Path]) -> bool:
        """Add the changed files in ``data`` to ``found``; False when the sets must be looked at whole."""
        offset = 0
        told = True
        while offset < len(data):
            wd, mask, _cookie, length = _EVENT.unpack_from(data, offset)
            name = data[offset + _EVENT.size : offset + _EVENT.size + length].rstrip(b"\0")
            offset += _EVENT.size + length
            if mask & _Q_OVERFLOW:
                told = False
            elif wd in self._parents:
                if os.fsdecode(name) in self._parents[wd] or mask & _GONE:
                    told = False
            elif wd in self._folders:
                if mask & _GONE:
                    told = False
                elif name:
                    found.add(self._folders[wd] / os.fsdecode(name))
        return told

    def _arm(self) -> None:
        """Watch the sets' folders as they are now (the caller then looks at them whole)."""
        self.close()
        try:
            self._fd = self._init()
            self._closer = weakref.finalize(self, os.close, self._fd)
            workspaces = [scope for scope in self._scopes if scope is not None]
            if not self._watch(self._root, {GLOBAL_DIR, WORKSPACES_DIR, SETTINGS_FILE}, follow=True):
                self.close()  # no folder yet: look whole at each call until there is one
                return
            folder = self._root / WORKSPACES_DIR
            if workspaces and self._watch(folder, set(workspaces)):
                for key in workspaces:
                    self._watch(folder / key, None)
            if None in self._scopes:
                self._watch(self._root / GLOBAL_DIR, None)
        except _Unwatchable:
            self.close()
            self._usable = False

    def _init(self) -> int:
        assert _LIBC is not None
        fd = int(_LIBC.inotify_init1(_NONBLOCK | _CLOEXEC))
        if fd < 0:
            raise _Unwatchable(os.strerror(ctypes.get_errno()))
        return fd

    def _watch(self, folder: Path, names: set[str] | None, *, follow: bool = False) -> bool:
        """Watch ``folder``: for ``names`` in it (a parent of the sets), or for its files (a set).
        False when it is not there now."""
        assert _LIBC is not None and self._fd is not None
        mask = _CHANGES | _DELETE_SELF | _MOVE_SELF | _ONLYDIR | (0 if follow else _DONT_FOLLOW)
        wd = int(_LIBC.inotify_add_watch(self._fd, os.fsencode(folder), mask))
        if wd < 0:
            code = ctypes.get_errno()
            if code in _ABSENT or code == errno.EACCES:
                return False
            raise _Unwatchable(os.strerror(code))
        if names is None:
            self._folders[wd] = folder
        else:
            self._parents[wd] = names
        return True

    def close(self) -> None:
        """Stop watching (the next ``changes`` watches again)."""
        if self._closer is not None:
            self._closer()  # closes the descriptor once, however often called
        self._closer = None
        self._fd = None
        self._folders.clear()
        self._parents.clear()
