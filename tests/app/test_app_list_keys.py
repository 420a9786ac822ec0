"""The keys a keyboard person expects in every list (j/k, g/G, Ctrl+D/Ctrl+U), the cursor's place
in each list's border, Down from the filter into the list, and 1/2/3 between the panes."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widget import Widget
from textual.widgets import OptionList

from oda_tui.app import OdaApp
from oda_tui.screens.deleted import DeletedScreen
from oda_tui.screens.duplicates import DuplicatesScreen
from store import GLOBAL, MemoryStore
from tests.support.app import settle, started, wait_until


def focus_of(app: OdaApp) -> Widget | None:
    """The focused widget, read afresh each time (not narrowed by an earlier assert)."""
    return app.focused


def many(root: Path, count: int) -> MemoryStore:
    store = MemoryStore(root)
    for n in range(count):
        store.create(GLOBAL, f"Memory {n:03}", f"Text {n}.")
    return store


async def test_vim_keys_move_in_the_memory_list_and_its_border_says_where(tmp_path: Path) -> None:
    root = tmp_path / "oda"
    many(root, 40)
    MemoryStore(root).create("web", "Elsewhere", "Another scope.")
    app = OdaApp(root, watch=False)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await started(pilot)
        table = screen.table
        ids = table.memory_ids
        assert table.border_subtitle == "1/40"
        await pilot.press("j", "j")
        assert table.current_id == ids[2] and table.border_subtitle == "3/40"
        await pilot.press("k")
        assert table.cursor_row == 1
        await pilot.press("G")
        assert table.current_id == ids[-1] and table.border_subtitle == "40/40"
        await pilot.press("g")
        assert table.cursor_row == 0
        await pilot.press("ctrl+d")
        half = table.cursor_row
        assert 1 <= half < 39
        await pilot.press("ctrl+d")
        assert table.cursor_row == 2 * half
        await pilot.press("ctrl+u")
        assert table.cursor_row == half
        # The editor follows the cursor, as with the arrows.
        await settle(pilot)
        assert screen.editor.memory_id == ids[half]
        # A filter: the position counts the rows listed.
        await pilot.press("slash", "0", "0")
        await wait_until(pilot, lambda: table.row_count == 10, "the filter")
        assert table.border_subtitle == f"{table.cursor_row + 1}/10"


async def test_down_from_the_filter_goes_into_the_list_keeping_the_filter(tmp_path: Path) -> None:
    root = tmp_path / "oda"
    many(root, 5)
    app = OdaApp(root, watch=False)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await started(pilot)
        await pilot.press("slash", "M", "e")
        assert focus_of(app) is screen.browse.filter_input
        await pilot.press("down")
        assert focus_of(app) is screen.table
        assert screen.browse.filter_input.value == "Me" and screen.browse.filter_words == ["me"]
        await pilot.press("j")  # now the list's keys
        assert screen.table.cursor_row == 1


@pytest.mark.parametrize("size", [(120, 30), (80, 24), (60, 20)])
async def test_1_2_3_go_to_the_scopes_the_list_and_the_editor(tmp_path: Path, size: tuple[int, int]) -> None:
    root = tmp_path / "oda"
    many(root, 3)
    app = OdaApp(root, watch=False)
    async with app.run_test(size=size) as pilot:
        screen = await started(pilot)
        await pilot.press("3")
        await wait_until(pilot, lambda: focus_of(app) is screen.editor.text_area, "the editor's text")
        assert screen.editor.text_area.region.area > 0  # on screen, on a narrow one too
        await pilot.press("escape", "1")
        assert focus_of(app) is screen.scopes
        assert screen.scopes.region.area > 0
        await pilot.press("2")
        assert focus_of(app) is screen.table
        await pilot.press("p", "1", "3")  # the preview shown: 3 goes there
        await wait_until(pilot, lambda: focus_of(app) is screen.detail.preview, "the preview")


async def test_the_scopes_list_takes_the_same_keys(tmp_path: Path) -> None:
    root = tmp_path / "oda"
    store = MemoryStore(root)
    for key in ("a-web", "b-cli", "c-docs"):
        store.create(key, "One", f"In {key}.")
    app = OdaApp(root, watch=False)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await started(pilot)
        await pilot.press("1")
        assert screen.scopes.border_subtitle == "1/4"
        await pilot.press("G")
        await settle(pilot)
        assert screen.scope == "c-docs" and screen.scopes.border_subtitle == "4/4"
        await pilot.press("k")
        await settle(pilot)
        assert screen.scope == "b-cli"


async def test_a_sub_screens_list_takes_the_same_keys(tmp_path: Path) -> None:
    root = tmp_path / "oda"
    store = many(root, 6)
    for memory in store.memories(GLOBAL):
        store.delete(GLOBAL, memory.id)
    app = OdaApp(root, watch=False)
    async with app.run_test(size=(120, 30)) as pilot:
        await started(pilot)
        await pilot.press("x")
        deleted = app.screen
        assert isinstance(deleted, DeletedScreen)
        await settle(pilot)
        listed = deleted.query_one("#deleted-list", OptionList)
        assert listed.highlighted == 0 and listed.border_subtitle == "1/6"
        await pilot.press("j", "j")
        assert listed.highlighted == 2 and listed.border_subtitle == "3/6"
        await pilot.press("G")
        assert listed.highlighted == 5
        await pilot.press("k", "g")
        assert listed.highlighted == 0
        await pilot.press("ctrl+d")
        assert listed.highlighted is not None and listed.highlighted > 0


async def test_in_duplicates_k_moves_up_and_shift_k_keeps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ODA_TUI_STATE", str(tmp_path / "state"))
    root = tmp_path / "oda"
    store = MemoryStore(root)
    first = store.create(GLOBAL, "Tea", "Green tea, no sugar.")
    second = store.create("web", "Tea", "Green tea, no sugar.")
    app = OdaApp(root, watch=False)
    async with app.run_test(size=(120, 30)) as pilot:
        await started(pilot)
        await pilot.press("D")
        view = app.screen
        assert isinstance(view, DuplicatesScreen)
        await settle(pilot)
        listed = view.query_one("#duplicate-list", OptionList)
        # The group's heading is not a row to choose: two of two.
        assert listed.border_subtitle == "1/2"
        await pilot.press("j")
        assert listed.border_subtitle == "2/2"
        await pilot.press("k")  # up, not keep
        await settle(pilot)
        assert listed.border_subtitle == "1/2"
        assert [
            m.enabled
            for m in (MemoryStore(root).get(GLOBAL, first.id), MemoryStore(root).get("web", second.id))
        ] == [True, True]
        await pilot.press("K")
        await settle(pilot)
        kept = MemoryStore(root)
        assert (kept.get(GLOBAL, first.id).enabled, kept.get("web", second.id).enabled) == (True, False)


async def test_a_remapped_list_key_works_in_every_list(tmp_path: Path, config_folder: Path) -> None:
    config_folder.mkdir()
    (config_folder / "keymap.yaml").write_text("list.down: o,down\n", encoding="utf-8")
    root = tmp_path / "oda"
    store = many(root, 3)
    for memory in store.memories(GLOBAL)[:2]:
        store.delete(GLOBAL, memory.id)
    app = OdaApp(root, watch=False)
    async with app.run_test(size=(120, 30)) as pilot:
        await started(pilot)
        await pilot.press("x")
        await settle(pilot)
        listed = app.screen.query_one("#deleted-list", OptionList)
        await pilot.press("o")
        assert listed.highlighted == 1
