"""The real app on a real pseudo-terminal: what a person typed in the editor survives a lost
terminal or SIGTERM, and is offered back when the app opens the store again."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from oda_tui.own_files.drafts import FOLDER, read_draft
from store import GLOBAL, MemoryStore
from tests.support.pty import HANG_GUARD_SECONDS, PtyProcess, private_env

#: Among the suite's longest: started first (see ``tests/conftest.py``).
pytestmark = pytest.mark.slow

#: Short: the editor wraps its text, and the words must show on one line.
TYPED = "Zebra "
#: On screen once the detail pane is mounted (its second tab's label).
DETAIL_SHOWN = b"Chat preview"
#: In the footer only while the editor has the focus (Escape goes back to the list).
EDITING = b"Back"
#: Wide enough for the list and the editor side by side.
WIDE = (120, 40)


def wait_for_file(folder: Path, pattern: str) -> list[Path]:
    """The files matching ``pattern`` in ``folder``, once there is one (a hang guard only)."""
    deadline = time.monotonic() + HANG_GUARD_SECONDS
    while time.monotonic() < deadline:
        found = sorted(folder.glob(pattern)) if folder.is_dir() else []
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"no {pattern} in {folder}")


def wait_for_no_file(path: Path) -> None:
    deadline = time.monotonic() + HANG_GUARD_SECONDS
    while path.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not path.exists(), path


@pytest.mark.parametrize("ending", ["hangup", "sigterm", "eio"])
def test_a_draft_survives_a_lost_terminal_or_sigterm_and_comes_back(tmp_path: Path, ending: str) -> None:
    root = tmp_path / "store"
    store = MemoryStore(root)
    first = store.create(GLOBAL, "Reply language", "Reply in short bullet points.")
    env = private_env(tmp_path)
    state = tmp_path / "state"
    env["ODA_TUI_STATE"] = str(state)

    # A person opens the memory and types into the editor; then the terminal is lost.
    app = PtyProcess(["--root", str(root)], env, controlling=ending != "eio", size=WIDE)
    app.wait_for_output(DETAIL_SHOWN)
    app.wait_for_output(b"Reply in short bullet points.")  # the editor shows the memory
    app.send(b"\r")  # into the editor's text
    app.wait_for_output(EDITING)
    app.send(TYPED.encode())
    app.wait_for_output(b"Zebra ")  # every key typed is in the editor
    if ending == "sigterm":
        app.terminate()
    else:
        app.hang_up()
    code = app.wait()
    assert code == 128 + (signal.SIGTERM if ending == "sigterm" else signal.SIGHUP)

    # The draft is in the state folder, never in the store.
    [kept] = wait_for_file(state / FOLDER, "*.json")
    draft = read_draft(kept, root)
    assert (draft.memory_id, draft.title) == (first.id, "Reply language")
    assert draft.text == TYPED + "Reply in short bullet points."
    assert MemoryStore(root).get(GLOBAL, first.id).text == "Reply in short bullet points."
    assert [p.name for p in root.rglob("*") if p.suffix == ".json" and FOLDER in p.parts] == []

    # The next start on the same store offers it back; Ctrl+S saves it and the file goes.
    again = PtyProcess(["--root", str(root)], env, size=WIDE)
    again.wait_for_output(b"Your unsaved edits to")
    again.wait_for_output(b"ebra Reply")  # the editor has it (its first letter may be the cursor)
    again.send(b"\x13")  # Ctrl+S
    wait_for_no_file(kept)
    assert MemoryStore(root).get(GLOBAL, first.id).text == TYPED + "Reply in short bullet points."
    again.terminate()
    assert again.wait() == 128 + signal.SIGTERM
    assert not list((state / FOLDER).glob("*.json"))  # nothing dirty: nothing kept
