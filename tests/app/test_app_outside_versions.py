"""An outside edit the app sees is kept as a version at once, so a file edited and then removed
outside can be restored with its last text."""

from __future__ import annotations

from pathlib import Path

import pytest

from oda_tui.session.outside_edits import keep_outside_edits, memory_of
from store import GLOBAL, CouldNotChange, MemoryStore
from tests.support.app import cell_text, run_app, wait_until, write_raw


def test_an_outside_edit_is_kept_once(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path / "oda")
    memory = store.create(GLOBAL, "Tea", "Green tea.")
    path = store.memory_path(GLOBAL, memory.id)
    path.write_text(path.read_text("utf-8").replace("Green", "Black"), "utf-8")
    store.refresh()
    assert store.keep_outside_edit(GLOBAL, memory.id) is True
    assert store.keep_outside_edit(GLOBAL, memory.id) is False  # the same text once
    newest = store.versions(GLOBAL, memory.id)[0]
    assert (newest.source, newest.text) == ("external", "Black tea.")
    assert path.read_text("utf-8").count("Black tea.") == 1  # the file itself is not rewritten


def test_a_problem_file_is_never_rewritten_nor_kept(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path / "oda")
    path = write_raw(store.memory_path(GLOBAL, "0badf11e"), "no frontmatter\n")
    store.refresh()
    with pytest.raises(CouldNotChange):
        store.keep_outside_edit(GLOBAL, "0badf11e")
    assert keep_outside_edits(store, [path]) == 0
    assert path.read_bytes() == b"no frontmatter\n"
    assert not (store.root / "history" / "global" / "0badf11e").exists()


def test_which_paths_are_memories(root: Path) -> None:
    assert memory_of(root, root / "global" / "0000000a.md") == (GLOBAL, "0000000a")
    assert memory_of(root, root / "workspaces" / "web" / "0000000a.md") == ("web", "0000000a")
    for other in ("global/x.md", "global/0000000a.txt", "workspaces/0000000a.md", "settings.yaml"):
        assert memory_of(root, root / other) is None


async def test_an_edit_then_a_removal_outside_restores_the_last_text(root: Path, store: MemoryStore) -> None:
    memory = store.create(GLOBAL, "Tea", "Green tea.")
    path = store.memory_path(GLOBAL, memory.id)
    async with run_app(root, watch=True) as (_, pilot, screen):
        # In place, as an editor that does not save by rename would.
        path.write_text(path.read_text("utf-8").replace("Tea", "Black tea"), "utf-8")
        await wait_until(
            pilot, lambda: cell_text(screen, memory.id, "title") == "Black tea", "the edit to show"
        )
        path.unlink()
        await wait_until(pilot, lambda: screen.table.current_id != memory.id, "the removal to show")
    restored = MemoryStore(root).restore_deleted(GLOBAL, memory.id)
    assert restored is not None
    assert (restored.title, restored.text) == ("Black tea", "Green tea.")
