"""Every dialog, and the command palette, shows its own keys (footer and buttons) and opens help
for them with ``?`` / F1."""

from __future__ import annotations

from pathlib import Path

from textual.command import CommandPalette
from textual.widgets import Button, Input
from textual.widgets._footer import FooterKey

from oda_tui.app import OdaApp
from oda_tui.dialogs.confirm import ConfirmDialog
from oda_tui.keys.actions import Place
from oda_tui.screens.help import HelpScreen
from oda_tui.widgets.key_footer import KeyFooter
from store import GLOBAL, MemoryStore
from tests.support.app import run_app, settle, wait_until


def first_section(app: OdaApp) -> str:
    assert isinstance(app.screen, HelpScreen)
    return app.screen.sections[0][0]


async def test_the_delete_question_shows_its_keys_and_help(root: Path) -> None:
    MemoryStore(root).create(GLOBAL, "One", "Its text.")
    async with run_app(root, size=(100, 30)) as (app, pilot, screen):
        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the delete question")
        dialog = app.screen
        # Its own footer, with its keys under the buttons' names; none of the main screen's.
        footer = {key.action: key.description for key in dialog.query_one(KeyFooter).query(FooterKey)}
        assert footer["confirm"] == "Delete" and footer["cancel"] in ("Cancel",)
        assert "help" in footer and "new_memory" not in footer
        labels = [str(button.label) for button in dialog.query(Button)]
        assert labels == ["y Delete", "n Cancel"]
        for help_key in ("question_mark", "f1"):
            await pilot.press(help_key)
            await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen), "the dialog's help")
            assert first_section(app) == Place.DIALOG.value
            await pilot.press("escape")
            await wait_until(pilot, lambda: app.screen is dialog, "back to the dialog")
        await pilot.press("n")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmDialog)
        assert MemoryStore(root).memories(GLOBAL)  # nothing was deleted


async def test_f1_in_the_command_palette_opens_its_help(tmp_path: Path) -> None:
    async with run_app(tmp_path / "oda", size=(100, 30)) as (app, pilot, _):
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
        palette = app.screen
        await pilot.press("question_mark")  # types into the search
        await wait_until(pilot, lambda: palette.query_one(Input).value == "?", "? typed")
        await pilot.press("f1")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen), "the palette's help")
        assert first_section(app) == Place.PALETTE.value
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is palette, "back to the palette")
