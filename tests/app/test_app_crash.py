"""An unexpected error: the draft is kept, the terminal gets one line, the exit code says so;
and a dialog answered twice answers once."""

from __future__ import annotations

from pathlib import Path

import pytest

from oda_tui.dialogs import ConfirmDialog
from oda_tui.own_files import drafts
from oda_tui.screens import MainScreen
from store import GLOBAL, MemoryStore
from tests.support.app import run_app, settle, wait_until
from tests.support.pty import PtyProcess, private_env

# The real app, with the help key made to fail as a bug would.
CRASHING_APP = """
import sys
from oda_tui.screens.main import MainScreen

def broken(self):
    raise RuntimeError("a bug in the help key")

MainScreen.action_help = broken
from oda_tui.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


async def test_a_dialog_answered_twice_answers_once(root: Path) -> None:
    MemoryStore(root).create(GLOBAL, "T", "text")
    answers: list[bool | None] = []
    async with run_app(root, size=(100, 30)) as (app, pilot, _):
        dialog = ConfirmDialog("Discard unsaved changes?")
        app.push_screen(dialog, answers.append)
        await wait_until(pilot, lambda: app.screen is dialog, "the dialog")
        dialog.dismiss(True)
        dialog.dismiss(False)  # a click that arrived after the key
        await wait_until(pilot, lambda: app.screen is app.main_screen, "the dialog to close")
        dialog.dismiss(False)
        await settle(pilot)
        assert answers == [True]
        assert app.screen is app.main_screen and app.is_running


async def test_an_unexpected_error_keeps_the_draft_and_says_one_line(
    root: Path, state_folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(MainScreen, "action_help", _broken)
    memory = MemoryStore(root).create(GLOBAL, "T", "text")
    with pytest.raises(RuntimeError, match="a bug"):
        async with run_app(root, size=(100, 30)) as (app, pilot, screen):
            screen.editor.text_area.focus()
            await pilot.press("x", "f1")
    log = state_folder / "crash.log"
    assert app.crash_line == (
        "oda-tui stopped on an unexpected error (RuntimeError: a bug). Your unsaved edits are kept "
        f"and offered back at the next start. The details are in {log}."
    )
    assert "Traceback" not in capsys.readouterr().err
    assert "Traceback" in log.read_text() and "a bug" in log.read_text()
    [kept] = drafts.kept_drafts(root).drafts
    assert (kept.memory_id, kept.text) == (memory.id, "xtext")


def _broken(self: MainScreen) -> None:
    raise RuntimeError("a bug")


def test_the_real_process_exits_non_zero_with_one_line(tmp_path: Path, root: Path) -> None:
    MemoryStore(root).create(GLOBAL, "Marker title", "text")
    env = private_env(tmp_path)
    app = PtyProcess(["--root", str(root)], env, script=CRASHING_APP)
    try:
        app.wait_for_output(b"Marker title")
        app.wait_for_output(b"History")  # the editor pane is mounted: every key is offered
        app.send(b"?")
        code = app.wait()
    finally:
        app.terminate()
    assert code == 1
    tail = app.output.rsplit(b"\x1b[?1049l", 1)[-1].decode("utf-8", "replace")
    assert "oda-tui stopped on an unexpected error (RuntimeError: a bug in the help key)." in tail
    assert "Traceback" not in tail
