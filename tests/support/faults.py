"""Fault injection for the system calls of the store and the app's own writers, in the manner
of SQLite's I/O-error tests.

``Faults`` wraps every ``os`` call a writer makes on the disk (``CALLS``: opening, reading,
writing, closing, syncing, looking at, listing, renaming, linking, removing and making files and
folders, and changing their mode or owner) at the attribute the code looks up, and the
``renameat2`` call in ``store.disk.swap``. A call given a folder's descriptor (``dir_fd``,
``src_dir_fd``…) is counted as its ``at`` form: ``openat``, ``renameat``, ``unlinkat``….

While armed it counts the calls made by the test's own thread and by the store's own threads
(named ``store-…``, such as the parse-index writer), and makes the ``fail_at``-th one fail with
a ``Kind`` of fault: an errno (ENOSPC, EIO, EACCES, EROFS, EDQUOT, ENAMETOOLONG, EPERM, EXDEV,
EINTR), or a short read or write (the call does part of its work and says how much, as a
network or FUSE file system may). ``fsync`` really runs; a failing ``close`` closes (as Linux
does) and then reports its error.

``snapshot`` reads a tree into a comparable dict (the lock file and the parse index included);
``tidied`` names what the next change of the store removes by itself (the temp files a failed
write may leave), which ``settled`` drops.
"""

from __future__ import annotations

import ctypes
import errno
import os
import re
import stat
import sys
import threading
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from store.disk import swap

#: The calls wrapped, by the name of their ``os`` attribute.
CALLS = (
    "open",
    "read",
    "write",
    "close",
    "fsync",
    "stat",
    "lstat",
    "fstat",
    "listdir",
    "scandir",
    "rename",
    "replace",
    "link",
    "unlink",
    "rmdir",
    "mkdir",
    "fchmod",
    "fchown",
)
#: What ``renameat2`` is counted as.
RENAMEAT2 = "renameat2"
_DIR_FD_ARGS = ("dir_fd", "src_dir_fd", "dst_dir_fd")
_STORE = os.path.dirname(os.path.dirname(swap.__file__)) + os.sep
_APP_STATE = os.path.join(os.path.dirname(os.path.dirname(_STORE.rstrip(os.sep))), "oda_tui") + os.sep


def base_call(name: str) -> str:
    """The ``os`` call a counted name stands for (``openat`` is ``open`` given a folder)."""
    if name.endswith("at") and name[:-2] in CALLS:
        return name[:-2]
    return name


_NAMED = frozenset(
    {"open", "stat", "lstat", "listdir", "scandir", "rename", "replace", "link", "unlink", "rmdir", "mkdir"}
    | {RENAMEAT2}
)
_CHANGING = frozenset(
    {"open", "write", "fsync", "close", "rename", "replace", "link", "unlink", "rmdir", "mkdir", "fchmod"}
    | {"fchown", RENAMEAT2}
)
_ALLOCATING = frozenset({"open", "write", "fsync", "close", "rename", "replace", "link", "mkdir", RENAMEAT2})
_RENAMES = frozenset({"rename", "replace", "link", RENAMEAT2})


@dataclass(frozen=True)
class Kind:
    """One kind of fault: an errno, or (``errno`` 0) a short read or write. ``calls``: the
    calls a file system can fail that way (None: every call)."""

    name: str
    errno: int = 0
    calls: frozenset[str] | None = None

    def applies(self, call: str) -> bool:
        """True when a file system can fail ``call`` (a counted name) this way."""
        return self.calls is None or base_call(call) in self.calls

    @property
    def short(self) -> bool:
        """A short read or write (the call does part of its work)."""
        return self.errno == 0


KINDS = (
    Kind("ENOSPC", errno.ENOSPC),
    Kind("EIO", errno.EIO),
    Kind("EACCES", errno.EACCES),
    Kind("EINTR", errno.EINTR),
    Kind("EPERM", errno.EPERM, _NAMED | {"fchmod", "fchown"}),
    Kind("EROFS", errno.EROFS, _CHANGING - {"close"}),
    Kind("EDQUOT", errno.EDQUOT, _ALLOCATING),
    Kind("ENAMETOOLONG", errno.ENAMETOOLONG, _NAMED),
    Kind("EXDEV", errno.EXDEV, _RENAMES),
    Kind("short read", 0, frozenset({"read"})),
    Kind("short write", 0, frozenset({"write"})),
)


