"""Stores the tests build again and again, through the store's own API."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from store import GLOBAL, Memory, MemoryStore

from .files import write_raw


class TwoMemories(NamedTuple):
    """A store with two memories in Global, saved in Settings: "Reply language" then "About me"."""

    store: MemoryStore
    first: Memory
    second: Memory


def two_memories(root: Path) -> TwoMemories:
    """Global's "Reply language" ("Reply in short bullet points.") and "About me" ("Backend
    developer in Lisbon."), in that order."""
    store = MemoryStore(root)
    first = store.create(GLOBAL, "Reply language", "Reply in short bullet points.")
    second = store.create(GLOBAL, "About me", "Backend developer in Lisbon.")
    return TwoMemories(store, first, second)


def limited_store(root: Path, tokens: int = 500) -> MemoryStore:
    """A store whose ``settings.yaml`` limits what a chat receives to ``tokens``."""
    write_raw(root / "settings.yaml", f"chat_max_tokens: {tokens}\n")
    return MemoryStore(root)
