"""Pilot tests of the command palette: actions, and jumping to a memory by title."""

from __future__ import annotations

from pathlib import Path

from oda_tui.screens.help import HelpScreen
from store import GLOBAL, MemoryStore
from tests.support.app import palette_list, palette_results, run_app, settle, wait_until


async def test_palette_runs_an_action(root: Path) -> None:
    async with run_app(root, size=(100, 30)) as (app, pilot, _):
        await palette_results(pilot, "help: every key")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")


async def test_palette_jumps_to_a_memory_in_another_scope(root: Path, store: MemoryStore) -> None:
    store.create(GLOBAL, "[@click=app.quit]x[/]", "Hostile.")
    target = store.create("web", "Deploy checklist", "Run migrations first.")
    async with run_app(root, size=(100, 30)) as (app, pilot, screen):
        await palette_results(pilot, "deploy check")
        await pilot.press("enter")
        await settle(pilot)
        assert screen.scope == "web"
        assert screen.editor.memory_id == target.id
        assert screen.table.current_id == target.id
        # A hostile title is listed literally and choosing it does not quit.
        palette = await palette_results(pilot, "click")
        prompt = palette_list(palette).get_option_at_index(0).prompt
        assert "Go to: [@click=app.quit]x[/]" in str(prompt)
        await pilot.press("enter")
        await settle(pilot)
        assert app.is_running
        assert screen.scope == GLOBAL


def test_the_palette_matches_whole_words_not_scattered_letters() -> None:
    from oda_tui.keys.palette import word_match

    assert word_match("theme", "Turn the memory on or off") is None
    assert word_match("mem off", "Turn the memory on or off") is not None
    found = word_match("deploy check", "Go to: Deploy checklist")
    assert found is not None and found[1] == [*range(7, 13), *range(14, 19)]
    start, inside = word_match("new", "New memory"), word_match("new", "Go to: renewal")
    assert start is not None and inside is not None and start[0] > inside[0]


async def test_the_palette_shows_each_actions_keys(root: Path) -> None:
    async with run_app(root, size=(100, 30)) as (_, pilot, _):
        palette = await palette_results(pilot, "new memory")
        prompt = str(palette_list(palette).get_option_at_index(0).prompt)
        assert "New memory" in prompt and "n · Start a new memory in the selected scope" in prompt
