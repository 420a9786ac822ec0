"""Pilot tests: the title field shows the start of a long title until the cursor moves."""

from __future__ import annotations

from pathlib import Path

from oda_tui.app import OdaApp
from store import GLOBAL, MemoryStore
from tests.support.app import run_app, settle

LONG = "Regex: escape [ and ] in patterns, and the backslash itself, in every language I use"


def drawn_title(app: OdaApp) -> str:
    """The line the title field draws its text on."""
    field = app.main_screen.editor.title_input
    region = field.content_region
    row = [strip.text for strip in app.screen._compositor.render_strips()][region.y]
    return row[region.x : region.right]


async def test_a_long_title_shows_its_start_until_the_cursor_moves(root: Path, store: MemoryStore) -> None:
    store.create(GLOBAL, "Short", "One.")
    store.create(GLOBAL, LONG, "Two.")
    async with run_app(root) as (app, pilot, screen):
        await pilot.press("down")
        await settle(pilot)
        assert screen.editor.title_input.value == LONG
        assert drawn_title(app).strip().startswith("Regex: escape")
        # In the field, the cursor moved to the end: the end is shown, as the person asked.
        screen.editor.title_input.focus()
        await pilot.press("end")
        await settle(pilot)
        assert drawn_title(app).rstrip().endswith("language I use")
