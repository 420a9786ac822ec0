"""Files as another program writes them, and a store started as the app starts it."""

from __future__ import annotations

from pathlib import Path

from store import MemoryStore


def write_raw(path: Path, content: str | bytes) -> Path:
    """Write a file as another program would (no store involved)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return path


def memory_file(
    title: str = "T", text: str = "Body", *, enabled: str = "true", source: str = "user", extra: str = ""
) -> str:
    """A valid memory file's text, as a person would write it."""
    return f"---\ntitle: {title}\nenabled: {enabled}\nsource: {source}\n{extra}---\n\n{text}\n"


def started_store(root: Path) -> MemoryStore:
    """A store on ``root``, loaded, with its parse index written (a later start reads it)."""
    s = MemoryStore(root)
    s.workspaces()
    if s._index_writer is not None:
        s._index_writer.join()
    return s
