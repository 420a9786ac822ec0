"""Pilot test: in ASCII mode (``ODA_TUI_ASCII=1``, the Linux console, ``LC_ALL=C``) every
character the app draws on its screens is ASCII, borders, tabs and separators included; only
what a person wrote may be otherwise."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest
from textual.command import CommandPalette
from textual.screen import Screen

from oda_tui.app import OdaApp
from oda_tui.dialogs.confirm import ConfirmDialog
from oda_tui.dialogs.scope_picker import ScopePicker
from oda_tui.screens.deleted import DeletedScreen
from oda_tui.screens.duplicates import DuplicatesScreen
from oda_tui.screens.help import HelpScreen
from oda_tui.screens.history import HistoryScreen
from oda_tui.screens.problems import ProblemsScreen
from oda_tui.screens.review import ReviewScreen
from store import GLOBAL, MemoryStore
from tests.support.app import run_app, screen_text, settle, wait_until, write_raw

#: The user's own text in the store below: the only non-ASCII characters allowed on screen.
USER_TEXT = "Thé vert, très chaud."


def drawn(app: OdaApp) -> str:
    """Every character on screen, the user's text taken out."""
    shown = screen_text(app)
    for word in USER_TEXT.split():
        shown = shown.replace(word, "")
    return shown


def showing(app: OdaApp, kind: type[Screen[Any]], shown: bool = True) -> bool:
    """The app shows a screen of ``kind`` on top (or, with ``shown`` False, does not)."""
    return isinstance(app.screen, kind) is shown


def not_ascii(text: str) -> list[str]:
    """Each line that holds a character that is not ASCII."""
    return [line for line in text.splitlines() if not line.isascii()]


@pytest.mark.slow
async def test_every_screen_draws_ascii_only(root: Path, store: MemoryStore, ascii_terminal: None) -> None:
    memory = store.create(GLOBAL, "Thé", USER_TEXT)
    store.edit(GLOBAL, memory.id, text=USER_TEXT + " Encore.")
    write_raw(store.memory_path(GLOBAL, "0badf11e"), "no frontmatter\n")
    store.create(GLOBAL, "Tea", "Green tea.")
    store.create("web", "Tea", "Green tea.")  # a duplicate: the duplicates view
    store.create(GLOBAL, "A title long enough to be cut short in a narrow list", "Long.", source="ai")
    gone = store.create(GLOBAL, "Gone", "Deleted.")
    store.delete(GLOBAL, gone.id)  # the Recently deleted view
    async with run_app(root, notifications=True) as (app, pilot, screen):
        await settle(pilot)
        assert not_ascii(drawn(app)) == [], "the main screen"
        await pilot.press("p")  # the chat preview and its tab
        await settle(pilot)
        assert not_ascii(drawn(app)) == [], "the preview"
        views: list[tuple[str, type[Screen[Any]]]] = [
            ("h", HistoryScreen),
            ("exclamation_mark", ProblemsScreen),
            ("f1", HelpScreen),
            ("d", ConfirmDialog),
            ("x", DeletedScreen),
            ("D", DuplicatesScreen),
            ("r", ReviewScreen),
            ("c", ScopePicker),
        ]
        for key, screen_type in views:
            await pilot.press(key)
            await wait_until(pilot, partial(showing, app, screen_type), screen_type.__name__)
            await settle(pilot)
            assert not_ascii(drawn(app)) == [], screen_type.__name__
            await pilot.press("escape")
            await wait_until(pilot, partial(showing, app, screen_type, False), "back")
        await pilot.press("ctrl+p", *"sync")  # the palette: its icon, its search and an action
        await wait_until(pilot, lambda: "CLAUDE.md...)" in drawn(app), "the palette's hit")
        assert not_ascii(drawn(app)) == [], "the palette"
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, CommandPalette), "back")
        await pilot.press("d", "y")  # a notice that quotes a title
        await wait_until(pilot, lambda: "waits under" in drawn(app), "the notice")
        assert not_ascii(drawn(app)) == [], "the notice"
        await pilot.resize_terminal(60, 20)  # a title cut to fit the list ends in "..."
        await wait_until(pilot, lambda: "A title long" in drawn(app), "the narrow list")
        assert "..." in drawn(app)
        assert not_ascii(drawn(app)) == [], "the narrow list"
