"""Pilot tests: a paste far over the text's limit is held, said at once, and what fits is
offered; a paste near the limit goes in as any other. (How long each key takes after such a
paste is measured outside the tests: no timed assertion here.)"""

from __future__ import annotations

from pathlib import Path

from textual import events
from textual.widgets import Button

from oda_tui.dialogs import ConfirmDialog
from store import GLOBAL, MemoryStore
from tests.support.app import run_app, settle, static_text

PASTE = ("lorem ipsum dolor sit amet consectetur " * 600)[:20000]


async def test_a_paste_far_over_the_limit_is_held_and_what_fits_offered(
    root: Path, store: MemoryStore
) -> None:
    store.create(GLOBAL, "Tea", "Green tea.")
    async with run_app(root) as (app, pilot, screen):
        editor = screen.editor
        await pilot.press("enter", "end")
        app.post_message(events.Paste(PASTE))
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ConfirmDialog)
        shown = " ".join(static_text(s) for s in dialog.query(".dialog-question, .dialog-detail"))
        assert "The text you pasted has 20,000 characters; a memory's text holds 2,000." in shown
        assert editor.text_area.text == "Green tea."  # not put in
        assert "Paste the first 1,990" in str(dialog.query_one("#yes", Button).label)
        await pilot.press("y")
        await settle(pilot)
        assert editor.text_area.text == "Green tea." + PASTE[:1990]
        assert editor.is_dirty and editor.validation == ""
        await pilot.press("ctrl+s")
        await settle(pilot)
    assert len(MemoryStore(root).memories(GLOBAL)[0].text) == 2000


async def test_a_held_paste_can_be_left_out(root: Path, store: MemoryStore) -> None:
    store.create(GLOBAL, "Tea", "Green tea.")
    async with run_app(root) as (app, pilot, screen):
        await pilot.press("enter", "end")
        app.post_message(events.Paste(PASTE))
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")
        await settle(pilot)
        assert pilot.app.screen is screen
        assert screen.editor.text_area.text == "Green tea."
        assert not screen.editor.is_dirty


async def test_a_paste_a_little_over_the_limit_goes_in_and_says_so(root: Path, store: MemoryStore) -> None:
    store.create(GLOBAL, "Tea", "Green tea.")
    async with run_app(root) as (app, pilot, screen):
        await pilot.press("enter", "end")
        app.post_message(events.Paste("x" * 2100))
        await settle(pilot)
        assert app.screen is screen
        assert screen.editor.text_area.text == "Green tea." + "x" * 2100
        assert "A memory is limited to 2000 characters" in screen.editor.validation
