"""A person's keymap.yaml remaps keys by binding id; a bad one is reported, not fatal."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input
from textual.widgets._footer import FooterKey

from oda_tui.config.keymap import KeymapLoad, load_keymap, parse_keymap
from oda_tui.keys.actions import ACTIONS, Place
from oda_tui.keys.bindings import palette_actions
from oda_tui.keys.clashes import without_clashes
from oda_tui.screens.base import SubScreen
from oda_tui.screens.help import HelpScreen
from oda_tui.widgets.key_footer import KeyFooter
from store import GLOBAL, MemoryStore
from tests.support.app import notices, open_view, run_app, settle, wait_until, write_raw


def test_each_line_stands_on_its_own(tmp_path: Path) -> None:
    path = tmp_path / "keymap.yaml"
    path.write_text(
        "# my keys\n"
        "memory.new: ctrl+n\n"
        "this line is not a mapping\n"
        "memory.toggle: ' space , t '\n"
        "bad: [1]\n"
        "- a list\n"
        "memory.history: [h, ctrl+h]\n"
        "memory.delete: [\n"
    )
    loaded = load_keymap(path)
    assert loaded.keymap == {"memory.new": "ctrl+n", "memory.toggle": "space,t", "memory.history": "h,ctrl+h"}
    assert loaded.problems == [
        "keymap.yaml line 3: “this line is not a mapping” is not “binding.id: keys”, so it is not used.",
        "keymap.yaml line 5: bad is not a binding id (the help, ?, lists them).",
        "keymap.yaml line 6: “- a list” is not “binding.id: keys”, so it is not used.",
        "keymap.yaml line 8: “memory.delete: [” is not “binding.id: keys”, so it is not used.",
    ]
    assert load_keymap(tmp_path / "missing.yaml") == KeymapLoad({}, [])


def test_an_unknown_binding_id_is_named_in_the_notice(tmp_path: Path) -> None:
    path = tmp_path / "keymap.yaml"
    path.write_text("bogus.id: x\nmemory.new: ctrl+n\n")
    loaded = load_keymap(path)
    assert loaded.keymap == {"memory.new": "ctrl+n"}
    assert loaded.problems == ["keymap.yaml line 1: bogus.id is not a binding id (the help, ?, lists them)."]


def test_a_misspelled_key_is_named_and_the_default_stays() -> None:
    loaded = parse_keymap("memory.new: ctlr+n\nmemory.toggle: t, ctrl+tt\nmemory.delete: '%'\n")
    assert loaded.keymap == {"memory.delete": "percent_sign"}  # a typed character, by its name
    assert loaded.problems == [
        "keymap.yaml line 1: “ctlr+n” is not a key (keys are written like ctrl+n, f2, escape or a "
        "single character), so memory.new keeps n.",
        "keymap.yaml line 2: “ctrl+tt” is not a key (keys are written like ctrl+n, f2, escape or a "
        "single character), so memory.toggle keeps t.",
    ]
    # `?` is the help's on the main screen: given to Delete it is a clash, not a misspelling.
    assert parse_keymap("memory.delete: '?'\n").problems == [
        "keymap.yaml line 1: question_mark is already the key of app.help (Help) on the main screen's "
        "list, so memory.delete keeps d, delete."
    ]


def test_a_key_given_twice_on_one_screen_is_named_and_the_defaults_stay() -> None:
    loaded = parse_keymap("memory.toggle: d\nmemory.new: ctrl+n\nhistory.undo: n\n")
    # `n` is free in History (New is a key of the main screen only): no clash there.
    assert loaded.keymap == {"memory.new": "ctrl+n", "history.undo": "n"}
    assert loaded.problems == [
        "keymap.yaml line 1: d is already the key of memory.delete (Delete) on the main screen's list, "
        "so memory.toggle keeps t."
    ]
    swapped = parse_keymap("memory.toggle: d\nmemory.delete: t\n")
    assert swapped == KeymapLoad({"memory.toggle": "d", "memory.delete": "t"}, [])
    both = parse_keymap("memory.toggle: x\nview.deleted: x\n")
    assert both.keymap == {}
    assert [p.split(":")[0] for p in both.problems] == ["keymap.yaml line 1", "keymap.yaml line 2"]
    twice = parse_keymap("memory.new: a\nmemory.new: b\nmemory.new: ctlr+c\n")
    assert twice == KeymapLoad(
        {},
        [
            "keymap.yaml line 2: memory.new is given keys twice (line 1 too), so it keeps n.",
            "keymap.yaml line 3: memory.new is given keys twice (line 1 too), so it keeps n.",
        ],
    )
    app_key = parse_keymap("memory.new: ctrl+p\n")  # the command palette's
    assert app_key.keymap == {} and "Command palette" in app_key.problems[0]


def test_the_default_keys_never_clash() -> None:
    assert without_clashes({}) == ({}, [])
    every_default = {a.id: a.keys for a in ACTIONS}
    assert without_clashes(every_default) == (every_default, [])


SUB_SCREENS = [
    ("h", Place.HISTORY, "history.restore"),
    ("x", Place.DELETED, "deleted.purge"),
    ("exclamation_mark", Place.PROBLEMS, "problems.delete"),
    ("D", Place.DUPLICATES, "duplicates.keep"),
    ("r", Place.REVIEW, "review.accept"),
]


@pytest.mark.parametrize(("key", "place", "one_id"), SUB_SCREENS)
async def test_help_works_on_every_screen_with_its_own_keys_first(
    root: Path, key: str, place: Place, one_id: str
) -> None:
    MemoryStore(root).create(GLOBAL, "One", "Its text.", source="ai")
    async with run_app(root) as (app, pilot, screen):
        sub = await open_view(pilot, key, SubScreen)
        assert type(sub).HELP_PLACE is place
        for help_key in ("question_mark", "f1"):
            await pilot.press(help_key)
            shown = app.screen
            assert isinstance(shown, HelpScreen)
            (first_title, first_rows), *_ = shown.sections
            assert first_title == place.value
            ids = [ident for _keys, _what, ident in first_rows]
            assert ids == [a.id for a in ACTIONS if a.place is place] and one_id in ids
            listed = {ident for _title, rows in shown.sections for _keys, _what, ident in rows}
            assert "screen.help" in listed and "app.quit" in listed
            await pilot.press("escape")
            assert app.screen is sub


async def test_the_main_help_lists_every_screens_keys(tmp_path: Path) -> None:
    async with run_app(tmp_path / "oda") as (app, pilot, _):
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        listed = {ident for _title, rows in app.screen.sections for _keys, _what, ident in rows}
        assert {a.id for a in ACTIONS if a.place is not Place.HELP} <= listed


async def test_a_remapped_key_runs_its_action(root: Path, config_folder: Path) -> None:
    write_raw(config_folder / "keymap.yaml", "memory.new: ctrl+n\n")
    async with run_app(root) as (_, pilot, screen):
        await pilot.press("n")  # the old key no longer makes a memory
        await settle(pilot)
        assert not screen.editor.is_new
        await pilot.press("ctrl+n")
        await settle(pilot)
        assert screen.editor.is_new
        await pilot.press("escape")
        await settle(pilot)


async def test_a_keymap_that_forgives(root: Path, config_folder: Path) -> None:
    """A bad line, a misspelled key and a clash are each named in a notice; every other line
    applies, the defaults stay for what was refused, and a remapped action keeps its place in
    the footer."""
    write_raw(
        config_folder / "keymap.yaml",
        "this line is not a mapping\nmemory.new: ctrl+n\nmemory.history: ctlr+h\nmemory.toggle: d\n",
    )
    MemoryStore(root).create(GLOBAL, "One", "Its text.")
    async with run_app(root) as (app, pilot, screen):
        await settle(pilot)
        messages = notices(app)
        for line, words in (
            (1, "is not “binding.id: keys”"),
            (3, "“ctlr+h” is not a key"),
            (4, "d is already"),
        ):
            assert any(m.startswith(f"Keymap: keymap.yaml line {line}: ") and words in m for m in messages)
        # The footer: New first (its place), with its new key; the others as before.
        footer = screen.query_one(KeyFooter)
        shown = [(k.action, k.key) for k in footer.query(FooterKey) if not k.has_class("-command-palette")]
        actions = [action for action, _key in shown]
        toggle, delete = "toggle_memory", "delete_memory"
        assert actions[:4] == ["choose", "new_memory", toggle, delete]  # the list's Edit, then New
        assert shown[1:4] == [("new_memory", "ctrl+n"), (toggle, "t"), (delete, "d")]
        # The help lists each key once, as it works.
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        keys = {ident: keys for _title, rows in app.screen.sections for keys, _what, ident in rows}
        assert (
            keys["memory.history"] == "h"
            and keys["memory.toggle"] == "t"
            and keys["memory.delete"] == "d / del"
        )
        await pilot.press("escape")
        await settle(pilot)
        # The defaults stay: t turns the memory off, h opens History; ctrl+n makes a memory.
        await pilot.press("t")
        await wait_until(pilot, lambda: not MemoryStore(root).memories(GLOBAL)[0].enabled, "t to turn it off")
        await pilot.press("h")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "HistoryScreen", "h to open History")
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen, "History to close")
        await pilot.press("ctrl+n")
        await settle(pilot)
        assert screen.editor.is_new


async def test_a_remapped_ctrl_key_works_while_the_filter_has_the_focus(
    root: Path, config_folder: Path
) -> None:
    write_raw(config_folder / "keymap.yaml", "memory.new: ctrl+n\nmemory.toggle: ctrl+t,t\n")
    MemoryStore(root).create(GLOBAL, "Notes", "Some text.")
    async with run_app(root) as (app, pilot, screen):
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
    async with run_app(tmp_path / "oda") as (app, pilot, screen):
        bound = {b.id for _key, b in screen._bindings} | {b.id for _key, b in app._bindings}
        bound |= {b.id for _key, b in screen.table._bindings}
        bound |= {b.id for _key, b in screen.browse.filter_input._bindings}
        main_ids = {
            a.id for a in ACTIONS if a.place in (Place.MAIN, Place.APP, Place.LIST, Place.LISTS, Place.FILTER)
        }
        assert bound - {None} == main_ids
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        listed = {ident for _title, rows in app.screen.sections for _keys, _what, ident in rows}
        assert main_ids <= listed
        assert {"dialog.yes", "conflict.theirs", "picker.cancel"} <= listed


def test_the_palette_offers_the_registrys_actions() -> None:
    names = [a.palette for a in palette_actions()]
    assert "New memory" in names and "Help: every key of the app" in names
    assert all(a.place in (Place.MAIN, Place.APP) for a in palette_actions())
    assert len({a.id for a in ACTIONS}) == len(ACTIONS)  # one id, one action
