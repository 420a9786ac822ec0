"""Pilot tests of how the app starts: --workspace, the demo store, a new installation."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from benchmarks.generate import generate
from oda_tui.app import OdaApp
from oda_tui.config.paths import ENV_VAR, default_root, resolve_root
from oda_tui.demo.sample import WORKSPACE_THESIS, WORKSPACE_WEB, build_demo_store
from oda_tui.session.first_read import FirstRead
from store import GLOBAL, MemoryStore
from store.read import parse_index
from tests.support.app import run_app, settle, started, static_text, sub_title


async def test_workspace_option_opens_that_workspace(root: Path, store: MemoryStore) -> None:
    store.create(GLOBAL, "Global one", "G.")
    stack = store.create("web", "Stack", "Django.")
    async with run_app(root, "web") as (_, _, screen):
        assert screen.scope == "web"
        assert screen.scopes.current_scope == "web"
        assert screen.table.memory_ids == [stack.id]


async def test_a_new_workspace_can_take_its_first_memory(root: Path) -> None:
    MemoryStore(root).create(GLOBAL, "Global one", "G.")
    async with run_app(root, "brand-new") as (_, pilot, screen):
        assert screen.scope == "brand-new"
        assert (
            "There is no workspace “brand-new” yet: the first memory saved in it creates it."
            in static_text(screen.query_one("#list-empty"))
        )
        await pilot.press("n", *"First", "enter", *"Hello.", "ctrl+s")
        await settle(pilot)
        [memory] = MemoryStore(root).memories("brand-new")
        assert memory.title == "First"
        assert screen.table.memory_ids == [memory.id]


async def test_the_demo_store_shows_every_feature(tmp_path: Path) -> None:
    root = build_demo_store(tmp_path / "demo")
    store = MemoryStore(root)
    assert store.workspaces() == [WORKSPACE_WEB, WORKSPACE_THESIS]
    messages = {p.message.split(":")[0].split(" than ")[0] for p in store.problems()}
    assert messages == {
        "The file is larger",
        "The file is not UTF-8 text.",
        "The file does not start with a --- frontmatter block.",
        "The frontmatter is not valid YAML",
        "The frontmatter fields enabled, source are missing or invalid.",
        "The memory is longer",
    }
    assert len(store.ignored()) == 1
    assert len(store.deleted(GLOBAL)) == 1
    everything = [m for s in (GLOBAL, WORKSPACE_WEB, WORKSPACE_THESIS) for m in store.memories(s)]
    assert any(m.saved_by_agent for m in everything)
    assert any(not m.enabled for m in everything)
    assert max(len(store.versions(m.scope, m.id)) for m in everything) >= 3
    sources = {v.source for m in everything for v in store.versions(m.scope, m.id)}
    assert {"settings", "chat", "external"} <= sources
    async with run_app(root, size=(80, 24)) as (_, _, screen):
        assert "6 problem files" in sub_title(screen)
        assert screen.table.row_count == len(store.memories(GLOBAL))


def test_root_resolution(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "env"))
    assert resolve_root(str(tmp_path / "arg")) == tmp_path / "arg"
    assert resolve_root(None) == tmp_path / "env"
    monkeypatch.delenv(ENV_VAR)
    assert resolve_root(None) == default_root()
    assert default_root().name == "memory"


async def test_help_lists_every_key_with_its_id(tmp_path: Path) -> None:
    from textual.widgets import Static

    from oda_tui.screens.help import HelpScreen

    app = OdaApp(tmp_path / "oda", watch=False)
    app.set_keymap({"memory.new": "a"})
    async with app.run_test(size=(100, 40)) as pilot:
        await started(pilot)
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        rows = [row for _title, section in app.screen.sections for row in section]
        described = {description: (keys, ident) for keys, description, ident in rows}
        assert described["New"] == ("a", "memory.new")  # the remapped key
        for description in ("On/off", "Delete", "Filter", "Preview", "Save", "Revert", "Edit"):
            assert described[description][1], description
        assert len(app.screen.query(Static)) >= 4
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("a")
        assert app.main_screen.editor.is_new


async def test_the_detail_pane_comes_after_the_list_and_closing_before_it_is_clean(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    generate(root, 1000, 1)
    first_looks: list[bool] = []
    for _ in range(5):
        parse_index.remove(root)
        first_read = FirstRead(root)  # read before the app starts, as the command line does
        assert first_read.wait(60)  # a hang guard only
        app = OdaApp(root, watch=False, first_read=first_read)
        painted = asyncio.Event()
        display = app._display

        def shown(
            screen: object,
            renderable: object,
            display: Any = display,
            app: OdaApp = app,
            painted: Any = painted,
        ) -> None:
            display(screen, renderable)
            try:
                table = app.main_screen.table
            except LookupError:  # no main screen yet
                return
            if renderable is not None and table.painted_generation == table.shown_generation:
                painted.set()  # the frame with the list's rows has just gone out

        monkeypatch.setattr(app, "_display", shown)
        async with app.run_test(size=(120, 40)):
            await asyncio.wait_for(painted.wait(), 60)  # a hang guard only
            first_looks.append(app.main_screen.detail_ready)
        # Leaving the block closed the app right after the list's frame, with the detail pane
        # (and what waits for it) still to come: that ends quietly (run_test would raise here).
    # The list's frame came before the pane each time.
    assert first_looks == [False] * 5
