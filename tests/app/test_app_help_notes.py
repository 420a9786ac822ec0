"""The help (?) explains the symbols the app draws, names the app's own files and says how to
pick a theme, besides listing the keys."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import Static

from oda_tui.app import OdaApp
from oda_tui.text import glyphs
from oda_tui.widgets.ascii_drawing import draw_ascii
from tests.support.app import started


def help_text(app: OdaApp) -> str:
    """Everything the help screen shows, as plain text (it scrolls: not only what is on screen)."""
    console = Console(width=200, record=True, color_system=None, file=io.StringIO())
    for static in app.screen.query(Static):
        console.print(static.content)
    return console.export_text()


@pytest.fixture
def ascii_terminal() -> Iterator[None]:
    glyphs.use_ascii(True)
    try:
        yield
    finally:
        glyphs.use_ascii(False)
        draw_ascii(False)  # Textual's own characters again for the tests that follow


async def test_help_has_a_legend_the_files_and_the_theme_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ODA_TUI_CONFIG", str(tmp_path / "my-config"))
    monkeypatch.setenv("ODA_TUI_STATE", str(tmp_path / "my-state"))
    app = OdaApp(tmp_path / "oda", watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await started(pilot)
        await pilot.press("question_mark")
        text = help_text(app)
    lines = text.splitlines()
    for unicode, ascii in (("⚠", "!"), ("≡", "="), ("●", "*"), ("✱", "$"), ("·", "-")):
        assert any(line.split()[:2] == [unicode, ascii] for line in lines if line.strip()), unicode
    assert str(tmp_path / "my-config" / "keymap.yaml") in text
    assert str(tmp_path / "my-config" / "themes") in text
    assert str(tmp_path / "my-config" / "settings.json") in text
    assert str(tmp_path / "my-state") in text
    assert "Ctrl+P" in text and "theme" in text


async def test_in_ascii_mode_the_legend_draws_only_what_the_terminal_can(
    tmp_path: Path, ascii_terminal: None
) -> None:
    app = OdaApp(tmp_path / "oda", watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await started(pilot)
        await pilot.press("question_mark")
        text = help_text(app)
    assert "Symbols" in text
    assert not any(symbol in text for symbol in "⚠≡●✱")
    assert any(line.split()[:1] == ["$"] and "secret" in line for line in text.splitlines())
