"""Pilot tests: user text is never markup and control characters never reach the terminal."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from oda_tui.dialogs import ConfirmDialog
from oda_tui.text.safe import clean_block, clean_line
from store import GLOBAL, MemoryStore
from tests.support.app import cell_text, run_app, screen_text, settle, static_text, wait_until

HOSTILE_TITLES = ["[@click=app.quit]x[/]", "[/bold", "[$accent]x", "oops [/]"]
HOSTILE_TEXT = "text [bold]b[/bold] [@click=app.quit]q[/] [$error]e [/]"
CONTROL_TITLE = "bell\x07 esc\x1b[31mred\x1b[0m c1\x9b end"
CONTROL_TEXT = "clear\x1b[2J\x1b]0;pwned\x07 ok\nline two\ttab"


def make_hostile_store(root: Path) -> MemoryStore:
    store = MemoryStore(root)
    for title in HOSTILE_TITLES:
        store.create(GLOBAL, title, HOSTILE_TEXT)
    store.create(GLOBAL, CONTROL_TITLE, CONTROL_TEXT)
    return store


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_hostile_titles_show_literally_and_do_nothing(root: Path, size: tuple[int, int]) -> None:
    store = make_hostile_store(root)
    memories = store.memories(GLOBAL)
    async with run_app(root, size=size) as (app, pilot, screen):
        for memory in memories:
            assert cell_text(screen, memory.id, "title") == clean_line(memory.title)
        shown = screen_text(app)
        for title in HOSTILE_TITLES:
            # At 80 columns a long title is cut with an ellipsis; its start is still literal.
            assert (title if size[0] >= 120 else title[:14]) in shown
        # Clicking the title that would be a quit link in markup does nothing.
        await pilot.click("#memories", offset=(8, 2))
        await settle(pilot)  # the click handled: had it been a link, the app would be closing
        assert app.is_running
        assert screen.table.current_id == memories[0].id
        # The editor shows the title and text as typed.
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.focused is screen.editor.text_area, "the editor")
        assert screen.editor.title_input.value == "[@click=app.quit]x[/]"
        assert screen.editor.text_area.text == HOSTILE_TEXT
        assert "[@click=app.quit]x[/]" in static_text(screen.editor.query_one("#editor-heading"))
        assert "[@click=app.quit]q[/]" in screen_text(app)


async def test_notifications_and_dialogs_quote_titles_literally(root: Path) -> None:
    make_hostile_store(root)
    async with run_app(root, notifications=True) as (app, pilot, _):
        await pilot.press("t")
        await settle(pilot)
        [note] = list(app._notifications)
        assert note.message == "“[@click=app.quit]x[/]” is turned off."
        assert note.markup is False
        await wait_until(
            pilot,
            lambda: "“[@click=app.quit]x[/]” is turned off." in screen_text(app),
            "the toast to show the title literally",
        )
        await pilot.press("down", "d")
        assert isinstance(app.screen, ConfirmDialog)
        question = app.screen.query_one(".dialog-question", Static)
        assert str(question.content) == "Delete “[/bold” from Global?"
        assert "Delete “[/bold” from Global?" in screen_text(app)
        await pilot.press("y")
        await settle(pilot)
        assert app.is_running


async def test_control_characters_never_reach_the_terminal(root: Path) -> None:
    store = make_hostile_store(root)
    control = store.memories(GLOBAL)[-1]
    async with run_app(root) as (app, pilot, screen):
        await pilot.press(*["down"] * len(HOSTILE_TITLES))
        assert screen.editor.memory_id == control.id
        # Shown visibly, never dropped: a picture for each C0 control, the escape for a C1 one.
        assert cell_text(screen, control.id, "title") == "bell␇ esc␛[31mred␛[0m c1\\x9b end"
        assert screen.editor.text_area.text == "clear␛[2J␛]0;pwned␇ ok\nline two\ttab"
        preview = static_text(screen.query_one("#preview-text"))
        assert preview == clean_block(store.chat_memory(None).text)
        for strip in app.screen._compositor.render_strips():
            for segment in strip:
                assert not any(ord(ch) < 32 or 0x7F <= ord(ch) <= 0x9F for ch in segment.text), repr(
                    segment.text
                )
        # Opening the memory is not an edit: nothing is marked unsaved.
        assert not screen.editor.is_dirty
        # Editing the text keeps the control characters the file had: ␛ goes back as ESC.
        screen.editor.text_area.focus()
        await pilot.press("end", "!")
        await pilot.press("ctrl+s")
        await settle(pilot)
        saved = MemoryStore(root).get(GLOBAL, control.id)
        assert saved.text == "clear\x1b[2J\x1b]0;pwned\x07 ok!\nline two\ttab"
        assert saved.title == CONTROL_TITLE
