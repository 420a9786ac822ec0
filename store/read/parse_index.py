"""The parse index: what each memory file held the last time it was read, so a start with
unchanged files reads none of them.

It lives at ``<root>/history/.index/parse-index.bin`` (a cache, never a source of truth):

- a header line ``oda-store-parse-index <version> <crc32 of the rest>``;
- a JSON line: the limits, the machine's byte order, the per-memory flags as strings of
  one character each, the problem files (few) in full, the unknown frontmatter keys of the
  memories that have plain ones (``extra``, by position: e.g. where an import came from), and
  the length of each part below;
- the memories' stat signatures, then their created and updated moments (microseconds
  since 1970, UTC), as two native integer arrays;
- the length in bytes of every string, column by column (keys, titles, texts, sessions),
  as one native integer array;
- all those strings one after another, each UTF-8.

An entry is used only when the file's size, mtime_ns, ctime_ns and inode are all what the
index recorded and the limits are the same; any other file is read again. The index itself is
used only when it is this user's and writable by no one else: another account that could
write it could make a start serve text that is on no disk. (One written by this same user is
trusted: that account can change the memory files, the settings and the app itself; a key to
sign the index would have to live in the root, readable by the same writer, or outside it,
where the store never reads.) An index that is
unreadable, damaged, of another version or machine, or malformed in any way is ignored as a
whole (and rewritten after the next full read). Loading an index never runs code: the parts
are plain numbers and text, and every one is checked before it is used.
"""

from __future__ import annotations

import json
import os
import sys
import zlib
from array import array
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from itertools import accumulate
from operator import attrgetter
from pathlib import Path
from typing import Any

from store.disk.atomic import write_atomic
from store.disk.layout import HISTORY_DIR, MEMORY_SUFFIX
from store.disk.safe_io import Unsafe, close_quietly, folder, open_regular, read_fd, remove_file
from store.limits import Limits
from store.model import Memory, Problem, Scope

INDEX_DIR = ".index"
INDEX_FILE = "parse-index.bin"
_OLD_INDEX_FILE = "parse-index.json"  # version 1, replaced by the first save of version 2
MAGIC = "oda-store-parse-index"
VERSION = 3  # 3: memories with plain unknown keys are kept too
_COLUMNS = 4  # key, title, text, session
# created and updated: microseconds since the epoch, UTC (every moment a file gives is UTC).
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_US = timedelta(microseconds=1)
_NO_MOMENT = -(2**63)

#: size, mtime_ns, ctime_ns, inode (as ``scan.signature``).
Signature = tuple[int, int, int, int]


def index_path(root: Path) -> Path:
    """Where the parse index of a store lives."""
    return root / HISTORY_DIR / INDEX_DIR / INDEX_FILE


def _limits_key(limits: Limits) -> list[int]:
    return [limits.title_max_chars, limits.text_max_chars, limits.file_max_bytes]


def relative_key(scope: Scope, name: str) -> str:
    """The index key of a memory file: its path under the root, with / between parts."""
    return f"global/{name}" if scope is None else f"workspaces/{scope}/{name}"


def _machine() -> list[Any]:
    return [sys.byteorder, array("q").itemsize, array("Q").itemsize, array("l").itemsize]


