"""Pilot tests: each sub-screen's footer (and the scope picker's) offers the keys that work on
what it shows, and only those."""

from __future__ import annotations

from pathlib import Path

from oda_tui.dialogs.scope_picker import ScopePicker
from oda_tui.screens.deleted import DeletedScreen
from oda_tui.screens.duplicates import DuplicatesScreen
from oda_tui.screens.review import ReviewScreen
from store import GLOBAL, MemoryStore
from tests.support.app import offered, open_view, run_app, settle, wait_until


async def test_an_empty_recently_deleted_offers_no_restore_or_purge(root: Path, store: MemoryStore) -> None:
    store.create(GLOBAL, "Tea", "Green tea.")
    async with run_app(root) as (_app, pilot, _screen):
        view = await open_view(pilot, "x", DeletedScreen)
        keys = offered(view)
        assert "close" in keys and not keys & {"restore", "purge"}
        await pilot.press("escape", "d", "y")  # delete the memory: now there is one to restore
        await settle(pilot)
        view = await open_view(pilot, "x", DeletedScreen)
        await wait_until(pilot, lambda: {"restore", "purge"} <= offered(view), "restore and purge offered")


async def test_duplicates_emptied_offer_no_keep_or_delete(root: Path, store: MemoryStore) -> None:
    store.create(GLOBAL, "Tea", "Green tea.")
    store.create(GLOBAL, "Tea again", "Green tea.")
    async with run_app(root) as (_app, pilot, _screen):
        view = await open_view(pilot, "D", DuplicatesScreen)
        await wait_until(pilot, lambda: {"keep", "delete_others"} <= offered(view), "keep offered")
        await pilot.press("K")  # keep the first, the other is turned off: no duplicates left
        await wait_until(pilot, lambda: not view.groups, "the group resolved")
        await settle(pilot)
        keys = offered(view)
        assert "close" in keys and not keys & {"keep", "delete_others"}


async def test_review_offers_turn_off_only_on_a_memory_that_is_on(root: Path, store: MemoryStore) -> None:
    store.create(GLOBAL, "Off already", "Saved off.", enabled=False, source="ai", via="chat")
    store.create(GLOBAL, "On", "Saved on.", source="ai", via="chat")
    async with run_app(root) as (_app, pilot, _screen):
        view = await open_view(pilot, "r", ReviewScreen)
        await wait_until(pilot, lambda: len(view.items) == 2, "both to review")

        def on_row() -> bool:
            return view._selected() is not None and view._selected().memory.enabled  # type: ignore[union-attr]

        for _ in view.items:
            await settle(pilot)
            assert ("turn_off" in offered(view)) == on_row()
            assert {"accept", "edit", "delete"} <= offered(view)
            await pilot.press("down")


async def test_an_empty_review_offers_only_back_and_help(root: Path) -> None:
    async with run_app(root) as (_app, pilot, _screen):
        view = await open_view(pilot, "r", ReviewScreen)
        assert not offered(view) & {"accept", "edit", "turn_off", "delete"}


async def test_the_move_picker_offers_enter_to_pick(root: Path, store: MemoryStore) -> None:
    store.create(GLOBAL, "Tea", "Green tea.")
    async with run_app(root) as (app, pilot, _screen):
        await pilot.press("m")
        await wait_until(pilot, lambda: isinstance(app.screen, ScopePicker), "the scope picker")
        assert {"pick", "cancel"} <= offered(app.screen)
        await pilot.press("down", "enter")  # "New workspace…": the key field has Enter too
        await settle(pilot)
        assert "pick" in offered(app.screen)
        await pilot.press(*"web", "enter")
        await wait_until(pilot, lambda: bool(MemoryStore(root).memories("web")), "the move")
