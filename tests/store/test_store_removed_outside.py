"""A memory file removed outside the app (``rm``) whose versions remain waits under Recently
deleted: listed, restored from its newest version, or purged."""

from __future__ import annotations

from pathlib import Path

from store import GLOBAL, MemoryStore


def test_a_file_removed_outside_waits_under_deleted_and_comes_back(root: Path, store: MemoryStore) -> None:
    memory = store.create(GLOBAL, "Kept", "Its text.")
    store.change(GLOBAL, memory.id, text="Its newer text.")
    Path(memory.path).unlink()  # rm, outside the app
    store.refresh()
    [waiting] = store.deleted(GLOBAL)
    assert (waiting.id, waiting.title, waiting.text, waiting.outside) == (
        memory.id,
        "Kept",
        "Its newer text.",
        True,
    )
    back = store.restore_deleted(GLOBAL, memory.id)
    assert back is not None and (back.title, back.text) == ("Kept", "Its newer text.")
    assert store.deleted(GLOBAL) == []
    assert MemoryStore(root).get(GLOBAL, memory.id).text == "Its newer text."


def test_a_file_removed_outside_can_be_purged(store: MemoryStore) -> None:
    memory = store.create(GLOBAL, "Gone", "For good.")
    Path(memory.path).unlink()
    store.purge_deleted(GLOBAL, memory.id)
    assert store.deleted(GLOBAL) == [] and store.versions(GLOBAL, memory.id) == []
