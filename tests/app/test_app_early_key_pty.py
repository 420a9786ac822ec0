"""Real terminal: a key typed as the list appears, before the editor pane is there, is done once
the pane is (here the pane's mount waits for the test, so the key surely comes first)."""

from __future__ import annotations

from pathlib import Path

from store import GLOBAL, MemoryStore
from tests.support.pty import PtyProcess, private_env

#: The app, with the detail pane's mount held until the file ``ODA_TEST_GATE`` names exists.
HELD_PANE_APP = """
import os, sys, threading, time
from oda_tui.screens.main.detail_mount import DetailMount

real_start = DetailMount.start

def held(self):
    app = self._place.app
    def wait():
        while not os.path.exists(os.environ["ODA_TEST_GATE"]):
            time.sleep(0.02)
        app.call_from_thread(real_start, self)
    threading.Thread(target=wait, daemon=True).start()

DetailMount.start = held
from oda_tui.cli.main import main
sys.exit(main(sys.argv[1:]))
"""

#: What only the History screen shows.
HISTORY = b"History of"


def test_h_typed_before_the_editor_pane_opens_history(tmp_path: Path, root: Path) -> None:
    MemoryStore(root).create(GLOBAL, "Green tea", "Its text.")
    gate = tmp_path / "gate"
    env = private_env(tmp_path) | {"ODA_TEST_GATE": str(gate)}
    app = PtyProcess(["--root", str(root)], env, size=(120, 40), script=HELD_PANE_APP)
    try:
        app.wait_for_output(b"Green tea")  # the list is on screen; the pane waits for the gate
        assert b"Chat preview" not in app.output
        app.send(b"h")
        gate.touch()
        app.wait_for_output(HISTORY)
    finally:
        app.terminate()
        app.wait()
