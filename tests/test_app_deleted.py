"""Pilot tests of Recently deleted: restore, and purge after a confirmation."""

from __future__ import annotations

from pathlib import Path

from app_support import settle, started, static_text

from oda_tui.app import OdaApp
from oda_tui.dialogs import ConfirmDialog
from oda_tui.screens.deleted import DeletedScreen
from store import GLOBAL, MemoryStore


async def test_restore_and_purge(tmp_path: Path) -> None:
    root = tmp_path / "oda"
    store = MemoryStore(root)
    keep = store.create(GLOBAL, "Keep me", "Worth keeping.")
    gone = store.create("web", "[/bold] old", "Obsolete.")
    store.delete(GLOBAL, keep.id)
    store.delete("web", gone.id)
    app = OdaApp(root, watch=False)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await started(pilot)
        assert screen.table.row_count == 0
        await pilot.press("x")
        deleted = app.screen
        assert isinstance(deleted, DeletedScreen)
        await settle(pilot)
        assert [e.id for e in deleted.entries] == [keep.id, gone.id]
        assert "Worth keeping." in static_text(deleted.query_one("#deleted-text"))
        await pilot.press("enter")
        await settle(pilot)
        assert [m.id for m in MemoryStore(root).memories(GLOBAL)] == [keep.id]
        assert [e.id for e in deleted.entries] == [gone.id]
        assert screen.table.memory_ids == [keep.id]
        # Purge asks first and says it cannot be undone.
        await pilot.press("x")
        assert isinstance(app.screen, ConfirmDialog)
        assert "cannot be undone" in app.screen.detail
        assert app.screen.question == "Purge “[/bold] old” for good?"
        await pilot.press("escape")
        await settle(pilot)
        assert [d.id for d in MemoryStore(root).deleted("web")] == [gone.id]
        await pilot.press("x", "y")
        await settle(pilot)
        assert MemoryStore(root).deleted("web") == []
        assert MemoryStore(root).versions("web", gone.id) == []
        assert deleted.entries == []
