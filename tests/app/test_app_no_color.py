"""Pilot test: under NO_COLOR the conflict's word diff marks removed and added words in text."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from oda_tui.dialogs.conflict import ConflictDialog
from oda_tui.text.diffing import word_diff
from tests.support.app import run_app, screen_text, wait_until


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