class Faults:
    """Counts the calls of the code under test while armed and fails the ``fail_at``-th one."""

    def __init__(self) -> None:
        self.armed = False
        self.count = 0
        self.fail_at: int | None = None
        self.kind = KINDS[0]
        self.calls: list[str] = []
        #: Where each call was made: the frames of the code under test, innermost first
        #: (``file:line``), and the name of the file or folder it was about (``_named``).
        self.sites: list[tuple[str, ...]] = []
        self.failed: str | None = None
        self._thread = threading.get_ident()
        self._mutex = threading.Lock()

    def _hit(self, name: str, target: object = None) -> bool:
        """Count the call; True when it is the one to fail."""
        if not self.armed:
            return False
        if threading.get_ident() != self._thread and not threading.current_thread().name.startswith("store-"):
            return False
        with self._mutex:
            self.count += 1
            self.calls.append(name)
            if self.fail_at is None:
                self.sites.append((*_own_frames(), _named(target)))
            if self.count == self.fail_at and self.kind.applies(name):
                self.failed = name
                return True
        return False

    def _error(self, name: str) -> OSError:
        code = self.kind.errno
        return OSError(code, f"{os.strerror(code)} (injected at {name})")

    @contextmanager
    def armed_at(self, fail_at: int | None, kind: Kind | int = KINDS[0]) -> Iterator[None]:
        """Count (and fail the ``fail_at``-th call with ``kind``, a ``Kind`` or an errno) for
        the block's duration."""
        if isinstance(kind, int):
            kind = next((k for k in KINDS if k.errno == kind), Kind(errno.errorcode[kind], kind))
        self.count, self.fail_at, self.kind, self.failed = 0, fail_at, kind, None
        self.calls, self.sites = [], []
        self.armed = True
        try:
            yield
        finally:
            self.armed = False

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Wrap the calls (the originals come back when the test ends)."""
        special: dict[str, Callable[[str, Any], Callable[..., Any]]] = {
            "read": self._wrap_read,
            "write": self._wrap_write,
            "close": self._wrap_close,
        }
        for name in CALLS:
            make: Callable[[str, Any], Callable[..., Any]] = special.get(name, self._wrap)
            original: Callable[..., Any] = getattr(os, name)
            wrapped: Callable[..., Any] = make(name, original)
            monkeypatch.setattr(os, name, wrapped)
        real = swap._renameat2
        if real is not None:
            monkeypatch.setattr(swap, "_renameat2", self._wrap_renameat2(real))

    def _wrap(self, name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            if self._hit(_at(name, kwargs), args[0] if args else None):
                raise self._error(_at(name, kwargs))
            return original(*args, **kwargs)

        return call

    def _wrap_read(self, name: str, original: Callable[[int, int], bytes]) -> Callable[[int, int], bytes]:
        def call(fd: int, n: int) -> bytes:
            if self._hit(name):
                if not self.kind.short:
                    raise self._error(name)
                return original(fd, max(1, n // 2))  # part of what was asked, as a FUSE file system may
            return original(fd, n)

        return call

    def _wrap_write(self, name: str, original: Callable[[int, Any], int]) -> Callable[[int, Any], int]:
        def call(fd: int, data: Any) -> int:
            if self._hit(name):
                if not self.kind.short:
                    raise self._error(name)
                view = memoryview(data)
                return original(fd, view[: max(1, len(view) // 2)])
            return original(fd, data)

        return call

    def _wrap_close(self, name: str, original: Callable[[int], None]) -> Callable[[int], None]:
        def call(fd: int) -> None:
            failing = self._hit(name)
            original(fd)  # Linux frees the descriptor even when close reports an error
            if failing:
                raise self._error(name)

        return call

    def _wrap_renameat2(self, real: swap._Renameat2) -> swap._Renameat2:
        def call(src_fd: int, src: bytes, dst_fd: int, dst: bytes, flags: int) -> int:
            if self._hit(RENAMEAT2, src):
                ctypes.set_errno(self.kind.errno)
                return -1
            return real(src_fd, src, dst_fd, dst, flags)

        return call


def _at(name: str, kwargs: dict[str, Any]) -> str:
    """``name``, or its ``at`` form when the call is given a folder's descriptor."""
    if any(kwargs.get(arg) is not None for arg in _DIR_FD_ARGS):
        return f"{name}at"
    return name


