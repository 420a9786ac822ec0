"""Pilot tests of Recently deleted: restore, and purge after a confirmation."""

from __future__ import annotations

from pathlib import Path

from oda_tui.dialogs import ConfirmDialog
from oda_tui.screens.deleted import DeletedScreen
from store import GLOBAL, MemoryStore
from tests.support.app import open_view, run_app, settle, static_text


async def test_restore_and_purge(root: Path, store: MemoryStore) -> None:
    keep = store.create(GLOBAL, "Keep me", "Worth keeping.")
    gone = store.create("web", "[/bold] old", "Obsolete.")
    store.delete(GLOBAL, keep.id)
    store.delete("web", gone.id)
    async with run_app(root, size=(100, 30)) as (app, pilot, screen):
        assert screen.table.row_count == 0
        deleted = await open_view(pilot, "x", DeletedScreen)
        # Newest first across every scope (gone was deleted after keep).
        waiting = MemoryStore(root).deleted(GLOBAL) + MemoryStore(root).deleted("web")
        order = [d.id for d in sorted(waiting, key=lambda d: (d.deleted_at, d.id), reverse=True)]
        assert [e.id for e in deleted.entries] == order
        if order[0] == gone.id:
            await pilot.press("down")
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


async def test_a_file_removed_outside_the_app_is_listed_and_restored(root: Path, store: MemoryStore) -> None:
    first = store.create(GLOBAL, "Deleted in the app", "Waits here.")
    store.delete(GLOBAL, first.id)
    removed = store.create(GLOBAL, "Removed with rm", "Its text, kept in history.")
    Path(removed.path).unlink()
    async with run_app(root, size=(100, 30)) as (app, pilot, _):
        deleted = await open_view(pilot, "x", DeletedScreen)
        waiting = sorted(MemoryStore(root).deleted(GLOBAL), key=lambda d: (d.deleted_at, d.id), reverse=True)
        assert [e.id for e in deleted.entries] == [d.id for d in waiting]  # newest first
        assert {e.id for e in deleted.entries} == {removed.id, first.id}
        if deleted.entries[0].id != removed.id:
            await pilot.press("down")
        assert [e.outside for e in deleted.entries if e.id == removed.id] == [True]
        head = static_text(deleted.query_one("#deleted-head"))
        assert "removed outside the app" in head and "Its newest version, which r restores:" in head
        assert static_text(deleted.query_one("#deleted-text")) == "Its text, kept in history."
        await pilot.press("r")
        await settle(pilot)
        back = MemoryStore(root).get(GLOBAL, removed.id)
        assert (back.title, back.text) == ("Removed with rm", "Its text, kept in history.")
        assert [e.id for e in deleted.entries] == [first.id]
