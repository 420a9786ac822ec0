"""Pilot tests: under NO_COLOR the word diffs mark removed and added words in text, and the captions
name those marks, not colours."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from oda_tui.dialogs.conflict import ConflictDialog
from oda_tui.screens.history import HistoryScreen
from oda_tui.screens.review import ReviewScreen
from oda_tui.text.diffing import word_diff
from store import GLOBAL, MemoryStore
from tests.support.app import open_view, run_app, screen_text, static_text, wait_until


def test_the_marks_follow_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert word_diff("a cold tea", "a hot tea").plain == "a cold hot tea"
    monkeypatch.setenv("NO_COLOR", "1")
    assert word_diff("a cold tea", "a hot tea").plain == "a [-cold-]{+hot+} tea"


async def test_the_conflict_diff_reads_without_colour(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    async with run_app(tmp_path / "oda", size=(100, 30)) as (app, pilot, _):
        app.push_screen(
            ConflictDialog("Tea", theirs=("Tea", "Green tea, cold."), mine=("Tea", "Green tea, hot."))
        )
        await wait_until(pilot, lambda: isinstance(app.screen, ConflictDialog), "the conflict")
        diff = app.screen.query_one("#conflict-diff-text", Static).render()
        assert "[-cold.-]{+hot.+}" in str(diff)
        shown = screen_text(app)
        assert "[-cold.-]{+hot.+}" in shown and "only on disk" in shown


async def test_the_history_and_review_captions_name_the_marks_drawn(
    root: Path, store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    memory = store.create(GLOBAL, "Tea", "Green tea, cold.")
    store.change(GLOBAL, memory.id, text="Green tea, hot.", via="chat")
    async with run_app(root, size=(100, 30)) as (_app, pilot, _screen):
        history = await open_view(pilot, "h", HistoryScreen)
        await pilot.press("down")
        await wait_until(
            pilot, lambda: "Restoring" in static_text(history.query_one("#version-head")), "the older version"
        )
        head = static_text(history.query_one("#version-head"))
        assert "([-…-] goes, {+…+} comes back):" in head and "red" not in head
        await pilot.press("escape")
        review = await open_view(pilot, "r", ReviewScreen)
        await wait_until(pilot, lambda: bool(review.items), "the review item")
        head = static_text(review.query_one("#review-head"))
        assert "What the agent changed ([-…-] went, {+…+} came):" in head and "red" not in head


async def test_with_colour_the_captions_name_the_colours(
    root: Path, store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    memory = store.create(GLOBAL, "Tea", "Green tea, cold.")
    store.change(GLOBAL, memory.id, text="Green tea, hot.", via="chat")
    async with run_app(root, size=(100, 30)) as (_app, pilot, _screen):
        review = await open_view(pilot, "r", ReviewScreen)
        await wait_until(pilot, lambda: bool(review.items), "the review item")
        assert "What the agent changed (red went, green came):" in static_text(
            review.query_one("#review-head")
        )
