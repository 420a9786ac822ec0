"""The demo's temporary folder: a demo that was killed leaves nothing behind for long."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from oda_tui.demo.folder import OWNER_FILE, PREFIX, new_demo_folder, sweep_stale_demo_folders


def dead_pid() -> int:
    child = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    return int(child.stdout)


def test_a_demo_folder_is_private_and_marked_with_its_owner(tmp_path: Path) -> None:
    folder = new_demo_folder(tmp_path)
    assert folder.name.startswith(PREFIX)
    assert os.stat(folder).st_mode & 0o777 == 0o700
    assert (folder / OWNER_FILE).read_text().strip() == str(os.getpid())


def test_only_folders_of_demos_that_are_gone_are_swept(tmp_path: Path) -> None:
    mine = new_demo_folder(tmp_path)
    gone = new_demo_folder(tmp_path)
    (gone / OWNER_FILE).write_text(f"{dead_pid()}\n")
    (gone / "memory").mkdir()
    running = new_demo_folder(tmp_path)
    (running / OWNER_FILE).write_text("1\n")  # init: always running
    unmarked = tmp_path / f"{PREFIX}old"
    unmarked.mkdir()
    other = tmp_path / "something-else"
    other.mkdir()
    (other / OWNER_FILE).write_text(f"{dead_pid()}\n")

    assert sweep_stale_demo_folders(tmp_path) == [gone]
    assert not gone.exists()
    assert mine.exists() and running.exists() and unmarked.exists() and other.exists()