class ParseIndex:
    """A loaded index: look a file up by key and signature, get its memory or problem back."""

    __slots__ = ("positions", "_sigs", "_rows", "_problems", "_extras", "_columns")

    def __init__(self, meta: dict[str, Any], parts: list[memoryview]) -> None:
        """Build from the JSON line and the binary parts; raises ValueError when anything is
        not as written (wrong type, length, character or count). The titles, texts and times
        are decoded at the first file the index holds as it is: a stale index (a copied or
        restored store) never pays for them."""
        n = meta.get("n")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise ValueError("count")
        flags = _flag_columns(meta, n)
        unsigned, signed, lengths = _numbers(parts, n)
        keys_end = sum(lengths[:n])
        keys = _strings(lengths[:n], parts[3][:keys_end])
        self._sigs: list[Signature] = list(
            zip(unsigned[0::2], signed[0 : 2 * n : 2], signed[1 : 2 * n : 2], unsigned[1::2], strict=True)
        )
        self.positions: dict[str, int] = dict(zip(keys, range(n), strict=True))
        self._problems = _problem_rows(meta.get("problems"))
        self._extras = _extra_rows(meta.get("extra", {}), n)
        self._rows: list[tuple[Any, ...]] | None = None
        self._columns: tuple[int, dict[str, str], array[int], array[int], memoryview] | None = (
            n,
            flags,
            signed,
            lengths,
            parts[3][keys_end:],
        )

    def __len__(self) -> int:
        return len(self._sigs) + len(self._problems)

    def holds(self, key: str, sig: Signature) -> bool:
        """Whether the index holds the file ``key`` as it is (``sig``: its stat now)."""
        i = self.positions.get(key)
        if i is None:
            problem = self._problems.get(key)
            return problem is not None and problem[0] == sig
        return self._sigs[i] == sig

    def lookup(
        self, key: str, sig: Signature, path: str, scope: Scope, memory_id: str
    ) -> Memory | Problem | None:
        """The memory or problem the file held, when its signature is the one recorded."""
        i = self.positions.get(key)
        if i is None:
            problem = self._problems.get(key)
            if problem is None or problem[0] != sig:
                return None
            return Problem(Path(path), scope, memory_id, problem[1], problem[2])
        if self._sigs[i] != sig:
            return None
        rows = self._rows if self._rows is not None else self._decode()
        if not rows:  # the rest of the index could not be decoded: the file is read instead
            return None
        title, text, enabled, source, session, created, updated = rows[i]
        extra = self._extras.get(i, {})
        return Memory(memory_id, scope, title, text, enabled, source, session, created, updated, path, extra)

    def _decode(self) -> list[tuple[Any, ...]]:
        """Every memory's title, text, flags, session and times (empty when they cannot be
        decoded: then no memory is taken from the index)."""
        assert self._columns is not None
        n, flags, signed, lengths, blob = self._columns
        self._columns = None
        try:
            titles, texts, sessions = _string_columns(lengths[n:], blob, n)
            self._rows = list(
                zip(
                    titles,
                    texts,
                    [c == "1" for c in flags["enabled"]],
                    ["user" if c == "u" else "ai" for c in flags["source"]],
                    [
                        None if missing == "1" else s
                        for missing, s in zip(flags["nosession"], sessions, strict=True)
                    ],
                    _moments(signed[2 * n : 3 * n]),
                    _moments(signed[3 * n :]),
                    strict=True,
                )
            )
        except (ValueError, UnicodeDecodeError, OverflowError):
            self._rows = []
        return self._rows


def _flag_columns(meta: dict[str, Any], n: int) -> dict[str, str]:
    """The per-memory flags, one character each, checked against the characters they may hold."""
    flags = {}
    for name, allowed in (("enabled", "01"), ("source", "ua"), ("nosession", "01")):
        col = meta.get(name)
        if not isinstance(col, str) or len(col) != n or not set(col) <= set(allowed):
            raise ValueError(f"column {name}")
        flags[name] = col
    return flags


def _numbers(parts: list[memoryview], n: int) -> tuple[array[int], array[int], array[int]]:
    """The unsigned and signed numbers and the string lengths, each of the size ``n`` needs."""
    unsigned, signed, lengths = array("Q"), array("q"), array("l")
    unsigned.frombytes(parts[0])  # raises ValueError for a length that is not whole items
    signed.frombytes(parts[1])
    lengths.frombytes(parts[2])
    if len(unsigned) != 2 * n or len(signed) != 4 * n or len(lengths) != _COLUMNS * n:
        raise ValueError("part sizes")
    if (n and min(lengths) < 0) or sum(lengths) != len(parts[3]):
        raise ValueError("string lengths")
    return unsigned, signed, lengths


def _strings(lengths: array[int], blob: memoryview) -> list[str]:
    """The strings of ``blob``, cut at ``lengths``."""
    # One decode per string: slicing one decoded text would scan every slice for its
    # widest character, which costs more than decoding.
    ends = list(accumulate(lengths))
    return [str(blob[a:b], "utf-8", "surrogatepass") for a, b in zip([0, *ends[:-1]], ends, strict=True)]


def _string_columns(lengths: array[int], blob: memoryview, n: int) -> list[list[str]]:
    """The strings of ``blob``, cut at ``lengths``, as the columns (titles, texts, sessions)."""
    strings = _strings(lengths, blob)
    return [strings[c * n : (c + 1) * n] for c in range(_COLUMNS - 1)]


def _moments(column: array[int]) -> list[datetime | None]:
    return [None if us == _NO_MOMENT else _EPOCH + _US * us for us in column]


