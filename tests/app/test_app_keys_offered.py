"""The main screen offers the keys that work where the focus is, and keeps a key pressed before
the editor pane is there."""

from __future__ import annotations

from pathlib import Path

import pytest

from oda_tui.app import OdaApp
from oda_tui.screens.history import HistoryScreen
from oda_tui.screens.main.detail_mount import DetailMount
from store import GLOBAL, MemoryStore
from tests.support.app import main_screen, offered, run_app, settle, wait_until


async def test_an_empty_store_offers_only_what_works(root: Path) -> None:
    async with run_app(root, size=(200, 40)) as (_, pilot, screen):
        await settle(pilot)
        keys = offered(screen)
        assert {"new_memory", "filter", "help", "quit"} <= keys
        nothing_to_act_on = {"choose", "toggle_memory", "delete_memory"}
        assert not keys & (nothing_to_act_on | {"open_history"})
        await pilot.press("n", "O", "n", "e", "tab", "tab", "x", "ctrl+s")  # a first memory
        await wait_until(pilot, lambda: bool(MemoryStore(root).memories(GLOBAL)), "saved")
        screen.table.focus()
        await wait_until(pilot, lambda: "open_history" in offered(screen), "History offered")
        assert nothing_to_act_on <= offered(screen)


async def test_filter_is_not_offered_while_a_text_field_has_the_focus(root: Path) -> None:
    MemoryStore(root).create(GLOBAL, "One", "Its text.")
    async with run_app(root) as (_, pilot, screen):
        assert "filter" in offered(screen)
        screen.editor.title_input.focus()
        await wait_until(pilot, lambda: "filter" not in offered(screen), "/ no longer offered")
        await pilot.press("slash")
        assert screen.editor.title_input.value == "One/"  # it types


async def test_t_on_the_switch_is_an_edit_like_space(root: Path) -> None:
    MemoryStore(root).create(GLOBAL, "One", "Its text.")
    async with run_app(root) as (_, pilot, screen):
        editor = screen.editor
        for key in ("t", "space"):
            editor.switch.focus()
            await pilot.press(key)
            await settle(pilot)
            assert editor.switch.value is False and editor.is_dirty
            [memory] = MemoryStore(root).memories(GLOBAL)
            assert memory.enabled  # nothing on disk until Ctrl+S
            await pilot.press("ctrl+r")
            await wait_until(pilot, lambda: not editor.is_dirty, "the edit reverted")
            assert editor.switch.value is True
        editor.switch.focus()
        await pilot.press("t", "ctrl+s")
        await wait_until(pilot, lambda: not MemoryStore(root).memories(GLOBAL)[0].enabled, "saved off")
        screen.table.focus()  # in the list, t turns it on or off at once
        await pilot.press("t")
        await wait_until(pilot, lambda: MemoryStore(root).memories(GLOBAL)[0].enabled, "on at once")


async def test_a_key_pressed_before_the_editor_pane_is_kept(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    MemoryStore(root).create(GLOBAL, "One", "Its text.")
    held: list[DetailMount] = []
    real_start = DetailMount.start
    monkeypatch.setattr(DetailMount, "start", lambda self: held.append(self))  # the pane waits
    app = OdaApp(root, watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = main_screen(pilot)
        await wait_until(pilot, lambda: screen.table.current_id is not None and bool(held), "the list")
        await pilot.press("h")  # the list is there, the editor pane not yet
        await settle(pilot)
        assert not screen.detail_ready and not isinstance(app.screen, HistoryScreen)
        real_start(held[0])
        await wait_until(
            pilot, lambda: isinstance(app.screen, HistoryScreen), "History, once the pane is there"
        )


async def test_narrowing_with_the_preview_open_keeps_the_focus_on_screen(root: Path) -> None:
    MemoryStore(root).create(GLOBAL, "One", "Its text.")
    async with run_app(root) as (app, pilot, screen):
        await pilot.press("p")  # the chat preview beside the list, the focus in the list
        await settle(pilot)
        await pilot.resize_terminal(80, 24)
        await wait_until(pilot, lambda: screen.has_class("-narrow"), "one pane at a time")
        focused = app.focused
        assert focused is screen.table and focused.display and screen.browse.display
        await pilot.press("enter")  # the keys work: Enter opens the editor
        await wait_until(pilot, lambda: app.focused is screen.editor.text_area, "the editor")


async def test_the_keys_on_a_memory_go_when_another_program_removes_the_last_one(
    root: Path, store: MemoryStore
) -> None:
    only = store.create(GLOBAL, "One", "Its text.")
    async with run_app(root, watch=True, size=(200, 40)) as (_, pilot, screen):
        screen.table.focus()
        on_a_memory = {"choose", "toggle_memory", "delete_memory"}
        await wait_until(pilot, lambda: on_a_memory <= offered(screen), "the keys on a memory offered")
        store.memory_path(GLOBAL, only.id).unlink()
        await wait_until(pilot, lambda: screen.table.row_count == 0, "the list emptied")
        assert screen.table.has_focus
        await wait_until(pilot, lambda: not offered(screen) & on_a_memory, "the keys on a memory gone")
