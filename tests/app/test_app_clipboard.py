"""y copies a memory's id and Y its file's path to the clipboard, through the terminal (OSC 52,
which works over SSH), with a notice."""

from __future__ import annotations

import base64
from pathlib import Path

from oda_tui.app import OdaApp
from store import GLOBAL, MemoryStore
from tests.support.app import started, wait_until
from tests.support.pty import PtyProcess, private_env


def osc52(text: str) -> bytes:
    """What a program writes to its terminal to put ``text`` on the clipboard."""
    return b"\x1b]52;c;" + base64.b64encode(text.encode("utf-8")) + b"\x07"


async def test_y_copies_the_id_and_shift_y_the_path_with_a_notice(tmp_path: Path) -> None:
    root = tmp_path / "oda"
    store = MemoryStore(root)
    store.create(GLOBAL, "First", "One.")
    second = store.create(GLOBAL, "Second", "Two.")
    app = OdaApp(root, watch=False)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await started(pilot)
        await pilot.press("down")
        assert screen.table.current_id == second.id
        await pilot.press("y")
        assert app.clipboard == second.id
        last = list(app._notifications)[-1].message
        assert second.id in last and "“Second”" in last and "clipboard" in last
        await pilot.press("Y")
        assert app.clipboard == str(second.path)
        assert str(second.path) in list(app._notifications)[-1].message
        # In the editor y types, as every printable key does in a text field.
        await pilot.press("enter")
        assert app.focused is screen.editor.text_area
        await pilot.press("y")
        assert app.clipboard == str(second.path)  # typed, not copied
        assert "y" in screen.editor.text_area.text


async def test_nothing_to_copy_in_an_empty_store_says_so(tmp_path: Path) -> None:
    app = OdaApp(tmp_path / "oda", watch=False)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await started(pilot)
        assert screen.check_action("copy_id", ()) is False  # not offered
        screen.action_copy_id()
        await wait_until(pilot, lambda: bool(app._notifications), "the notice")
        assert app.clipboard == ""
        assert list(app._notifications)[-1].message == "There is no memory here to copy the id of."


def test_the_terminal_receives_the_id_as_osc_52(tmp_path: Path) -> None:
    root = tmp_path / "oda"
    memory = MemoryStore(root).create(GLOBAL, "Reply language", "Reply in short bullet points.")
    app = PtyProcess(["--root", str(root)], private_env(tmp_path), size=(120, 40))
    try:
        app.wait_for_output(b"Chat preview")  # the detail pane is there: y acts at once
        app.send(b"y")
        app.wait_for_output(osc52(memory.id))
        app.send(b"Y")
        app.wait_for_output(osc52(str(memory.path)))
    finally:
        app.terminate()
        app.wait()
