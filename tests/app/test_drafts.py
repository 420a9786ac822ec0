"""The drafts file format: one private file per store and memory, bounded, no link followed."""

from __future__ import annotations

import stat
from pathlib import Path

from oda_tui.own_files.drafts import MAX_BYTES, SET_ASIDE, draft_path, keep, kept_drafts, new_draft
from store import GLOBAL, MemoryStore


def test_a_draft_is_kept_privately_and_read_back(tmp_path: Path) -> None:
    root, folder = tmp_path / "oda", tmp_path / "drafts"
    memory = MemoryStore(root).create("web", "Stack", "Django.")
    path = keep(new_draft(root, "web", memory, "Stack “2”", "Django and\nHTMX.", False), folder)
    assert path == draft_path(root, "web", memory.id, folder)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    [draft] = kept_drafts(root, folder).drafts
    assert (draft.scope, draft.memory_id, draft.title, draft.text, draft.enabled) == (
        "web",
        memory.id,
        "Stack “2”",
        "Django and\nHTMX.",
        False,
    )
    assert not draft.changed_since(memory)
    assert draft.changed_since(memory._replace(text="Flask."))
    assert draft.changed_since(memory._replace(enabled=False))
    assert [p.name for p in folder.iterdir()] == [path.name]  # the temp file was renamed


def test_one_file_per_store_and_memory(tmp_path: Path) -> None:
    one, two, folder = tmp_path / "one", tmp_path / "two", tmp_path / "drafts"
    keep(new_draft(one, GLOBAL, None, "A", "a", True), folder)
    keep(new_draft(one, GLOBAL, None, "B", "b", True), folder)  # the same new memory: replaced
    keep(new_draft(one, "web", None, "C", "c", True), folder)
    keep(new_draft(two, GLOBAL, None, "D", "d", True), folder)
    assert sorted(d.title for d in kept_drafts(one, folder).drafts) == ["B", "C"]
    assert [d.title for d in kept_drafts(two, folder).drafts] == ["D"]


def test_a_draft_over_the_bound_is_not_written(tmp_path: Path) -> None:
    folder = tmp_path / "drafts"
    assert keep(new_draft(tmp_path / "oda", GLOBAL, None, "Big", "x" * MAX_BYTES, True), folder) is None
    assert not folder.exists()


def test_a_link_named_as_a_draft_is_not_followed(tmp_path: Path) -> None:
    root, folder = tmp_path / "oda", tmp_path / "drafts"
    real = keep(new_draft(root, GLOBAL, None, "Elsewhere", "x", True), tmp_path / "other")
    assert real is not None
    link = draft_path(root, GLOBAL, None, folder)
    folder.mkdir()
    link.symlink_to(real)
    found = kept_drafts(root, folder)
    assert found.drafts == []
    [(aside, _why)] = found.set_aside
    assert aside == Path(f"{link}{SET_ASIDE}") and aside.is_symlink() and real.exists()


def test_no_drafts_folder_means_no_drafts(tmp_path: Path) -> None:
    found = kept_drafts(tmp_path / "oda", tmp_path / "nothing")
    assert (found.drafts, found.set_aside) == ([], [])
