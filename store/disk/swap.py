"""Renames that never lose what they replace: swap two files, or rename only onto nothing.

On Linux ``renameat2`` does both in the kernel: ``RENAME_EXCHANGE`` puts the new file in place
and hands back, under the other name, exactly the file it replaced, however late another
program renamed it in; ``RENAME_NOREPLACE`` refuses to overwrite. Where the call is missing
(another system, an old C library) or the file system refuses the flag, ``exchange`` returns
False and the caller falls back to checking right before a plain rename; ``rename_new`` falls
back to a hard link, which also refuses to overwrite.
"""

from __future__ import annotations

import ctypes
import errno
import os
import sys
from collections.abc import Callable
from pathlib import Path

_AT_FDCWD = -100
_RENAME_NOREPLACE = 1
_RENAME_EXCHANGE = 2

_Renameat2 = Callable[[int, bytes, int, bytes, int], int]


def _load_renameat2() -> _Renameat2 | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        func = libc.renameat2
    except (OSError, AttributeError):
        return None
    func.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    func.restype = ctypes.c_int
    return func


_renameat2: _Renameat2 | None = _load_renameat2()
#: Set when the kernel or file system refused a flag once: use the fallback from then on.
_unsupported: set[int] = set()


def _call(src: Path, dst: Path, flag: int, src_fd: int = _AT_FDCWD, dst_fd: int = _AT_FDCWD) -> bool:
    """True when renameat2 did it; False when it is not available here (use the fallback)."""
    if _renameat2 is None or flag in _unsupported:
        return False
    if _renameat2(src_fd, os.fsencode(src), dst_fd, os.fsencode(dst), flag) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        _unsupported.add(flag)
        return False
    raise OSError(err, os.strerror(err), os.fspath(dst))


def exchange(new: Path, current: Path) -> bool:
    """Swap ``new`` and ``current`` in one step (both must exist): afterwards ``current`` is the
    new file and ``new`` names the file it replaced. False when swapping is not available here."""
    return _call(new, current, _RENAME_EXCHANGE)


def rename_new(src: Path, dst: Path) -> None:
    """Rename ``src`` to ``dst`` only if nothing is there; ``FileExistsError`` otherwise."""
    if _call(src, dst, _RENAME_NOREPLACE):
        return
    try:
        os.link(src, dst)
    except FileExistsError:
        raise
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
            raise
        # No hard links on this file system: check, then rename (a small window remains).
        if os.path.lexists(dst):
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), os.fspath(dst)) from exc
        os.rename(src, dst)
        return
    try:
        os.unlink(src)
    except OSError:
        pass  # renamed all the same: the old name is a temp file the next change tidies away


def rename_new_at(src_fd: int, src: str, dst_fd: int, dst: str) -> None:
    """``rename_new`` of the entry ``src`` in the folder ``src_fd`` to ``dst`` in ``dst_fd``
    (names, never paths: no link on the way is gone through). Works for folders too."""
    if _call(Path(src), Path(dst), _RENAME_NOREPLACE, src_fd, dst_fd):
        return
    # No kernel no-replace here: check, then rename (under the store's lock).
    try:
        os.lstat(dst, dir_fd=dst_fd)
    except FileNotFoundError:
        os.rename(src, dst, src_dir_fd=src_fd, dst_dir_fd=dst_fd)
        return
    raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), dst)


def exchange_available() -> bool:
    """True when ``exchange`` can work here (the kernel call exists and was never refused)."""
    return _renameat2 is not None and _RENAME_EXCHANGE not in _unsupported


def force_fallback(on: bool) -> None:
    """Use the fallbacks even where renameat2 works (tests: the path other systems take)."""
    global _renameat2
    _renameat2 = None if on else _load_renameat2()
    _unsupported.clear()


def exchange_at(dir_fd: int, new: str, current: str) -> bool:
    """``exchange`` of the entries ``new`` and ``current`` of the folder ``dir_fd`` (names,
    never paths: no link on the way is gone through)."""
    return _call(Path(new), Path(current), _RENAME_EXCHANGE, dir_fd, dir_fd)
