"""Pilot tests of the history view: versions in words, the diff, restore and undo."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.widgets import OptionList, Static

from oda_tui.screens.history import HistoryScreen
from oda_tui.text.diffing import ADDED, REMOVED, word_diff
from store import GLOBAL, MemoryStore
from tests.support.app import notices, open_view, poll_until, run_app, settle, static_text, wait_until


def test_word_diff_groups_a_reworded_sentence() -> None:
    diff = word_diff("Keep it short. Use [bold] lists.", "Keep it short. Use numbered lists.")
    spans = [(diff.plain[s.start : s.end], s.style) for s in diff.spans]
    assert spans == [("[bold]", REMOVED), ("numbered", ADDED)]
    assert diff.plain == "Keep it short. Use [bold] numbered lists."


async def test_history_restore_and_undo(root: Path, store: MemoryStore) -> None:
    memory = store.create(GLOBAL, "Style", "First text.")
    store.change(GLOBAL, memory.id, text="Second text.")
    store.change(GLOBAL, memory.id, text="From a chat.", via="chat")
    async with run_app(root, size=(100, 30)) as (app, pilot, screen):
        history = await open_view(pilot, "h", HistoryScreen)
        options = history.query_one("#versions", OptionList)
        words = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert "from a chat" in words[0] and "in Settings" in words[1]
        assert "This is the current text." in static_text(history.query_one("#version-head"))
        # Undo the chat change: no confirmation, and the editor follows.
        await pilot.press("u")
        await settle(pilot)
        assert MemoryStore(root).get(GLOBAL, memory.id).text == "Second text."
        assert screen.editor.text_area.text == "Second text."
        assert history.versions[0].source == "undo"
        # Restore the first version.
        await pilot.press("end")

        def version_diff() -> Text:
            diff = history.query_one("#version-diff", Static).content
            assert isinstance(diff, Text)
            return diff

        await wait_until(pilot, lambda: "First" in version_diff().plain, "the oldest version's diff")
        assert options.highlighted is not None
        assert history.versions[options.highlighted].text == "First text."
        diff = version_diff()
        assert "Second" in diff.plain and "First" in diff.plain
        await pilot.press("r")
        await settle(pilot)
        assert MemoryStore(root).get(GLOBAL, memory.id).text == "First text."
        assert history.versions[0].source == "restore"
        await pilot.press("escape")
        assert app.screen is screen
        assert screen.editor.text_area.text == "First text."
        # Nothing left to undo from a chat: the store's own message.
        await pilot.press("h")
        await settle(pilot)
        await pilot.press("u")
        await settle(pilot)
        assert notices(app)[-1] == "There is no change from a chat to undo."


async def test_a_change_finishing_after_its_screen_closed_is_still_reported(
    root: Path, store: MemoryStore
) -> None:
    memory = store.create(GLOBAL, "Style", "First text.")
    store.change(GLOBAL, memory.id, text="From a chat.", via="chat")
    async with run_app(root, size=(100, 30)) as (app, pilot, screen):
        await pilot.press("h")
        await settle(pilot)
        assert isinstance(app.screen, HistoryScreen)
        with app.session.call_lock:  # the undo waits for the store while the person leaves
            await pilot.press("u")
            await pilot.press("escape")
            await poll_until(pilot, lambda: app.screen is screen, "the main screen")
        await settle(pilot)
        assert MemoryStore(root).get(GLOBAL, memory.id).text == "First text."
        assert screen.editor.text_area.text == "First text."
        messages = notices(app)
        assert "Undid the newest change from a chat." in messages


async def test_restoring_the_current_text_says_so_and_writes_nothing(root: Path, store: MemoryStore) -> None:
    memory = store.create(GLOBAL, "Style", "First text.")
    async with run_app(root, size=(100, 30), notifications=True) as (app, pilot, _):
        history = await open_view(pilot, "h", HistoryScreen)
        assert "This is the current text." in static_text(history.query_one("#version-head"))
        await pilot.press("r")
        await settle(pilot)
        assert notices(app)[-1] == ("This version is the current text: nothing to restore.")
    assert [v.source for v in MemoryStore(root).versions(GLOBAL, memory.id)] == ["settings"]
