"""A store opened only to look (``read_only``): it reads everything a dry run needs and writes
nothing at all: no parse index, no lock file, no recovery of a leftover move, no change."""

from __future__ import annotations

from pathlib import Path

import pytest

from store import GLOBAL, CouldNotChange, MemoryStore
from tests.support.exchange_data import leftover_move
from tests.support.tree import tree_state


def test_a_read_only_store_reads_everything_and_writes_nothing(root: Path) -> None:
    moving = leftover_move(root)
    before = tree_state(root)
    store = MemoryStore(root, read_only=True)
    assert store.workspaces() == ["proj"]
    assert {m.title for m in store.memories(GLOBAL)} == {"Tea", "Runner"}  # the picture as it is
    assert [m.title for m in store.memories("proj")] == ["Runner"]
    assert [v.source for v in store.versions("proj", moving)] == ["settings", "settings"]
    assert [d.title for d in store.deleted("proj")] == ["Old"]
    assert store.problems() == [] and "Tea" in store.chat_memory("proj").text
    store.refresh()
    store.refresh_scopes([GLOBAL, "proj"])
    store.write_index_now()
    assert store._index_writer is None
    with pytest.raises(CouldNotChange, match="opened only to look"):
        store.create(GLOBAL, "New", "A new memory.")
    with pytest.raises(CouldNotChange, match="opened only to look"):
        store.change("proj", moving, text="Changed.")
    with pytest.raises(CouldNotChange, match="opened only to look"):
        store.delete("proj", moving)
    assert tree_state(root) == before


def test_the_same_tree_is_written_by_a_store_opened_to_change(root: Path) -> None:
    """The counterpart: a plain store finishes the move and writes its index and lock file,
    so the read-only test above is looking at a tree that an ordinary start does change."""
    moving = leftover_move(root)
    before = tree_state(root)
    store = MemoryStore(root)
    store.workspaces()
    if store._index_writer is not None:
        store._index_writer.join()
    after = tree_state(root)
    assert after != before
    assert ".lock" in after and ".move.json" not in after
    assert f"workspaces/proj/{moving}.md" not in after
    assert any(path.startswith("history/.index") for path in after)
