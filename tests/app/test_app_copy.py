"""Pilot test: copying a memory to another scope."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from oda_tui.dialogs.scope_picker import ScopePicker
from store import GLOBAL, MemoryStore
from tests.support.app import notices, run_app, settle


async def test_copy_to_another_scope(root: Path, store: MemoryStore) -> None:
    memory = store.create(GLOBAL, "Tea", "Green.", source="ai", session_id="s-9", via="chat")
    store.create("web", "Stack", "Django.")
    async with run_app(root, size=(100, 30)) as (app, pilot, _):
        await pilot.press("c")
        assert isinstance(app.screen, ScopePicker)
        await pilot.press("enter")
        await settle(pilot)
        copies = [m for m in MemoryStore(root).memories("web") if m.title == "Tea"]
        assert [(m.text, m.source, m.session_id) for m in copies] == [("Green.", "ai", "s-9")]
        assert MemoryStore(root).get(GLOBAL, memory.id).text == "Green."
        assert notices(app)[-1] == "Copied “Tea” to web."


async def test_copy_and_move_to_a_new_workspace(root: Path, store: MemoryStore) -> None:
    tea = store.create(GLOBAL, "Tea", "Green.")
    store.create(GLOBAL, "Coffee", "Black.")
    async with run_app(root, size=(100, 30)) as (app, pilot, screen):
        await pilot.press("c")  # only Global exists: the picker still offers a new workspace
        picker = app.screen
        assert isinstance(picker, ScopePicker)
        await pilot.press("enter")  # "New workspace…"
        await pilot.press(*"bad key!", "enter")
        assert picker.has_class("-new") and app.screen is picker  # refused: not a key
        assert "A workspace key is letters, digits" in str(picker.query_one("#new-key-problem").render())
        picker.query_one("#new-key", Input).value = ""
        await pilot.press(*"tea-room", "enter")
        await settle(pilot)
        assert [m.title for m in MemoryStore(root).memories("tea-room")] == ["Tea"]
        assert screen.snapshot is not None
        assert "tea-room" in [s.scope for s in screen.snapshot.scopes]
        # Move the other one to another new workspace, with its history.
        await pilot.press("down", "m")
        assert isinstance(app.screen, ScopePicker)
        await pilot.press("end", "enter", *"coffee", "enter")
        await settle(pilot)
        fresh = MemoryStore(root)
        assert [m.title for m in fresh.memories("coffee")] == ["Coffee"]
        assert [m.id for m in fresh.memories(GLOBAL)] == [tea.id]
