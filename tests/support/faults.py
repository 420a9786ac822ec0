"""Fault injection for the store's system calls, in the manner of SQLite's I/O-error tests.

``Faults`` wraps every system call the store's write path makes (``os.open``, ``read``,
``write``, ``fsync``, ``rename``, ``replace``, ``link``, ``unlink``, ``rmdir``,
``mkdir`` and the ``renameat2`` call in ``store.swap``) at the attribute the store looks up.
While armed it counts the calls made by the test's own thread (the lock library's calls and
the parse-index thread's are left alone), and fails the ``fail_at``-th one with an errno.

``snapshot`` reads a tree into a comparable dict; ``tidied`` names what the next change of the
store removes by itself (the temp files a failed write may leave), which ``settled`` drops.
"""

from __future__ import annotations

import ctypes
import os
import re
import stat
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from store.disk import swap

#: The calls failed, by the name of their ``os`` attribute.
CALLS = ("open", "read", "write", "fsync", "rename", "replace", "link", "unlink", "rmdir", "mkdir")
#: What ``renameat2`` is counted as.
RENAMEAT2 = "renameat2"
_LIBRARY = f"{os.sep}filelock{os.sep}"
_STORE = os.path.dirname(swap.__file__) + os.sep


class Faults:
    """Counts the store's system calls while armed and fails the ``fail_at``-th one."""

    def __init__(self) -> None:
        self.armed = False
        self.count = 0
        self.fail_at: int | None = None
        self.errno = 0
        self.calls: list[str] = []
        #: Where each call was made: the store's frames, innermost first (``file:line``), and
        #: the name of the file or folder it was about (``_named``).
        self.sites: list[tuple[str, ...]] = []
        self.failed: str | None = None
        self._thread = threading.get_ident()

    def _hit(self, name: str, target: object = None) -> bool:
        if not self.armed or threading.get_ident() != self._thread or _from_library():
            return False
        self.count += 1
        self.calls.append(name)
        if self.fail_at is None:
            self.sites.append((*_store_frames(), _named(target)))
        if self.count == self.fail_at:
            self.failed = name
            return True
        return False

    def _error(self, name: str) -> OSError:
        return OSError(self.errno, f"{os.strerror(self.errno)} (injected at {name})")

    @contextmanager
    def armed_at(self, fail_at: int | None, err: int = 0) -> Iterator[None]:
        """Count (and fail the ``fail_at``-th call with ``err``) for the block's duration."""
        self.count, self.fail_at, self.errno, self.failed = 0, fail_at, err, None
        self.calls, self.sites = [], []
        self.armed = True
        try:
            yield
        finally:
            self.armed = False

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Wrap the calls (the originals come back when the test ends)."""
        for name in CALLS:
            original = getattr(os, name)
            monkeypatch.setattr(os, name, self._wrap(name, original))
        real = swap._renameat2
        if real is not None:
            monkeypatch.setattr(swap, "_renameat2", self._wrap_renameat2(real))

    def _wrap(self, name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            if self._hit(name, args[0] if args else None):
                raise self._error(name)
            if name == "fsync":
                return None  # counted, never run: durability is the crash harness's concern
            return original(*args, **kwargs)

        return call

    def _wrap_renameat2(self, real: swap._Renameat2) -> swap._Renameat2:
        def call(src_fd: int, src: bytes, dst_fd: int, dst: bytes, flags: int) -> int:
            if self._hit(RENAMEAT2, src):
                ctypes.set_errno(self.errno)
                return -1
            return real(src_fd, src, dst_fd, dst, flags)

        return call


def _from_library() -> bool:
    """True when the call comes from the lock library (its own retries are not the store's)."""
    frame: FrameType | None = sys._getframe(3)
    while frame is not None:
        if _LIBRARY in frame.f_code.co_filename:
            return True
        frame = frame.f_back
    return False


def _named(target: object) -> str:
    """The name a call is about (a folder walked one level at a time makes the same call from
    the same line for each name), without the random part of a temp file's name."""
    if not isinstance(target, str | bytes | os.PathLike):
        return ""
    name = os.path.basename(os.fsdecode(target))
    return re.sub(r"\.[0-9a-f]{8}\.(tmp|part|purged)\Z", r".*.\1", name)


def _store_frames() -> tuple[str, ...]:
    frame: FrameType | None = sys._getframe(3)
    found: list[str] = []
    while frame is not None:
        if frame.f_code.co_filename.startswith(_STORE):
            found.append(f"{Path(frame.f_code.co_filename).name}:{frame.f_lineno}")
        frame = frame.f_back
    return tuple(found)


#: How many of the store's frames, innermost first, tell one place a call is made from.
SITE_DEPTH = 3


def distinct_sites(faults: Faults) -> list[int]:
    """The calls (1-based) that are the first of their kind made from their place in the
    store on their file (the same call from the same ``SITE_DEPTH`` innermost lines of the
    store, on a file or folder of the same name, after the same call, counts once)."""
    seen: set[tuple[str, tuple[str, ...]]] = set()
    firsts: list[int] = []
    before = [""] + faults.calls
    for at, (name, site) in enumerate(zip(faults.calls, faults.sites, strict=True), start=1):
        # The call before tells a retry from a first try (an open after a mkdir).
        key = (name, (*site[:SITE_DEPTH], site[-1], before[at - 1]))
        if key not in seen:
            seen.add(key)
            firsts.append(at)
    return firsts


Entry = tuple[str, int, bytes | str]

#: Where nothing is compared: the lock file and the parse index (a cache).
_NOT_COMPARED = (".lock", "history/.index")


def snapshot(root: Path) -> dict[str, Entry]:
    """Every entry under ``root``: (kind, permission bits, bytes or link target)."""
    found: dict[str, Entry] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder, name)
            rel = path.relative_to(root).as_posix()
            if rel in _NOT_COMPARED or rel.startswith("history/.index/"):
                continue
            st = path.lstat()
            mode = stat.S_IMODE(st.st_mode)
            if stat.S_ISLNK(st.st_mode):
                found[rel] = ("link", 0, os.readlink(path))
            elif stat.S_ISDIR(st.st_mode):
                found[rel] = ("folder", mode, b"")
            elif stat.S_ISREG(st.st_mode):
                found[rel] = ("file", mode, path.read_bytes())
            else:
                found[rel] = ("other", mode, b"")
    return found


