"""What a person sees first, read off a real terminal: the list of memories comes in the first
frame, before the editor and the chat preview, which follow in the next one."""

from __future__ import annotations

from pathlib import Path

from tests.support.pty import PtyProcess, private_env

#: A title of the demo store, in the list.
DEMO_TITLE = b"Code style"
#: What only the detail pane shows: its tab labels.
DETAIL_TAB = b"Chat preview"


def test_the_list_is_on_screen_before_the_editor(tmp_path: Path) -> None:
    app = PtyProcess(["--demo"], private_env(tmp_path), size=(120, 40))  # wide: both panes show
    try:
        app.wait_for_output(DETAIL_TAB)  # the whole screen is up (a hang guard bounds the wait)
        output = app.output
        # Frames go out in order: the list's frame was written before the detail pane existed.
        assert output.index(DEMO_TITLE) < output.index(DETAIL_TAB)
    finally:
        app.terminate()
        app.wait()