def _problem_rows(problems: object) -> dict[str, tuple[Signature, str, int | None]]:
    """The problem files by key: signature, message and line, each checked."""
    if not isinstance(problems, list):
        raise ValueError("problems")
    rows: dict[str, tuple[Signature, str, int | None]] = {}
    for row in problems:
        if (
            not isinstance(row, list)
            or len(row) != 7
            or not isinstance(row[0], str)
            or not all(type(v) is int for v in row[1:5])
            or not isinstance(row[5], str)
            or not (row[6] is None or type(row[6]) is int)
        ):
            raise ValueError("problem row")
        rows[row[0]] = ((row[1], row[2], row[3], row[4]), row[5], row[6])
    return rows


def _extra_rows(extras: object, n: int) -> dict[int, dict[str, str]]:
    """The unknown keys of the memories that have them, by position, each checked."""
    if not isinstance(extras, dict):
        raise ValueError("extra")
    rows: dict[int, dict[str, str]] = {}
    for position, keys in extras.items():
        if not isinstance(position, str) or not position.isdigit() or int(position) >= n:
            raise ValueError("extra position")
        if not isinstance(keys, dict) or not keys or not all(_plain(k, v) for k, v in keys.items()):
            raise ValueError("extra keys")
        rows[int(position)] = keys
    return rows


def _plain(key: object, value: object) -> bool:
    return isinstance(key, str) and isinstance(value, str)


def expected_max_bytes(files: int, limits: Limits) -> int:
    """The most an index of ``files`` memory files can hold: each file's text at most, its
    numbers and a problem message, and the header."""
    return files * (limits.file_max_bytes + 1024) + 65536


def load(root: Path, limits: Limits, max_bytes: int | None = None) -> ParseIndex | None:
    """The store's parse index, or None when there is none or it cannot be trusted (larger
    than ``max_bytes``: nothing of it is read then). Raises ``safe_io.Unsafe`` when it, or a
    folder on the way, is a link or not what it should be."""
    try:
        raw = _read_own(root, max_bytes if max_bytes is not None else 2**62)
    except Unsafe:
        raise
    except OSError:
        return None
    if raw is None:
        return None
    # The parts are views of the bytes read, never copies: an index of 10,000 memories is
    # megabytes, and each copy of it cost the start more page faults than the copy itself.
    head_end = raw.find(b"\n")
    line_end = raw.find(b"\n", head_end + 1)
    if head_end < 0 or line_end < 0:
        return None
    view = memoryview(raw)
    try:
        magic, version, crc = raw[:head_end].decode("ascii").split(" ")
        if magic != MAGIC or int(version) != VERSION or int(crc, 16) != zlib.crc32(view[head_end + 1 :]):
            return None
        meta = json.loads(raw[head_end + 1 : line_end])
        data = view[line_end + 1 :]
        if (
            not isinstance(meta, dict)
            or meta.get("limits") != _limits_key(limits)
            or meta.get("machine") != _machine()
        ):
            return None
        sizes = meta.get("parts")
        if (
            not isinstance(sizes, list)
            or len(sizes) != 4
            or not all(type(s) is int and s >= 0 for s in sizes)
            or sum(sizes) != len(data)
        ):
            return None
        ends = list(accumulate(sizes))
        parts = [data[start:end] for start, end in zip([0, *ends[:-1]], ends, strict=True)]
        return ParseIndex(meta, parts)
    except (ValueError, TypeError, UnicodeDecodeError, RecursionError, OverflowError):
        return None


def _read_own(root: Path, max_bytes: int) -> bytes | None:
    """The index's bytes, or None when another account could have written it: owned by
    another user, or writable by group or others (the store writes it 0600). The text it
    gives back is then on no disk; a cache is cheap to read again."""
    path = index_path(root)
    with folder(root, path.parent) as dir_fd:
        fd, st = open_regular(path.name, dir_fd, f"{HISTORY_DIR}/{INDEX_DIR}/{INDEX_FILE}")
        try:
            if st.st_uid != os.geteuid() or st.st_mode & 0o022:
                return None
            if st.st_size > max_bytes:
                return None
            raw = read_fd(fd, st.st_size, max_bytes)
        finally:
            close_quietly(fd)
    return None if len(raw) > max_bytes else raw


_TITLE = attrgetter("title")
_TEXT = attrgetter("text")