_SET = r"(?:global|workspaces/[^/]+)"
_HISTORY = r"history/(?:global|workspaces/[^/]+)/[0-9a-f]{8}(?:/versions)?"
#: What the next change removes by itself: a new file not yet whole in a set folder, the
#: temp files of history (written only under the lock), a move record's temp file.
#: What the next change removes by itself: a new file not yet whole, or what a swap handed
#: back, in a set folder; the temp files of history (written only under the lock); a purged
#: history renamed aside; a move record's temp file. (And a ``deleted.json`` without its
#: ``deleted.md``: no record, see ``_stale_records``.)
TIDIED = re.compile(
    rf"(?:{_SET}/\.[0-9a-f]{{8}}\.md\.[0-9a-f]{{8}}\.part"
    rf"|{_SET}/\.[0-9a-f]{{8}}\.md\.[0-9a-f]{{16}}\.new"
    rf"|{_HISTORY}/\.[^/]+\.tmp"
    rf"|history/(?:global|workspaces/[^/]+)/\.[0-9a-f]{{8}}\.[0-9a-f]{{8}}\.purged(?:/.*)?"
    r"|\.\.move\.json\.[0-9a-f]{8}\.tmp)\Z"
)


def _stale_records(tree: dict[str, Entry]) -> set[str]:
    # A deletion record without its bytes, and a move record whose removal failed: the next
    # change's recovery drops either (a move it finds finished, or never begun, needs nothing).
    return {
        rel
        for rel in tree
        if (rel.endswith("/deleted.json") and rel.replace("/deleted.json", "/deleted.md") not in tree)
        or rel == ".move.json"
    }


def tidied(tree: dict[str, Entry]) -> list[str]:
    """The entries of ``tree`` that the next change tidies away."""
    return sorted({rel for rel in tree if TIDIED.match(rel)} | _stale_records(tree))


def settled(tree: dict[str, Entry]) -> dict[str, Entry]:
    """``tree`` without what the next change tidies away."""
    drop = set(tidied(tree))
    return {rel: entry for rel, entry in tree.items() if rel not in drop}


def diff(got: dict[str, Entry], want: dict[str, Entry]) -> str:
    """The entries that differ, for a failure message."""
    lines = [f"+ {rel}" for rel in sorted(got.keys() - want.keys())]
    lines += [f"- {rel}" for rel in sorted(want.keys() - got.keys())]
    lines += [f"~ {rel}" for rel in sorted(got.keys() & want.keys()) if got[rel] != want[rel]]
    return "\n".join(lines)


def ids_in_sets(root: Path) -> dict[str, list[str]]:
    """Each memory id and the sets whose folder holds its file."""
    found: dict[str, list[str]] = {}
    for path in sorted(root.glob("global/*.md")) + sorted(root.glob("workspaces/*/*.md")):
        found.setdefault(path.stem, []).append(path.parent.relative_to(root).as_posix())
    return found
