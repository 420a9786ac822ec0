"""The store-wide lock under a fault: a lock file that cannot be looked at is never taken for
one that is not a lock file, so no second writer ever enters while another holds the lock.

The holder is a thread with its own open of ``.lock`` (``flock`` locks belong to an open file,
so it excludes the store's own open as another process would); the fault is one EIO injected
at the ``fstat`` of the store's lock file, by a hook on ``os.fstat``.
"""

from __future__ import annotations

import errno
import fcntl
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from store import GLOBAL, CouldNotChange, MemoryStore

#: Long enough for a writer that got in to finish its change many times over; never reached
#: by a writer that is refused (it returns at once).
GUARD = 30.0


@contextmanager
def _held(root: Path) -> Iterator[None]:
    """The store-wide lock held by another writer (a thread with its own open file) for the block."""
    taken, done = threading.Event(), threading.Event()

    def hold() -> None:
        fd = os.open(root / ".lock", os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            taken.set()
            done.wait(GUARD * 2)
        finally:
            os.close(fd)

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    assert taken.wait(GUARD)
    try:
        yield
    finally:
        done.set()
        holder.join(GUARD)


def _fstat_fails_once_on_the_lock(monkeypatch: pytest.MonkeyPatch, err: int) -> list[int]:
    """``os.fstat`` of a descriptor open on ``.lock`` fails once with ``err``: the calls failed."""
    real = os.fstat
    failed: list[int] = []

    def fstat(fd: int) -> Any:
        if not failed and os.readlink(f"/proc/self/fd/{fd}").endswith(f"{os.sep}.lock"):
            failed.append(fd)
            raise OSError(err, os.strerror(err))
        return real(fd)

    monkeypatch.setattr(os, "fstat", fstat)
    return failed


@pytest.mark.parametrize("err", [errno.EIO, errno.EACCES])
def test_a_lock_file_that_cannot_be_looked_at_refuses_the_change(
    root: Path, monkeypatch: pytest.MonkeyPatch, err: int
) -> None:
    store = MemoryStore(root)
    store.create(GLOBAL, "First", "made before")
    lock_inode = (root / ".lock").stat().st_ino
    outcome: list[object] = []

    with _held(root):
        failed = _fstat_fails_once_on_the_lock(monkeypatch, err)

        def second_writer() -> None:
            try:
                outcome.append(store.create(GLOBAL, "Second", "a second writer"))
            except CouldNotChange as exc:
                outcome.append(exc)

        writer = threading.Thread(target=second_writer, daemon=True)
        writer.start()
        writer.join(GUARD)
        entered_while_held = bool(outcome) and not isinstance(outcome[0], CouldNotChange)
        monkeypatch.undo()
    writer.join(GUARD)

    assert failed, "the hook never saw the lock file"
    assert not entered_while_held, "a second writer entered while the lock was held"
    assert len(outcome) == 1 and isinstance(outcome[0], CouldNotChange)
    assert str(outcome[0]) == f"The memory could not be changed: {os.strerror(err)}."
    assert sorted(p.name for p in root.iterdir()) == [".lock", "global", "history"]
    assert (root / ".lock").stat().st_ino == lock_inode
    assert [m.title for m in MemoryStore(root).memories(GLOBAL)] == ["First"]
    assert store.create(GLOBAL, "Second", "once the fault is gone").title == "Second"


def test_what_is_known_not_to_be_a_lock_file_is_still_set_aside(root: Path) -> None:
    store = MemoryStore(root)
    store.create(GLOBAL, "First", "made before")
    (root / ".lock").unlink()
    os.mkfifo(root / ".lock")

    store.create(GLOBAL, "Second", "after the pipe")

    assert (root / ".lock").is_file()
    assert [p.name.endswith(".set-aside") for p in root.iterdir() if p.name.startswith(".lock.")] == [True]
