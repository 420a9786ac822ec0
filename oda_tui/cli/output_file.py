"""Where ``-o FILE`` writes: a new or existing regular file, as ``cp`` writes one, never
anything else and never losing what another program wrote.

- A device, FIFO, socket or folder is refused and left as it is. A link named on the command
  line is written through to its target when that is a regular file (as ``cp`` and shells do),
  so the link stays a link; a link to anything else, or to nothing, is refused. From there on
  nothing is opened through a link: the file is opened in its folder with ``O_NOFOLLOW``.
- An existing file is written in place, as ``cp`` does: the same inode (a hard link sees the
  new text too), the same mode and owner. A read-only one (no write permission for anyone) is
  refused with that reason, even for root. What the file holds is read first; just before it is
  replaced it is read again, and if another program changed or replaced it in between, the
  export is refused and its text left as it is. A write that fails on the way puts the earlier
  text back; one that cannot fit on the disk is refused before a byte is changed.
- A new file is made with the mode the umask gives (as a shell's ``>`` does): written whole as a
  hidden temporary file next to it, then linked under its name only if that name is still free,
  so no one ever sees half of it and a file another program made meanwhile is never replaced.
"""

from __future__ import annotations

import errno
import fcntl
import os
import secrets
import stat
from collections.abc import Callable
from pathlib import Path

from .errors import CommandError

#: The largest existing file ``-o`` replaces (it is read first, to be compared and put back).
MAX_TARGET_BYTES = 64 * 1024 * 1024

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC
_OPEN_FLAGS = os.O_RDWR | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | _CLOEXEC
_NEW_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC


def _nothing() -> None:
    return None


#: Called after the file was read and before it is replaced (tests change the file here).
before_replacing: Callable[[], None] = _nothing


def regular_target(path: Path) -> Path:
    """The regular file ``path`` names (a link's final target), or ``path`` when nothing is
    there yet; anything that is not a regular file is refused in one line."""
    try:
        mode = os.stat(path).st_mode  # follows links to the end
    except FileNotFoundError:
        if os.path.islink(path):
            raise CommandError(
                f"Could not write {path}: it is a link to {os.readlink(path)}, which does not exist."
            ) from None
        return path
    except OSError as exc:
        raise CommandError(f"Could not write {path}: {exc.strerror or exc}.") from exc
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in _KINDS if test(mode)), "not a file")
        via = "it leads to" if os.path.islink(path) else "it is"
        raise CommandError(f"Could not write {path}: {via} {kind}, not a regular file.")
    return Path(os.path.realpath(path))


