"""The message log (M): every notice the app showed, newest first, after its toast has gone."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.widgets import OptionList

from oda_tui.app import OdaApp
from store import GLOBAL, MemoryStore
from tests.support.app import settle, started, static_text, wait_until


def listed(app: OdaApp) -> list[str]:
    """The lines of the message log on screen."""
    log = app.screen.query_one("#messages-list", OptionList)
    lines = []
    for index in range(log.option_count):
        prompt = log.get_option_at_index(index).prompt
        assert isinstance(prompt, Text)
        lines.append(prompt.plain)
    return lines


async def test_the_log_lists_every_notice_newest_first_and_clears_the_toasts(
    tmp_path: Path, config_folder: Path
) -> None:
    config_folder.mkdir()
    (config_folder / "keymap.yaml").write_text("memory.nope: ctrl+n\n", encoding="utf-8")
    root = tmp_path / "oda"
    memory = MemoryStore(root).create(GLOBAL, "Tea", "Green, no sugar.")
    app = OdaApp(root, watch=False)
    async with app.run_test(size=(120, 30)) as pilot:
        await started(pilot)
        await pilot.press("y")
        await wait_until(pilot, lambda: len(app._notifications) == 2, "both notices")
        await pilot.press("M")
        assert type(app.screen).__name__ == "MessagesScreen"
        await wait_until(pilot, lambda: bool(app.screen.query("#messages-list")), "the log's list")
        lines = listed(app)
        assert len(lines) == 2
        assert memory.id in lines[0] and "“Tea”" in lines[0]  # the newest first
        assert "warning" in lines[1] and "memory.nope" in lines[1]  # the keymap's, at start
        assert not app._notifications  # the toasts that covered the list are gone
        log = app.screen.query_one("#messages-list", OptionList)
        assert log.border_subtitle == "1/2"
        await pilot.press("j")  # a list like every other
        assert log.highlighted == 1
        await pilot.press("M")
        assert app.screen is app.main_screen


async def test_the_log_opens_from_a_sub_screen_and_says_when_it_is_empty(tmp_path: Path) -> None:
    app = OdaApp(tmp_path / "oda", watch=False)
    async with app.run_test(size=(120, 30)) as pilot:
        await started(pilot)
        await pilot.press("x")
        await settle(pilot)
        deleted = app.screen
        await pilot.press("M")
        assert type(app.screen).__name__ == "MessagesScreen"
        await wait_until(pilot, lambda: bool(app.screen.query("#messages-empty")), "the log's words")
        assert "No messages yet" in static_text(app.screen.query_one("#messages-empty"))
        await pilot.press("escape")
        assert app.screen is deleted
