"""The demo's temporary folder: a demo that was killed leaves nothing behind for long."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from oda_tui.demo.folder import (
    OWNER_FILE,
    PREFIX,
    new_demo_folder,
    remove_demo_folder,
    sweep_stale_demo_folders,
)


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


class Killed(BaseException):
    """The process ending in the middle of a removal."""


def removal_cut_at(step: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on, the removal of a file or folder after ``step`` others ends the process."""
    done = 0

    def cut(real: Callable[..., None]) -> Callable[..., None]:
        def removal(*args: object, **kwargs: object) -> None:
            nonlocal done
            if done == step:
                raise Killed
            done += 1
            real(*args, **kwargs)

        return removal

    monkeypatch.setattr(os, "unlink", cut(os.unlink))
    monkeypatch.setattr(os, "rmdir", cut(os.rmdir))


def test_a_removal_cut_short_at_any_point_leaves_the_owner_mark_for_the_next_sweep(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    step = 0
    while True:
        base = tmp_path / f"try{step}"
        base.mkdir()
        folder = new_demo_folder(base)
        for name in ("a", "b", "c"):
            (folder / "memory" / name).mkdir(parents=True)
            (folder / "memory" / name / "x.md").write_text("x")
        (folder / "state.json").write_text("{}")
        removal_cut_at(step, monkeypatch)
        try:
            remove_demo_folder(folder)
            finished = True
        except Killed:
            finished = False
        monkeypatch.undo()
        if finished:
            assert not folder.exists()
            break
        step += 1
        left = sorted(p.name for p in folder.iterdir())
        if not left:  # cut between the mark and the folder itself: an empty folder, nothing lost
            continue
        # Cut short: whatever is left still carries its owner's mark, so it is swept.
        assert OWNER_FILE in left, (step, left)
        (folder / OWNER_FILE).write_text(f"{dead_pid()}\n")
        assert sweep_stale_demo_folders(base) == [folder] and not folder.exists()
    assert step > 5  # every file and folder of the sample was a point to cut at
