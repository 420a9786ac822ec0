"""Pilot tests: moving a memory to another scope, and a move the store refuses."""

from __future__ import annotations

from pathlib import Path

import pytest

from oda_tui.dialogs import ConfirmDialog
from oda_tui.dialogs.scope_picker import ScopePicker
from store import GLOBAL, MemoryStore, StoreError
from tests.support.app import cell_text, notices, run_app, settle


async def test_move_to_another_scope_keeps_the_history(root: Path, store: MemoryStore) -> None:
    tea = store.create(GLOBAL, "Tea", "Green.")
    store.change(GLOBAL, tea.id, text="Green, no sugar.")
    store.create("web", "Stack", "Django.")
    async with run_app(root, size=(100, 30)) as (app, pilot, screen):
        assert screen.table.current_id == tea.id
        await pilot.press("m")
        picker = app.screen
        assert isinstance(picker, ScopePicker)
        assert picker.scopes == ["web"]
        await pilot.press("enter")
        await settle(pilot)
        after = MemoryStore(root)
        assert after.memories(GLOBAL) == []
        [moved] = [m for m in after.memories("web") if m.title == "Tea"]
        assert moved.text == "Green, no sugar."
        assert [v.text for v in after.versions("web", moved.id)] == ["Green, no sugar.", "Green."]
        assert notices(app)[-1] == "Moved “Tea” to web."
        assert screen.table.memory_ids == []  # Global is empty now
        screen.jump_to("web", moved.id)
        await settle(pilot)
        assert cell_text(screen, moved.id, "title") == "Tea"


async def test_a_refused_move_says_the_stores_words(root: Path, limited: MemoryStore) -> None:
    limited.create("web", "Notes", "n" * 1900)
    big = limited.create("api", "Big", "b" * 300)
    async with run_app(root, "api", size=(100, 30)) as (app, pilot, screen):
        assert screen.table.current_id == big.id
        await pilot.press("m")
        assert isinstance(app.screen, ScopePicker)
        assert app.screen.scopes == [GLOBAL, "web"]
        await pilot.press("down", "enter")
        await settle(pilot)
        with pytest.raises(StoreError) as refused:
            MemoryStore(root).move("api", big.id, "web")
        assert "web" in str(refused.value)
        assert notices(app)[-1] == str(refused.value)
        assert [m.id for m in MemoryStore(root).memories("api")] == [big.id]
        assert screen.table.memory_ids == [big.id]


async def test_moving_the_open_memory_with_unsaved_edits_asks_first(root: Path, store: MemoryStore) -> None:
    tea = store.create(GLOBAL, "Tea", "Green.")
    store.create("web", "Stack", "Django.")
    async with run_app(root) as (app, pilot, screen):
        await pilot.press("enter", "end", *" Hot.", "escape", "m")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")
        await settle(pilot)
        assert not isinstance(app.screen, ScopePicker)
        assert screen.editor.is_dirty
        assert [m.id for m in MemoryStore(root).memories(GLOBAL)] == [tea.id]
