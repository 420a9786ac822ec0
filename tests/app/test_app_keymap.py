"""A person's keymap.yaml remaps keys by binding id; a bad one is reported, not fatal."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from oda_tui.app import OdaApp
from oda_tui.config.keymap import load_keymap
from oda_tui.keys.actions import ACTIONS, Place
from oda_tui.keys.bindings import palette_actions
from oda_tui.screens.help import HelpScreen
from store import GLOBAL, MemoryStore
from tests.support.app import settle, started


def test_load_keymap_reads_ids_and_reports_bad_lines(tmp_path: Path) -> None:
    path = tmp_path / "keymap.yaml"
    path.write_text("memory.new: ctrl+n\nmemory.toggle: ' space , t '\nbad: [1]\n")
    loaded = load_keymap(path)
    assert loaded.keymap == {"memory.new": "ctrl+n", "memory.toggle": "space,t"}
    assert loaded.problems == ["keymap.yaml: 'bad' needs keys as text, like ctrl+n"]
    path.write_text("- a list\n")
    assert load_keymap(path).problems == [
        "keymap.yaml should map binding ids to keys, like memory.new: ctrl+n"
    ]
    assert load_keymap(tmp_path / "missing.yaml") == load_keymap(tmp_path / "missing.yaml")
    assert load_keymap(tmp_path / "missing.yaml").keymap == {}


def test_an_unknown_binding_id_is_named_in_the_notice(tmp_path: Path) -> None:
    path = tmp_path / "keymap.yaml"
    path.write_text("bogus.id: x\nmemory.new: ctrl+n\n")
    loaded = load_keymap(path)
    assert loaded.keymap == {"memory.new": "ctrl+n"}
    assert loaded.problems == ["keymap.yaml: bogus.id is not a binding id (the help, ?, lists them)"]


SUB_SCREENS = [
    ("h", Place.HISTORY, "history.restore"),
    ("x", Place.DELETED, "deleted.purge"),
    ("exclamation_mark", Place.PROBLEMS, "problems.delete"),
    ("D", Place.DUPLICATES, "duplicates.keep"),
    ("r", Place.REVIEW, "review.accept"),
]


@pytest.mark.parametrize(("key", "place", "one_id"), SUB_SCREENS)
async def test_help_works_on_every_screen_with_its_own_keys_first(
    tmp_path: Path, key: str, place: Place, one_id: str
) -> None:
    root = tmp_path / "oda"
    MemoryStore(root).create(GLOBAL, "One", "Its text.", source="ai")
    app = OdaApp(root, watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await started(pilot)
        await pilot.press(key)
        await settle(pilot)
        sub = app.screen
        assert type(sub).HELP_PLACE is place  # type: ignore[attr-defined]
        for help_key in ("question_mark", "f1"):
            await pilot.press(help_key)
            assert isinstance(app.screen, HelpScreen)
            (first_title, first_rows), *_ = app.screen.sections
            assert first_title == place.value
            ids = [ident for _keys, _what, ident in first_rows]
            assert ids == [a.id for a in ACTIONS if a.place is place] and one_id in ids
            listed = {ident for _title, rows in app.screen.sections for _keys, _what, ident in rows}
            assert "screen.help" in listed and "app.quit" in listed
            await pilot.press("escape")
            assert app.screen is sub


async def test_the_main_help_lists_every_screens_keys(tmp_path: Path) -> None:
    app = OdaApp(tmp_path / "oda", watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await started(pilot)
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        listed = {ident for _title, rows in app.screen.sections for _keys, _what, ident in rows}
        assert {a.id for a in ACTIONS if a.place is not Place.HELP} <= listed


async def test_a_remapped_key_runs_its_action(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "config"
    config.mkdir()
    (config / "keymap.yaml").write_text("memory.new: ctrl+n\n")
    monkeypatch.setenv("ODA_TUI_CONFIG", str(config))
    app = OdaApp(tmp_path / "oda", watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await started(pilot)
        await pilot.press("n")  # the old key no longer makes a memory
        await settle(pilot)
        assert not screen.editor.is_new
        await pilot.press("ctrl+n")
        await settle(pilot)
        assert screen.editor.is_new
        await pilot.press("escape")
        await settle(pilot)


async def test_a_bad_keymap_is_a_notice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "config"
    config.mkdir()
    (config / "keymap.yaml").write_text("memory.new: [\n")
    monkeypatch.setenv("ODA_TUI_CONFIG", str(config))
    app = OdaApp(tmp_path / "oda", watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await started(pilot)
        messages = [n.message for n in app._notifications]
        assert any(m.startswith("Keymap: keymap.yaml is not valid YAML") for m in messages)


async def test_a_remapped_ctrl_key_works_while_the_filter_has_the_focus(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config"
    config.mkdir()
    (config / "keymap.yaml").write_text("memory.new: ctrl+n\nmemory.toggle: ctrl+t,t\n")
    monkeypatch.setenv("ODA_TUI_CONFIG", str(config))
    root = tmp_path / "oda"
    MemoryStore(root).create(GLOBAL, "Notes", "Some text.")
    app = OdaApp(root, watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await started(pilot)
        await pilot.press("slash", "n", "o", "t")
        await settle(pilot)
        filter_input = screen.query_one("#filter", Input)
        assert app.focused is filter_input
        # A printable key types into the filter, even one an action is bound to.
        assert filter_input.value == "not"
        assert not screen.editor.is_new
        assert screen.snapshot is not None and screen.snapshot.memories[GLOBAL][0].enabled
        # A remapped ctrl key runs its action from inside the filter.
        await pilot.press("ctrl+n")
        await settle(pilot)
        assert screen.editor.is_new


async def test_every_key_comes_from_the_registry(tmp_path: Path) -> None:
    app = OdaApp(tmp_path / "oda", watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await started(pilot)
        bound = {b.id for _key, b in screen._bindings} | {b.id for _key, b in app._bindings}
        bound |= {b.id for _key, b in screen.table._bindings}
        main_ids = {a.id for a in ACTIONS if a.place in (Place.MAIN, Place.APP, Place.LIST)}
        assert bound - {None} == main_ids
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        listed = {ident for _title, rows in app.screen.sections for _keys, _what, ident in rows}
        assert main_ids <= listed
        assert {"dialog.yes", "conflict.theirs", "picker.cancel"} <= listed


def test_the_palette_offers_the_registrys_actions() -> None:
    names = [a.palette for a in palette_actions()]
    assert "New memory" in names and "Help: every key of the app" in names
    assert all(a.place is Place.MAIN for a in palette_actions())
    assert len({a.id for a in ACTIONS}) == len(ACTIONS)  # one id, one action