def write_file(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to the regular file ``path`` names: in place when it exists, as a
    new file (mode from the umask) when it does not."""
    target = Path(os.path.abspath(regular_target(path)))
    try:
        folder = os.open(target.parent, _DIR_FLAGS)
    except FileNotFoundError:
        raise CommandError(f"Could not write {path}: the folder {target.parent} does not exist.") from None
    except OSError as exc:
        raise CommandError(f"Could not write {path}: {exc.strerror or exc}.") from exc
    try:
        _write_at(folder, target.name, text.encode("utf-8"), path)
    finally:
        os.close(folder)


def _write_at(folder: int, name: str, data: bytes, shown: Path) -> None:
    try:
        st = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        _write_new(folder, name, data, shown)
        return
    except OSError as exc:
        raise CommandError(f"Could not write {shown}: {exc.strerror or exc}.") from exc
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISREG(st.st_mode):
        raise _changed(shown)  # it was a regular file a moment ago
    if not st.st_mode & 0o222:
        raise CommandError(
            f"Could not write {shown}: it is read-only (mode {stat.S_IMODE(st.st_mode):04o}); nothing was "
            "written. Make it writable (chmod u+w) to replace it, or choose another file."
        )
    try:
        fd = os.open(name, _OPEN_FLAGS, dir_fd=folder)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK, errno.ENXIO):
            raise _changed(shown) from None
        raise CommandError(f"Could not write {shown}: {exc.strerror or exc}; nothing was written.") from exc
    try:
        _write_in_place(fd, folder, name, data, shown)
    finally:
        os.close(fd)


def _changed(shown: Path) -> CommandError:
    return CommandError(
        f"Could not write {shown}: another program changed or replaced it while the export was being "
        "written; nothing was written. Run the export again."
    )


def _signature(st: os.stat_result) -> tuple[int, int, int, int, int]:
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


def _read_all(fd: int, size: int) -> bytes:
    """The whole open file from its start, up to one byte past ``MAX_TARGET_BYTES``."""
    parts: list[bytes] = []
    offset = 0
    while offset <= MAX_TARGET_BYTES:
        chunk = os.pread(fd, min(max(size, 1) + 1, MAX_TARGET_BYTES + 1 - offset), offset)
        if not chunk:
            break
        parts.append(chunk)
        offset += len(chunk)
    return b"".join(parts)


def _write_in_place(fd: int, folder: int, name: str, data: bytes, shown: Path) -> None:
    """Replace the open file's bytes with ``data``, same inode and mode, unless it changed
    since it was read; a failure on the way puts its earlier bytes back."""
    old = _read_unchanged(fd, folder, name, shown)
    if old == data:
        return
    if len(data) > len(old):
        try:
            os.posix_fallocate(fd, 0, len(data))  # no room: refused before a byte changes
        except OSError as exc:
            if exc.errno not in (errno.EOPNOTSUPP, errno.EINVAL, errno.ENOSYS):
                raise CommandError(
                    f"Could not write {shown}: {exc.strerror or exc}; nothing was written."
                ) from exc
    try:
        _put(fd, data)
    except OSError as exc:
        try:
            _put(fd, old)
        except OSError:
            raise CommandError(
                f"Could not write {shown}: {exc.strerror or exc}, and its earlier text could not be put back."
            ) from exc
        raise CommandError(
            f"Could not write {shown}: {exc.strerror or exc}; its earlier text was put back."
        ) from exc


def _read_unchanged(fd: int, folder: int, name: str, shown: Path) -> bytes:
    """What the open file holds, read once and then again just before it is replaced: refused
    when another program changed it, or put another file under its name, in between."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a writer that takes the lock waits
    except OSError as exc:
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
            raise CommandError(
                f"Could not write {shown}: another program is writing it; nothing was written."
            ) from None
    first = os.fstat(fd)
    if first.st_size > MAX_TARGET_BYTES:
        raise CommandError(
            f"Could not write {shown}: it is larger than {MAX_TARGET_BYTES // (1024 * 1024)} MiB, so it is no "
            "earlier export; nothing was written. Choose another file."
        )
    old = _read_all(fd, first.st_size)
    before_replacing()
    try:
        now = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except OSError:
        raise _changed(shown) from None
    same = _signature(now) == _signature(first) == _signature(os.fstat(fd))
    if not same or _read_all(fd, first.st_size) != old:
        raise _changed(shown)
    return old


def _put(fd: int, data: bytes) -> None:
    """The open file's bytes made ``data``, on the disk."""
    view = memoryview(data)
    offset = 0
    while offset < len(data):
        offset += os.pwrite(fd, view[offset:], offset)
    os.ftruncate(fd, len(data))
    os.fsync(fd)


def _write_new(folder: int, name: str, data: bytes, shown: Path) -> None:
    """Make the file ``name`` in the open ``folder``: written whole under a hidden name, then
    linked under its own only if no one made it meanwhile."""
    temp = f".{name}.{secrets.token_hex(4)}.part"
    try:
        fd = os.open(temp, _NEW_FLAGS, 0o666, dir_fd=folder)  # the umask decides the mode
    except OSError as exc:
        raise CommandError(f"Could not write {shown}: {exc.strerror or exc}; nothing was written.") from exc
    try:
        try:
            _put(fd, data)
        finally:
            os.close(fd)
        _link_new(folder, temp, name, shown)
    except BaseException:
        _remove(folder, temp)
        raise
    _remove(folder, temp)
    try:
        os.fsync(folder)
    except OSError:
        pass


def _link_new(folder: int, temp: str, name: str, shown: Path) -> None:
    try:
        os.link(temp, name, src_dir_fd=folder, dst_dir_fd=folder, follow_symlinks=False)
    except FileExistsError:
        raise _changed(shown) from None
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EMLINK):
            raise CommandError(
                f"Could not write {shown}: {exc.strerror or exc}; nothing was written."
            ) from exc
        # A file system without hard links: rename, still refusing a name someone took meanwhile.
        try:
            os.stat(name, dir_fd=folder, follow_symlinks=False)
        except FileNotFoundError:
            os.rename(temp, name, src_dir_fd=folder, dst_dir_fd=folder)
            return
        raise _changed(shown) from None


def _remove(folder: int, temp: str) -> None:
    try:
        os.unlink(temp, dir_fd=folder)
    except FileNotFoundError:
        pass
