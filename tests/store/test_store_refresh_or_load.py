"""``refresh_or_load``: a store not loaded yet is loaded (nothing to report); a loaded one is
refreshed and reports what changed."""

from __future__ import annotations

from pathlib import Path

from store import GLOBAL, MemoryStore
from tests.support.files import memory_file, write_raw


def test_a_first_look_loads_and_a_later_one_refreshes(root: Path) -> None:
    write_raw(root / "global" / "abcdef01.md", memory_file("Tea", "Green tea."))
    store = MemoryStore(root)
    assert store.refresh_or_load() == set()
    assert [m.text for m in store.memories(GLOBAL)] == ["Green tea."]
    path = write_raw(root / "global" / "abcdef01.md", memory_file("Tea", "Black tea."))
    assert store.refresh_or_load() == {path}
    assert [m.text for m in store.memories(GLOBAL)] == ["Black tea."]