def _named(target: object) -> str:
    """The name a call is about (a folder walked one level at a time makes the same call from
    the same line for each name), without the random part of a temp file's name."""
    if not isinstance(target, str | bytes | os.PathLike):
        return ""
    name = os.path.basename(os.fsdecode(target))
    return re.sub(r"\.[0-9a-f]{8}\.(tmp|part|purged)\Z", r".*.\1", name)


def _own_frames() -> tuple[str, ...]:
    """The frames of the store and the app that led to the call, innermost first."""
    frame: FrameType | None = sys._getframe(3)
    found: list[str] = []
    while frame is not None:
        filename = frame.f_code.co_filename
        if filename.startswith(_STORE) or filename.startswith(_APP_STATE):
            found.append(f"{Path(filename).name}:{frame.f_lineno}")
        frame = frame.f_back
    return tuple(found)


#: How many frames of the code under test, innermost first, tell one place a call is made from.
SITE_DEPTH = 3


Site = tuple[str, tuple[str, ...]]


def site_keys(faults: Faults) -> list[Site]:
    """What tells each counted call's place: the call, the ``SITE_DEPTH`` innermost lines of
    the code under test that made it, the name of the file or folder it was about, and the
    call before it (which tells a retry from a first try: an open after a mkdir)."""
    before = [""] + faults.calls
    return [
        (name, (*site[:SITE_DEPTH], site[-1], before[at - 1]))
        for at, (name, site) in enumerate(zip(faults.calls, faults.sites, strict=True), start=1)
    ]


def distinct_sites(faults: Faults) -> list[int]:
    """The calls (1-based) that are the first made from their place in the code on their
    file (``site_keys``)."""
    return distinct_sites_of(site_keys(faults))


def distinct_sites_of(sites: list[Site], known: set[Site] | None = None) -> list[int]:
    """``distinct_sites`` of calls whose places are ``sites``, leaving out the places in
    ``known`` (tried by another case); ``known`` gets the new places."""
    seen = known if known is not None else set()
    firsts: list[int] = []
    for at, key in enumerate(sites, start=1):
        if key not in seen:
            seen.add(key)
            firsts.append(at)
    return firsts


def plan(calls: list[str], sampled: list[int], *, stress: bool) -> list[tuple[int, Kind]]:
    """The (call, kind of fault) pairs a run tries: by default the first call of each place
    (``sampled``) with every kind of fault that call can meet; with ``stress``, every call."""
    chosen = range(1, len(calls) + 1) if stress else sampled
    return [(at, kind) for at in chosen for kind in KINDS if kind.applies(calls[at - 1])]


Entry = tuple[str, int, bytes | str]

#: The parse index: a cache whose bytes hold each file's inode and change time, so two runs
#: never write the same bytes. Compared as "a whole index" (its checksum holds) or as its bytes.
INDEX = "history/.index/parse-index.bin"


def _index_entry(raw: bytes) -> bytes:
    header, _, rest = raw.partition(b"\n")
    parts = header.split(b" ")
    if len(parts) == 3 and parts[0] == b"oda-store-parse-index" and parts[2] == b"%08x" % zlib.crc32(rest):
        return b"<a whole parse index>"
    return raw


def snapshot(root: Path) -> dict[str, Entry]:
    """Every entry under ``root``: (kind, permission bits, bytes or link target). The lock
    file and the parse index are in it (the index as ``_index_entry`` says)."""
    found: dict[str, Entry] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder, name)
            rel = path.relative_to(root).as_posix()
            st = path.lstat()
            mode = stat.S_IMODE(st.st_mode)
            if stat.S_ISLNK(st.st_mode):
                found[rel] = ("link", 0, os.readlink(path))
            elif stat.S_ISDIR(st.st_mode):
                found[rel] = ("folder", mode, b"")
            elif stat.S_ISREG(st.st_mode):
                raw = path.read_bytes()
                found[rel] = ("file", mode, _index_entry(raw) if rel == INDEX else raw)
            else:
                found[rel] = ("other", mode, b"")
    return found


_SET = r"(?:global|workspaces/[^/]+)"
_HISTORY = r"history/(?:global|workspaces/[^/]+)/[0-9a-f]{8}(?:/versions)?"
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
    """The entries of ``tree`` that the next change of the store tidies away."""
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
