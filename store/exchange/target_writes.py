"""Writing the synced files all or nothing, never over a save another program made meanwhile.

In this order, every step relative to a folder descriptor found by ``project_walk``:

1. **stage**: each file's new bytes go to a temp file beside it (``.<name>.<random>.oda-sync``,
   synced; an existing file's mode and owner, a new one's from the umask), the folders it
   needs made first (``mkdir`` with the umask); any failure here and nothing was replaced;
2. **swap**: right after checking that its folder is still the one found (none on the way
   swapped for a link meanwhile), each temp file is exchanged with its target (``renameat2(RENAME_EXCHANGE)``), and
   what comes back is compared with what was read: a save made since is put back and the sync
   redone (``Raced``). A new file is renamed in only where nothing is (``RENAME_NOREPLACE``).
   Where the kernel cannot swap, the target is read again right before a plain rename;
3. **settle**: what the swaps handed back is removed.

A failure at any step before the last puts back what the earlier swaps replaced, removes the
temp files and the folders this sync made, and is raised: a refused sync changed nothing.
"""

from __future__ import annotations

import errno
import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from store.disk.safe_io import DIR_FLAGS, write_all
from store.disk.swap import exchange_at, rename_new_at
from store.exchange.project_walk import Place, TargetRefused, Walker, close_quietly, read_entry

_TEMP_FLAGS = (
    os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
)
#: The temp files' suffix: a leftover is recognisable as sync's own.
SUFFIX = ".oda-sync"

#: Called with each target's name right before its swap (tests: another program acting then).
before_swap: Callable[[str], None] | None = None


class Raced(Exception):
    """A target (or a folder on its way) changed while it was being synced; everything was
    put back. ``str(err)`` names it."""


@dataclass
class Write:
    """One file to write: where, what it held when read (None: nothing), what it will hold."""

    place: Place
    old: bytes | None
    new: bytes
    mode: int | None  # the old file's permissions (None: a new file, from the umask)
    owner: tuple[int, int] | None
    folder: int = -1  # the file's folder, once it exists
    temp: str | None = None
    displaced: bytes | None = None  # what the swap handed back (the target just before it)
    done: Literal["staged", "swapped", "created", "replaced"] | None = None


@dataclass
class _Made:
    """The folders this sync made (innermost last), to take away when it is refused."""

    folders: list[tuple[int, str]] = field(default_factory=list)


def write_files(walker: Walker, writes: list[Write]) -> list[str]:
    """Write every file or none (see the module docstring). Returns what could not be tidied
    after a completed sync (a leftover temp file, in words); raises ``Raced`` or
    ``TargetRefused`` (naming the target) with everything put back."""
    made = _Made()
    current: Write | None = None
    try:
        for current in writes:
            _stage(walker, current, made)
        for current in writes:
            if before_swap is not None:
                before_swap(current.place.name)
            if not walker.still_there(current.place):
                raise Raced(
                    f"{current.place.name}: a folder on its way was moved or replaced while it was being synced"
                )
            _swap(current)
    except (Raced, TargetRefused, OSError) as exc:
        left = _undo(writes, made)
        failure = exc
        if isinstance(exc, OSError) and current is not None:
            failure = TargetRefused(f"{current.place.name}: it could not be written: {exc.strerror or exc}")
        if left:  # said, never retried: the person has a file to look at
            raise TargetRefused(f"{failure}; {'; '.join(left)}") from None
        if failure is exc:
            raise
        raise failure from None
    return _settle(writes)


def _stage(walker: Walker, write: Write, made: _Made) -> None:
    place = write.place
    fd = place.fd
    for part in place.missing:
        try:
            os.mkdir(part, 0o777, dir_fd=fd)  # the umask applies, as to any new folder
        except FileExistsError:
            pass  # made meanwhile (for another target of this sync, or by another program)
        else:
            made.folders.append((fd, part))
        try:
            fd = walker.keep(os.open(part, DIR_FLAGS, dir_fd=fd))
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                raise Raced(
                    f"{place.name}: the folder {part} was replaced while it was being synced"
                ) from None
            raise
    write.folder = fd
    stem = place.entry[:160]
    _tidy(fd, place.entry, stem)
    while True:
        temp = f".{stem}.{secrets.token_hex(4)}{SUFFIX}"
        try:
            tfd = os.open(temp, _TEMP_FLAGS, 0o666 if write.mode is None else 0o600, dir_fd=fd)
        except FileExistsError:
            continue
        break
    write.temp, write.done = temp, "staged"
    try:
        _fill(tfd, write)
    finally:
        close_quietly(tfd)


def _tidy(folder: int, entry: str, stem: str) -> None:
    """Remove what an earlier sync left beside ``entry``: a temp file of its own that is the
    target itself under another name (a rename done by link and unlink whose unlink failed),
    so nothing is lost by removing it. Any other leftover is left for the person (a completed
    sync named it)."""
    try:
        target = os.stat(entry, dir_fd=folder, follow_symlinks=False)
        with os.scandir(folder) as entries:
            names = [e.name for e in entries if e.name.startswith(f".{stem}.") and e.name.endswith(SUFFIX)]
    except OSError:
        return  # nothing there yet, or not listable now: nothing to tidy
    for name in names:
        try:
            left = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except OSError:
            continue
        if (left.st_dev, left.st_ino) == (target.st_dev, target.st_ino):
            _unlink_once_more(folder, name)


def _unlink_once_more(folder: int, entry: str) -> OSError | None:
    """Remove ``entry``, trying once more when the first try fails; the last error, if any."""
    error: OSError | None = None
    for _ in range(2):
        try:
            _unlink(folder, entry)
            return None
        except OSError as exc:
            error = exc
    return error


