"""The store-wide lock: ``flock`` on ``<root>/.lock``, opened without following a link.

Every change holds it (see ``store.transaction``). It is the same ``flock`` the ``filelock``
package takes, so any writer using either waits for the other. The file is opened
``O_NOFOLLOW | O_NONBLOCK`` and never truncated: a link at ``.lock`` is never gone through
(nothing outside the root is created or emptied), and a pipe never blocks. Anything at
``.lock`` that is not a regular file (a link, a socket, a pipe, a folder) cannot be holding
anyone's lock, so it is set aside (``store.move_recovery.set_aside``) and a new lock file made;
when it cannot be set aside, the change is refused with a message naming it. Only what is
known not to be a regular file (its ``fstat`` or ``lstat`` says so) is set aside: when the
file cannot even be looked at (EIO, EACCES), the change is refused with that reason, and
another writer's lock is never renamed away on a guess.

Like ``filelock.FileLock(thread_local=False)``, the lock counts how often it was taken: the
callers serialise their threads themselves (``DiskSync.picture_lock``, taken first; the store
holds this one as ``DiskSync.disk_lock``, and ``oda_tui.session`` says which lock protects what).
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
from pathlib import Path
from types import TracebackType

from store import messages as msg
from store.disk.layout import LOCK_FILE
from store.disk.safe_io import close_quietly
from store.durable.move_recovery import set_aside

_FLAGS = (
    os.O_RDWR
    | os.O_CREAT
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


class StoreLock:
    """The lock every change of one store root holds (reentrant: see module)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.lock_file = str(root / LOCK_FILE)
        self._fd: int | None = None
        self._depth = 0
        #: Set when something at ``.lock`` was set aside (``DiskSync`` lists it as ignored).
        self.set_aside_any = False

    def acquire(self) -> None:
        """Take the lock, waiting for any other holder."""
        if self._depth > 0:
            self._depth += 1
            return
        fd = self._open()
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except BaseException:
            close_quietly(fd)
            raise
        self._fd, self._depth = fd, 1

    def release(self) -> None:
        """Give the lock back (the last of nested takes unlocks)."""
        if self._depth == 0:
            return
        self._depth -= 1
        if self._depth == 0 and self._fd is not None:
            fd, self._fd = self._fd, None
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            except OSError:
                pass  # closing the descriptor lets go of the lock all the same
            finally:
                close_quietly(fd)

    def __enter__(self) -> StoreLock:
        self.acquire()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()

    def _open(self) -> int:
        """The lock file's descriptor; what is not a regular file is set aside once."""
        root_fd = os.open(
            self.root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
        )
        try:
            for _attempt in range(2):
                fd = _open_regular(root_fd)
                if fd is not None:
                    return fd
                if set_aside(self.root, LOCK_FILE) is None:
                    break
                self.set_aside_any = True
            reason = msg.LOCK_NOT_A_FILE.format(name=LOCK_FILE)
            raise OSError(errno.EEXIST, reason, self.lock_file)
        finally:
            close_quietly(root_fd)


def _open_regular(root_fd: int) -> int | None:
    """The lock file opened (made when missing); None only when what is there is known not to
    be a regular file. Any other failure (of the open, of ``fstat``) is raised."""
    try:
        fd = os.open(LOCK_FILE, _FLAGS, 0o600, dir_fd=root_fd)
    except OSError as exc:
        if exc.errno in _NOT_A_FILE and _known_not_regular(root_fd):
            return None
        raise
    try:
        st = os.fstat(fd)
    except BaseException:
        close_quietly(fd)
        raise  # cannot tell what it is: never set aside on a guess
    if stat.S_ISREG(st.st_mode):
        return fd
    close_quietly(fd)
    return None


#: What opening ``.lock`` gives for a link, a socket, a folder (and EMLINK: a link, on BSD).
_NOT_A_FILE = (errno.ELOOP, errno.ENXIO, errno.EISDIR, errno.EMLINK, errno.EOPNOTSUPP)


def _known_not_regular(root_fd: int) -> bool:
    """True when ``lstat`` says ``.lock`` is not a regular file; False when it is one or
    cannot be looked at (the open's error is then the reason the change is refused)."""
    try:
        mode = os.lstat(LOCK_FILE, dir_fd=root_fd).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode)
