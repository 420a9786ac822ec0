"""Unsaved edits to a file open in the Problems screen, kept when the app is ended from outside:
the file format (no Textual).

A problem file is not a memory yet, so its draft is the file's whole text as typed, one small
JSON file per store and file, under ``drafts/files/`` in the app's state folder::

    drafts/files/<store key>-<file key>.json
    {"kind": "oda-tui-file-draft", "format": 1, "root": "/home/me/.local/share/Oda/memory",
     "file": "global/0badf11e.md", "text": "…", "base": "<sha256 of the bytes shown>",
     "kept_at": "2026-11-30T16:00:00+00:00"}

Written atomically and privately; read bounded and through no link. A file here that is not
such a draft is left as it is and never offered (it may still hold a person's words).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from store import FileRefused, parse_json_config, read_regular, write_atomic

from .drafts import MAX_BYTES, MAX_FILES, drafts_dir, store_key

KIND = "oda-tui-file-draft"
FORMAT = 1
FOLDER = "files"
SUFFIX = ".json"


def file_drafts_dir() -> Path:
    """Where the Problems screen's drafts are kept: ``drafts/files/`` in the state folder."""
    return drafts_dir() / FOLDER


def bytes_hash(data: bytes) -> str:
    """What a file held, for telling whether it changed since a draft began."""
    return hashlib.sha256(data).hexdigest()


def _key(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:16]


def file_draft_path(root: Path, relative: str, folder: Path | None = None) -> Path:
    """The one draft file for this store and file (``relative``: the file's path in the store)."""
    return (folder or file_drafts_dir()) / f"{_key(store_key(root))}-{_key(relative)}{SUFFIX}"


@dataclass(frozen=True)
class FileDraft:
    """The text typed into one file of the store, and the bytes it was typed over."""

    root: str
    file: str  # the file's path in the store, with ``/`` between its parts
    text: str
    base: str  # ``bytes_hash`` of the file as shown when the edits began
    kept_at: str = ""

    def to_json(self) -> bytes:
        data = {
            "kind": KIND,
            "format": FORMAT,
            "root": self.root,
            "file": self.file,
            "text": self.text,
            "base": self.base,
            "kept_at": self.kept_at,
        }
        return json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8", "surrogatepass")


def new_file_draft(root: Path, relative: str, text: str, shown: bytes) -> FileDraft:
    """A draft of the file at ``relative`` in the store at ``root``, typed over ``shown``."""
    return FileDraft(store_key(root), relative, text, bytes_hash(shown), datetime.now(UTC).isoformat())


def keep_file_draft(draft: FileDraft, folder: Path | None = None) -> Path | None:
    """Write the draft to its file, atomically; None when it is over ``MAX_BYTES`` (not kept)."""
    payload = draft.to_json()
    if len(payload) > MAX_BYTES:
        return None
    path = file_draft_path(Path(draft.root), draft.file, folder)
    write_atomic(path, payload, durable=False)  # as the editor's drafts: the rename never tears it
    return path


def forget_file_draft(root: Path, relative: str, folder: Path | None = None) -> None:
    """Remove the file's draft (saved or dropped), if there is one."""
    try:
        os.unlink(file_draft_path(root, relative, folder))
    except OSError:
        pass


def _read(path: Path, root: Path) -> FileDraft | None:
    try:
        data = parse_json_config(root, read_regular(path.parent, path, MAX_BYTES))
    except (OSError, FileRefused):
        return None
    if not isinstance(data, dict) or data.get("kind") != KIND or data.get("format") != FORMAT:
        return None
    fields = (data.get("root"), data.get("file"), data.get("text"), data.get("base"))
    if not all(isinstance(f, str) for f in fields) or data["root"] != store_key(root):
        return None
    kept_at = data.get("kept_at")
    return FileDraft(
        data["root"], data["file"], data["text"], data["base"], kept_at if isinstance(kept_at, str) else ""
    )


def file_draft(root: Path, relative: str, folder: Path | None = None) -> FileDraft | None:
    """The draft kept for this file of the store, if there is a readable one."""
    found = _read(file_draft_path(root, relative, folder), root)
    return found if found is not None and found.file == relative else None


def kept_file_drafts(root: Path, folder: Path | None = None) -> list[FileDraft]:
    """Every readable draft kept for files of the store at ``root``, newest first."""
    folder = folder or file_drafts_dir()
    prefix = f"{_key(store_key(root))}-"
    try:
        names = sorted(
            e.name for e in os.scandir(folder) if e.name.startswith(prefix) and e.name.endswith(SUFFIX)
        )
    except OSError:
        return []
    found = [d for d in (_read(folder / name, root) for name in names[:MAX_FILES]) if d is not None]
    return sorted(found, key=lambda d: d.kept_at, reverse=True)


__all__ = [
    "FileDraft",
    "bytes_hash",
    "file_draft",
    "file_draft_path",
    "file_drafts_dir",
    "forget_file_draft",
    "keep_file_draft",
    "kept_file_drafts",
    "new_file_draft",
]
