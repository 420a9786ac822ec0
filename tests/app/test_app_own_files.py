"""The app with a pipe at each of its own files: it opens and shows its list, names each file
in a notice, and uses its defaults (a pipe read plainly would block the start for good)."""

from __future__ import annotations

import os
from pathlib import Path

from store import GLOBAL, MemoryStore
from tests.support.app import notices, run_app, wait_until


async def test_pipes_at_the_config_and_state_files_are_named_and_the_app_opens(
    root: Path, config_folder: Path, state_folder: Path
) -> None:
    config, state = config_folder, state_folder
    (config / "themes").mkdir(parents=True)
    state.mkdir()
    pipes = [
        config / "keymap.yaml",
        config / "settings.json",
        config / "themes" / "x.yaml",
        state / "review.json",
    ]
    for pipe in pipes:
        os.mkfifo(pipe)
    MemoryStore(root).create(GLOBAL, "From a chat", "Text.", source="ai", via="chat")
    async with run_app(root) as (app, pilot, screen):
        assert screen.table.row_count == 1
        await wait_until(
            pilot, lambda: any(m.startswith("Review marks: ") for m in notices(app)), "the marks"
        )
        not_regular = "is not used: it is not a regular file (a pipe, socket or device)"
        assert f"Keymap: {pipes[0]} {not_regular}; the default keys apply." in notices(app)
        assert f"Theme: {pipes[1]} {not_regular}; the default theme applies." in notices(app)
        assert "Theme skipped: x.yaml: it is not a regular file (a pipe, socket or device)" in notices(app)
        assert (
            f"Review marks: {pipes[3]} {not_regular}; no memory counts as reviewed until a review is marked."
            in notices(app)
        )
        assert screen.browse.marks.to_review == 1  # the defaults: nothing reviewed yet
        assert app.theme == "textual-dark"
