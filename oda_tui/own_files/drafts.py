"""Unsaved editor drafts kept when the app is ended from outside: the file format (no Textual).

When the terminal is lost or the app gets SIGTERM, the editor's unsaved edits are written to
the app's state folder (never the memory store: a draft is not a memory), one small JSON file
per store and memory, under ``drafts/`` in ``review_marks.state_dir()``::

    drafts/<store key>-<memory key>.json
    {"kind": "oda-tui-draft", "format": 1, "root": "/home/me/.local/share/Oda/memory",
     "scope": "web", "memory_id": "0123abcd", "title": "…", "text": "…", "enabled": true,
     "base": {"hash": "<sha256 of the title, text and switch on disk>", "updated": "…"},
     "kept_at": "2026-11-30T16:00:00+00:00"}

``memory_id`` is null for a new memory (one draft per scope then), and ``base`` null when the
draft began with no memory on disk. Writes are atomic and private; reads are bounded and go
through no link. A file that is not a draft of this store (not JSON, another store's, a link,
too large) is set aside (renamed ``….unreadable``), never offered and never deleted: it may
still hold a person's words. One the disk cannot read now (EIO) is left as it is.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from store import (
    FileRefused,
    Memory,
    Scope,
    TooLarge,
    Unsafe,
    is_valid_id,
    is_valid_key,
    parse_json_config,
    read_regular,
    write_atomic,
)

from .review_marks import state_dir

KIND = "oda-tui-draft"
FORMAT = 1
FOLDER = "drafts"
SUFFIX = ".json"
#: A set-aside file keeps its name with this added.
SET_ASIDE = ".unreadable"
#: The largest draft written or read: many times a memory's text limit, still small.
MAX_BYTES = 1 << 20
#: At most this many drafts of one store are read at a start (the newest are offered first).
MAX_FILES = 64


def drafts_dir() -> Path:
    """Where drafts are kept: ``drafts/`` in the app's state folder."""
    return state_dir() / FOLDER


def store_key(root: Path) -> str:
    """The store root as drafts name it: its absolute path."""
    return os.path.abspath(root)


def _digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


def content_hash(title: str, text: str, enabled: bool) -> str:
    """What a memory held (its title, text and switch), for telling whether it changed since."""
    return _digest(title, text, "on" if enabled else "off")


def _prefix(root: Path) -> str:
    return _digest(store_key(root))[:16] + "-"


def draft_path(root: Path, scope: Scope, memory_id: str | None, folder: Path | None = None) -> Path:
    """The one file for this store and memory (or this scope's new memory)."""
    memory = _digest("global" if scope is None else f"ws:{scope}", memory_id or "new")[:16]
    return (folder or drafts_dir()) / f"{_prefix(root)}{memory}{SUFFIX}"


@dataclass(frozen=True)
class KeptDraft:
    """One draft as kept: where it belongs, what was typed, and what it was measured against."""

    root: str
    scope: Scope
    memory_id: str | None  # None: a new memory
    title: str
    text: str
    enabled: bool
    base_hash: str | None = None  # the memory's content_hash when the draft began
    base_updated: str | None = None
    kept_at: str = ""
    path: Path | None = None  # the file it was read from

    def changed_since(self, memory: Memory) -> bool:
        """True when ``memory`` (as on disk now) is not what the draft began from."""
        return self.base_hash != content_hash(memory.title, memory.text, memory.enabled)

    def to_json(self) -> bytes:
        base = None
        if self.base_hash is not None:
            base = {"hash": self.base_hash, "updated": self.base_updated}
        data = {
            "kind": KIND,
            "format": FORMAT,
            "root": self.root,
            "scope": self.scope,
            "memory_id": self.memory_id,
            "title": self.title,
            "text": self.text,
            "enabled": self.enabled,
            "base": base,
            "kept_at": self.kept_at,
        }
        return json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8", "surrogatepass")


def new_draft(
    root: Path, scope: Scope, base: Memory | None, title: str, text: str, enabled: bool
) -> KeptDraft:
    """A draft of ``base`` (None: a new memory in ``scope``) as typed now."""
    return KeptDraft(
        root=store_key(root),
        scope=scope,
        memory_id=None if base is None else base.id,
        title=title,
        text=text,
        enabled=enabled,
        base_hash=None if base is None else content_hash(base.title, base.text, base.enabled),
        base_updated=None if base is None or base.updated is None else base.updated.isoformat(),
        kept_at=datetime.now(UTC).isoformat(),
    )


