"""The parse index: what each memory file held the last time it was read, so a start with
unchanged files reads none of them.

It lives at ``<root>/history/.index/parse-index.json`` (a cache, never a source of truth):
one header line ``oda-store-parse-index <version> <crc32 of the rest>``, then JSON with one
column per field, in the same order as ``paths``. An entry is used only when the file's size,
mtime_ns, ctime_ns and inode are all what the index recorded and the limits are the same; any
other file is read again. An index that is unreadable, damaged, of another version or
malformed in any way is ignored as a whole (and rewritten after the next full read).
JSON only, checked column by column: loading an index never runs code.
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from .atomic import write_atomic
from .layout import HISTORY_DIR
from .limits import Limits
from .model import Memory, Problem, Scope

INDEX_DIR = ".index"
INDEX_FILE = "parse-index.json"
MAGIC = "oda-store-parse-index"
VERSION = 1
_COLUMNS = ("paths", "size", "mtime", "ctime", "ino", "kind", "title", "text", "enabled", "source")
_OPTIONAL = ("session", "created", "updated", "line")

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


class ParseIndex:
    """A loaded index: look a file up by key and signature, get its memory or problem back."""

    __slots__ = (
        "positions",
        "_sigs",
        "_kind",
        "_title",
        "_text",
        "_enabled",
        "_source",
        "_session",
        "_created",
        "_updated",
        "_line",
    )

    def __init__(self, data: dict[str, Any]) -> None:
        """Build from decoded JSON; raises ValueError when anything is not as written."""
        cols: dict[str, Any] = {name: data.get(name) for name in _COLUMNS + _OPTIONAL}
        paths = cols["paths"]
        if not isinstance(paths, list):
            raise ValueError("no paths")
        n = len(paths)
        for name, col in cols.items():
            if not isinstance(col, list | str) or len(col) != n:
                raise ValueError(f"column {name}")
        _only(paths, {str})
        for name in ("size", "mtime", "ctime", "ino"):
            _only(cols[name], {int})
        _only(cols["title"], {str})
        _only(cols["text"], {str})
        _only(cols["session"], {str, type(None)})
        _only(cols["line"], {int, type(None)})
        for name, allowed in (("kind", "mp"), ("enabled", "01"), ("source", "ua")):
            col = cols[name]
            if not isinstance(col, str) or not set(col) <= set(allowed):
                raise ValueError(f"column {name}")
        self._created = _moments(cols["created"])
        self._updated = _moments(cols["updated"])
        self.positions: dict[str, int] = dict(zip(paths, range(n), strict=True))
        self._sigs: list[Signature] = list(
            zip(cols["size"], cols["mtime"], cols["ctime"], cols["ino"], strict=True)
        )
        self._kind: str = cols["kind"]
        self._title: list[str] = cols["title"]
        self._text: list[str] = cols["text"]
        self._enabled: str = cols["enabled"]
        self._source: str = cols["source"]
        self._session: list[str | None] = cols["session"]
        self._line: list[int | None] = cols["line"]

    def __len__(self) -> int:
        return len(self._kind)

    def lookup(
        self, key: str, sig: Signature, path: Path, scope: Scope, memory_id: str
    ) -> Memory | Problem | None:
        """The memory or problem the file held, when its signature is the one recorded."""
        i = self.positions.get(key)
        if i is None or self._sigs[i] != sig:
            return None
        if self._kind[i] == "p":
            return Problem(path, scope, memory_id, self._title[i], self._line[i])
        return Memory(
            memory_id,
            scope,
            self._title[i],
            self._text[i],
            self._enabled[i] == "1",
            "user" if self._source[i] == "u" else "ai",
            self._session[i],
            self._created[i],
            self._updated[i],
            path,
            {},
        )


def _only(column: Any, types: set[type]) -> None:
    if not isinstance(column, list) or not set(map(type, column)) <= types:
        raise ValueError("a column holds the wrong type")


def _moments(column: Any) -> list[datetime | None]:
    _only(column, {str, type(None)})
    fromiso = datetime.fromisoformat
    return [None if text is None else fromiso(text) for text in column]


def load(root: Path, limits: Limits) -> ParseIndex | None:
    """The store's parse index, or None when there is none or it cannot be trusted."""
    try:
        with open(index_path(root), "rb") as f:
            raw = f.read()
    except OSError:
        return None
    header, _, body = raw.partition(b"\n")
    try:
        magic, version, crc = header.decode("ascii").split(" ")
        if magic != MAGIC or int(version) != VERSION or int(crc, 16) != zlib.crc32(body):
            return None
        data = json.loads(body)
        if not isinstance(data, dict) or data.get("limits") != _limits_key(limits):
            return None
        return ParseIndex(data)
    except (ValueError, TypeError, UnicodeDecodeError, RecursionError):
        return None


def save(root: Path, limits: Limits, items: Iterable[tuple[str, Signature, Memory | Problem]]) -> bool:
    """Write the index for these files (memories with unknown keys are left out: they are
    read each time). Never raises for a disk problem: the index is only a cache."""
    paths: list[str] = []
    sigs: list[Signature] = []
    kind: list[str] = []
    title: list[str] = []
    text: list[str] = []
    enabled: list[str] = []
    source: list[str] = []
    session: list[str | None] = []
    created: list[str | None] = []
    updated: list[str | None] = []
    line: list[int | None] = []
    for key, sig, item in items:
        if isinstance(item, Memory):
            if item.extra:
                continue
            kind.append("m")
            title.append(item.title)
            text.append(item.text)
            enabled.append("1" if item.enabled else "0")
            source.append("u" if item.source == "user" else "a")
            session.append(item.session_id)
            created.append(None if item.created is None else item.created.isoformat())
            updated.append(None if item.updated is None else item.updated.isoformat())
            line.append(None)
        else:
            kind.append("p")
            title.append(item.message)
            text.append("")
            enabled.append("0")
            source.append("u")
            session.append(None)
            created.append(None)
            updated.append(None)
            line.append(item.line)
        paths.append(key)
        sigs.append(sig)
    sizes, mtimes, ctimes, inos = (list(c) for c in zip(*sigs, strict=True)) if sigs else ([], [], [], [])
    data = {
        "limits": _limits_key(limits),
        "paths": paths,
        "size": sizes,
        "mtime": mtimes,
        "ctime": ctimes,
        "ino": inos,
        "kind": "".join(kind),
        "title": title,
        "text": text,
        "enabled": "".join(enabled),
        "source": "".join(source),
        "session": session,
        "created": created,
        "updated": updated,
        "line": line,
    }
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")
    header = f"{MAGIC} {VERSION} {zlib.crc32(body):08x}\n".encode("ascii")
    try:
        write_atomic(index_path(root), header + body, durable=False)
    except OSError:
        return False
    return True


def remove(root: Path) -> None:
    """Forget the index (the next start reads every file)."""
    try:
        os.unlink(index_path(root))
    except OSError:
        pass