def _fill(fd: int, write: Write) -> None:
    if write.mode is not None:
        os.fchmod(fd, write.mode)
    if write.owner is not None and os.geteuid() == 0:
        try:
            os.fchown(fd, *write.owner)
        except OSError:
            pass  # keeps the new owner: the file is written all the same
    write_all(fd, write.new)
    os.fsync(fd)


def _read_back(folder: int, entry: str) -> bytes | None:
    """What ``entry`` holds now (None: nothing, or not a regular file)."""
    try:
        found = read_entry(folder, entry, entry)
    except TargetRefused:
        return None
    return None if found is None else found[0]


def _swap(write: Write) -> None:
    place, temp = write.place, write.temp
    assert temp is not None
    if write.old is None:
        try:
            rename_new_at(write.folder, temp, write.folder, place.entry)
        except FileExistsError:
            raise Raced(
                f"{place.name}: it was created by another program while it was being synced"
            ) from None
        write.done = "created"
        return
    if exchange_at(write.folder, temp, write.folder, place.entry):
        write.done = "swapped"
        try:
            back = read_entry(write.folder, temp, place.name)
        except TargetRefused as exc:
            raise OSError(errno.EIO, f"what it held could not be read back ({exc})") from None
        write.displaced = None if back is None else back[0]
        if write.displaced != write.old:
            raise Raced(f"{place.name}: it was saved by another program while it was being synced")
        return
    # No kernel swap here: look again right before a plain rename.
    if _read_back(write.folder, place.entry) != write.old:
        raise Raced(f"{place.name}: it was saved by another program while it was being synced")
    os.rename(temp, place.entry, src_dir_fd=write.folder, dst_dir_fd=write.folder)
    write.done = "replaced"


def _undo(writes: list[Write], made: _Made) -> list[str]:
    """Put back what was replaced, newest first; what could not be, said in words."""
    left: list[str] = []
    for write in reversed(writes):
        try:
            _undo_one(write, left)
        except OSError as exc:
            left.append(f"{write.place.name} could not be put back ({exc.strerror or exc})")
    for folder, part in reversed(made.folders):
        try:
            os.rmdir(part, dir_fd=folder)
        except OSError:
            pass  # not empty (something else was put there) or already gone: left as it is
    return left


def _undo_one(write: Write, left: list[str]) -> None:
    place, temp = write.place, write.temp
    if write.done is None or temp is None:
        return
    if write.done == "swapped":
        problem = _put_back(write)
        if problem is not None:
            left.append(problem)
        return
    if write.done == "replaced":
        _restore(write)
        return
    if write.done == "created":
        rename_new_at(write.folder, place.entry, write.folder, temp)
        if _read_back(write.folder, temp) != write.new:  # another program's file: it goes back
            rename_new_at(write.folder, temp, write.folder, place.entry)
            return
    _unlink(write.folder, temp)


#: Swaps back tried while another program keeps saving the same file.
PUT_BACK_TRIES = 8


def _put_back(write: Write) -> str | None:
    """Swap back what the swap replaced (``displaced``). Another program may save over the
    target meanwhile: each swap back then hands its save to the temp name instead of the
    bytes put there, and the next one puts that save (the newest) in place, until what comes
    back is what the last swap put there. That one was followed by a save of the other
    program, whose rename would have replaced it: it is removed."""
    place, temp = write.place, write.temp
    assert temp is not None
    expected: bytes | None = write.new
    current = write.displaced
    for _ in range(PUT_BACK_TRIES):
        if not exchange_at(write.folder, temp, write.folder, place.entry):
            return f"{place.name} could not be swapped back"
        came = _read_back(write.folder, temp)
        if came == expected:
            _unlink(write.folder, temp)
            return None
        expected, current = current, came
    return f"another program kept saving {place.name} while it was being put back; a save of it is kept at {temp}"


def _restore(write: Write) -> None:
    """After a plain rename: write the old bytes back the same way."""
    assert write.old is not None and write.temp is not None
    if _read_back(write.folder, write.place.entry) != write.new:
        return  # another program saved over the new bytes since: its save is the newest
    back = Write(write.place, None, write.old, write.mode, write.owner, write.folder)
    back.temp = f".{write.place.entry[:160]}.{secrets.token_hex(4)}{SUFFIX}"
    fd = os.open(back.temp, _TEMP_FLAGS, 0o600, dir_fd=write.folder)
    try:
        _fill(fd, back)
    finally:
        close_quietly(fd)
    os.rename(back.temp, write.place.entry, src_dir_fd=write.folder, dst_dir_fd=write.folder)


def _unlink(folder: int, entry: str) -> None:
    try:
        os.unlink(entry, dir_fd=folder)
    except FileNotFoundError:
        pass


def _settle(writes: list[Write]) -> list[str]:
    """Remove what the swaps handed back (it was compared: the bytes read at the start)."""
    left = []
    folders = set()
    for write in writes:
        folders.add(write.folder)
        if write.temp is None or write.done not in ("swapped", "created"):
            continue
        # Swapped: the temp name holds what the target held (compared: the bytes read at the
        # start). Created: without the kernel's rename the file was linked in, and the temp
        # name may still be a second name of it.
        error = _unlink_once_more(write.folder, write.temp)
        if error is not None and write.done == "swapped":
            left.append(
                f"{write.place.name} was written; what it held before is left at {write.temp} "
                f"({error.strerror or error})"
            )
    for folder in folders:
        try:
            os.fsync(folder)
        except OSError:
            pass  # written all the same; the rename is durable at the file system's next sync
    return left