def keep(draft: KeptDraft, folder: Path | None = None) -> Path | None:
    """Write the draft to its file, atomically; None when it is over ``MAX_BYTES`` (not kept)."""
    payload = draft.to_json()
    if len(payload) > MAX_BYTES:
        return None
    path = draft_path(Path(draft.root), draft.scope, draft.memory_id, folder)
    # No fsync: the process is ending within a second; the rename alone never leaves it torn.
    write_atomic(path, payload, durable=False)
    return path


def forget(path: Path) -> None:
    """Remove a draft's file (saved or dropped)."""
    try:
        path.unlink()
    except OSError:
        pass


class Unreadable(ValueError):
    """A file in the drafts folder that is not a draft of this store."""


def _parse(raw: bytes, root: Path) -> dict[str, Any]:
    try:
        data = parse_json_config(root, raw)  # depth-limited: nesting never costs a recursion
    except FileRefused as exc:
        raise Unreadable("it is not a JSON draft") from exc
    if not isinstance(data, dict) or data.get("kind") != KIND or data.get("format") != FORMAT:
        raise Unreadable("it is not a draft this version of the app wrote")
    if data.get("root") != store_key(root):
        raise Unreadable("it belongs to another memory folder")
    return data


def _draft_of(data: dict[str, Any], path: Path) -> KeptDraft:
    scope, memory_id, base = data.get("scope"), data.get("memory_id"), data.get("base")
    fields_ok = (
        (scope is None or (isinstance(scope, str) and is_valid_key(scope)))
        and (memory_id is None or (isinstance(memory_id, str) and is_valid_id(memory_id)))
        and isinstance(data.get("title"), str)
        and isinstance(data.get("text"), str)
        and isinstance(data.get("enabled"), bool)
        and (base is None or (isinstance(base, dict) and isinstance(base.get("hash"), str)))
        and (memory_id is None) == (base is None)
    )
    if not fields_ok:
        raise Unreadable("its fields are not a draft's")
    updated = base.get("updated") if base else None
    kept_at = data.get("kept_at")
    return KeptDraft(
        root=data["root"],
        scope=scope,
        memory_id=memory_id,
        title=data["title"],
        text=data["text"],
        enabled=data["enabled"],
        base_hash=base["hash"] if base else None,
        base_updated=updated if isinstance(updated, str) else None,
        kept_at=kept_at if isinstance(kept_at, str) else "",
        path=path,
    )


def read_draft(path: Path, root: Path) -> KeptDraft:
    """The draft in ``path`` (bounded, no link followed); ``Unreadable`` or ``OSError``."""
    raw = read_regular(path.parent, path, MAX_BYTES)
    return _draft_of(_parse(raw, root), path)


@dataclass(frozen=True)
class Found:
    """The drafts kept for a store, newest first, and the files set aside as unreadable."""

    drafts: list[KeptDraft]
    set_aside: list[tuple[Path, str]]  # (the file as renamed, why)


def kept_drafts(root: Path, folder: Path | None = None) -> Found:
    """Every draft kept for the store at ``root``; unreadable ones are set aside."""
    folder = folder or drafts_dir()
    prefix = _prefix(root)
    try:
        names = sorted(
            entry.name
            for entry in os.scandir(folder)
            if entry.name.startswith(prefix) and entry.name.endswith(SUFFIX)
        )
    except OSError:  # no drafts folder: nothing was kept
        return Found([], [])
    drafts: list[KeptDraft] = []
    set_aside: list[tuple[Path, str]] = []
    for name in names[:MAX_FILES]:
        path = folder / name
        try:
            drafts.append(read_draft(path, root))
        except FileNotFoundError:  # saved or dropped by another app meanwhile
            continue
        except (Unsafe, TooLarge, Unreadable) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            set_aside.append((_set_aside(path), why))
        except OSError:
            continue  # there, but not readable now (EIO): left as it is, for the next start
    drafts.sort(key=lambda d: d.kept_at, reverse=True)
    return Found(drafts, set_aside)


def _set_aside(path: Path) -> Path:
    target = path.with_name(path.name + SET_ASIDE)
    try:
        os.replace(path, target)
    except OSError:
        return path
    return target


__all__ = [
    "Found",
    "KeptDraft",
    "content_hash",
    "draft_path",
    "drafts_dir",
    "forget",
    "keep",
    "kept_drafts",
    "new_draft",
    "read_draft",
]
