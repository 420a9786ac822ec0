"""Pilot tests of the command palette: actions, and jumping to a memory by title."""

from __future__ import annotations

from pathlib import Path

from textual.command import CommandPalette

from oda_tui.screens.help import HelpScreen
from store import GLOBAL, MemoryStore
from tests.support.app import run_app, settle, wait_until


async def wait_for_palette_results(pilot, palette: CommandPalette) -> None:  # type: ignore[no-untyped-def]
    await settle(pilot)
    await wait_until(
        pilot, lambda: palette.query("CommandList").first().option_count > 0, "the palette's results"
    )


async def test_palette_runs_an_action(tmp_path: Path) -> None:
    async with run_app(tmp_path / "oda", size=(100, 30)) as (app, pilot, _):
        await pilot.press("ctrl+p")
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"help: every key")
        await wait_for_palette_results(pilot, app.screen)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")


async def test_palette_jumps_to_a_memory_in_another_scope(tmp_path: Path) -> None:
    root = tmp_path / "oda"
    store = MemoryStore(root)
    store.create(GLOBAL, "[@click=app.quit]x[/]", "Hostile.")
    target = store.create("web", "Deploy checklist", "Run migrations first.")
    async with run_app(root, size=(100, 30)) as (app, pilot, screen):
        await pilot.press("ctrl+p", *"deploy check")
        palette = app.screen
        assert isinstance(palette, CommandPalette)
        await wait_for_palette_results(pilot, palette)
        await pilot.press("enter")
        await settle(pilot)
        assert screen.scope == "web"
        assert screen.editor.memory_id == target.id
        assert screen.table.current_id == target.id
        # A hostile title is listed literally and choosing it does not quit.
        await pilot.press("ctrl+p", *"click")
        palette = app.screen
        await wait_for_palette_results(pilot, palette)
        commands = palette.query("CommandList").first()
        prompt = commands.get_option_at_index(0).prompt
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


async def test_the_palette_shows_each_actions_keys(tmp_path: Path) -> None:
    async with run_app(tmp_path / "oda", size=(100, 30)) as (app, pilot, _):
        await pilot.press("ctrl+p", *"new memory")
        palette = app.screen
        assert isinstance(palette, CommandPalette)
        await wait_for_palette_results(pilot, palette)
        prompt = str(palette.query("CommandList").first().get_option_at_index(0).prompt)
        assert "New memory" in prompt and "n · Start a new memory in the selected scope" in prompt