def _indexable(memory: Memory) -> bool:
    """Whether the index can give this memory back exactly: unknown keys, if any, each text
    with a text value (any other is read each time), and moments in UTC (as every file's are)."""
    created, updated = memory.created, memory.updated
    return (
        all(_plain(k, v) for k, v in memory.extra.items())
        and (created is None or created.tzinfo is UTC)
        and (updated is None or updated.tzinfo is UTC)
    )


def save(root: Path, limits: Limits, items: Iterable[tuple[Signature, Memory | Problem]]) -> bool:
    """Write the index for these files (memories with unknown keys that are not text are left
    out: they are read each time). Never raises for a disk problem: the index is only a cache."""
    memories, problems = _rows(items)
    ms = [m for _, m in memories]
    parts = [*_number_parts(memories, ms), *_string_parts(ms)]
    meta = _meta(limits, ms, problems, parts)
    line = json.dumps(meta, ensure_ascii=True, separators=(",", ":")).encode("ascii")
    rest = b"".join([line, b"\n", *parts])
    header = f"{MAGIC} {VERSION} {zlib.crc32(rest):08x}\n".encode("ascii")
    return _write(root, header + rest)


def _rows(
    items: Iterable[tuple[Signature, Memory | Problem]],
) -> tuple[list[tuple[Signature, Memory]], list[list[Any]]]:
    """The memories the index can give back exactly, and the problem files' rows."""
    memories: list[tuple[Signature, Memory]] = []
    problems: list[list[Any]] = []
    for sig, item in items:
        if isinstance(item, Memory):
            if _indexable(item):
                memories.append((sig, item))
        else:
            key = relative_key(item.scope, item.id + MEMORY_SUFFIX)
            problems.append([key, *sig, item.message, item.line])
    return memories, problems


def _number_parts(memories: list[tuple[Signature, Memory]], ms: list[Memory]) -> list[bytes]:
    """The signatures' unsigned numbers (size, inode), then their signed ones (mtime, ctime)
    followed by the created and updated moments (``ms``: the memories alone)."""
    unsigned = array("Q", [v for sig, _ in memories for v in (sig[0], sig[3])])
    signed = array(
        "q",
        [v for sig, _ in memories for v in (sig[1], sig[2])]
        + [_NO_MOMENT if m.created is None else (m.created - _EPOCH) // _US for m in ms]
        + [_NO_MOMENT if m.updated is None else (m.updated - _EPOCH) // _US for m in ms],
    )
    return [unsigned.tobytes(), signed.tobytes()]


def _string_parts(ms: list[Memory]) -> list[bytes]:
    """Every string's length in bytes, column by column, then all the strings as one text."""
    prefixes = {scope: relative_key(scope, "") for scope in {m.scope for m in ms}}
    strings = [
        *[prefixes[m.scope] + m.id + MEMORY_SUFFIX for m in ms],
        *map(_TITLE, ms),
        *map(_TEXT, ms),
        *[m.session_id or "" for m in ms],
    ]
    # An ASCII string's length is its length in bytes (isascii costs nothing): only the
    # others are encoded one by one; all of them together are encoded once.
    lengths = array(
        "l", [len(s) if s.isascii() else len(s.encode("utf-8", "surrogatepass")) for s in strings]
    )
    return [lengths.tobytes(), "".join(strings).encode("utf-8", "surrogatepass")]


def _meta(limits: Limits, ms: list[Memory], problems: list[list[Any]], parts: list[bytes]) -> dict[str, Any]:
    """The JSON line: what the index is valid for, the per-memory flags, the problem files and
    the length of each part."""
    return {
        "limits": _limits_key(limits),
        "machine": _machine(),
        "n": len(ms),
        "enabled": "".join("1" if m.enabled else "0" for m in ms),
        "source": "".join("u" if m.source == "user" else "a" for m in ms),
        "nosession": "".join("1" if m.session_id is None else "0" for m in ms),
        "problems": problems,
        "extra": {str(i): dict(m.extra) for i, m in enumerate(ms) if m.extra},
        "parts": [len(p) for p in parts],
    }


def _write(root: Path, data: bytes) -> bool:
    """Write the index, then remove a version 1 index left beside it; False when the write
    failed."""
    try:
        write_atomic(index_path(root), data, durable=False, root=root)
    except OSError:
        return False
    try:
        remove_file(root, index_path(root).with_name(_OLD_INDEX_FILE))
    except OSError:
        pass
    return True


def remove(root: Path) -> None:
    """Forget the index (the next start reads every file)."""
    try:
        remove_file(root, index_path(root))
    except OSError:
        pass
