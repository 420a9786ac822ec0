"""The problems view on a hostile tree: an entry listed as ignored because it is a link or a
pipe is shown with the store's refusal, never read through."""

from __future__ import annotations

import os
from pathlib import Path

from textual.widgets import TextArea

from oda_tui.screens.problems import ProblemsScreen
from store import GLOBAL, MemoryStore
from tests.support.app import open_view, run_app, settle, wait_until, write_raw


async def test_a_link_or_a_pipe_listed_as_ignored_is_never_read(
    tmp_path: Path, root: Path, store: MemoryStore
) -> None:
    store.create(GLOBAL, "Fine", "A good one.")
    outside = write_raw(tmp_path / "outside.md", "secret outside text\n")
    folder = store.memory_path(GLOBAL, "00000000").parent
    (folder / "0000aaaa.md").symlink_to(outside)
    os.mkfifo(folder / "0000bbbb.md")
    async with run_app(root, size=(100, 30)) as (_, pilot, _):
        problems = await open_view(pilot, "exclamation_mark", ProblemsScreen)
        names = [e.path.name for e in problems.entries if e.path is not None]
        assert names == ["0000aaaa.md", "0000bbbb.md"]
        raw = problems.query_one("#problem-raw", TextArea)
        for _ in names:
            await wait_until(pilot, lambda: raw.text.startswith("(could not read: "), "the refusal shown")
            assert "secret" not in raw.text and raw.read_only
            await pilot.press("down")
            await settle(pilot)
