"""Watching the store's folders: each folder the store reads, on its own, never through a link.

A recursive watch follows links: a link to ``/`` inside the store had the watcher walk the
whole file system. These tests look at the real inotify watches the process holds
(``/proc/self/fdinfo``) and at what changes are reported.
"""

from __future__ import annotations

import os
import queue
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from oda_tui.session.folder_watch import WATCHING, watch_store
from store import changes_folders, folders_to_watch

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")

#: A hang guard only: every wait below ends as soon as what it waits for happened.
HANG_GUARD_S = 60.0


def make_folders(root: Path) -> None:
    """The folders of a store with Global and two workspaces, alpha and beta (no memory yet)."""
    for folder in ("global", "workspaces/alpha", "workspaces/beta"):
        (root / folder).mkdir(parents=True)


def watched_inodes() -> list[int]:
    """The inode of every folder this process holds an inotify watch on now."""
    inodes = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{fd}") != "anon_inode:inotify":
                continue
            with open(f"/proc/self/fdinfo/{fd}") as info:
                for line in info:
                    if line.startswith("inotify wd:"):
                        fields = dict(part.split(":", 1) for part in line.split()[1:])
                        inodes.append(int(fields["ino"], 16))
        except OSError:
            continue
    return inodes


def inodes(paths: list[Path]) -> list[int]:
    return [os.stat(path).st_ino for path in paths]


class Watching:
    """``watch_store`` run in a thread; its batches arrive on a queue."""

    def __init__(self, root: Path) -> None:
        self.stop = threading.Event()
        self.batches: queue.Queue[set[Path] | None] = queue.Queue()
        self.seen: list[set[Path]] = []
        self._thread = threading.Thread(target=self._run, args=(root,), daemon=True)
        self._thread.start()

    def _run(self, root: Path) -> None:
        for batch in watch_store(root, self.stop):
            self.batches.put(batch)

    def next_watching(self) -> None:
        """Wait for the next time the watch is (re)made; keep the changes that came before."""
        while True:
            batch = self.batches.get(timeout=HANG_GUARD_S)
            if batch is WATCHING:
                return
            self.seen.append(batch)

    def until_seen(self, path: Path) -> set[Path]:
        """Wait until ``path`` is reported; every path reported so far."""
        while not any(path in batch for batch in self.seen):
            batch = self.batches.get(timeout=HANG_GUARD_S)
            if batch is not WATCHING:
                self.seen.append(batch)
        return set().union(*self.seen)

    def close(self) -> None:
        self.stop.set()
        self._thread.join(HANG_GUARD_S)


@pytest.fixture
def watching(tmp_path: Path) -> Iterator[tuple[Path, Path, Watching]]:
    root, outside = tmp_path / "oda", tmp_path / "outside"
    make_folders(root)
    (outside / "deep" / "deeper").mkdir(parents=True)
    (root / "workspaces" / "linked").symlink_to(outside, target_is_directory=True)
    (root / "global" / "linked").symlink_to(outside, target_is_directory=True)
    watch = Watching(root)
    watch.next_watching()
    watched = watched_inodes()
    store_folders = folders_to_watch(root)
    assert len(store_folders) == 5
    assert all(watched.count(inode) == 1 for inode in inodes(store_folders))
    outside_folders = [outside, outside / "deep", outside / "deep" / "deeper"]
    assert not set(inodes(outside_folders)) & set(watched)
    yield root, outside, watch
    watch.close()


def test_the_folders_watched_are_the_ones_the_store_reads_and_no_link(root: Path) -> None:
    make_folders(root)
    (root / "workspaces" / "to-root").symlink_to("/", target_is_directory=True)
    (root / "workspaces" / "in-store").symlink_to(root / "global", target_is_directory=True)
    (root / "workspaces" / "not a key!").mkdir()
    (root / "workspaces" / "a-file").write_text("not a folder")
    os.mkfifo(root / "workspaces" / "a-pipe")
    (root / "history" / "global").mkdir(parents=True)
    assert folders_to_watch(root) == [
        root,
        root / "global",
        root / "workspaces",
        root / "workspaces" / "alpha",
        root / "workspaces" / "beta",
    ]


def test_a_global_or_workspaces_folder_that_is_a_link_is_not_watched(tmp_path: Path) -> None:
    root, outside = tmp_path / "oda", tmp_path / "outside"
    (outside / "ws").mkdir(parents=True)
    root.mkdir()
    (root / "global").symlink_to(outside, target_is_directory=True)
    (root / "workspaces").symlink_to(outside, target_is_directory=True)
    assert folders_to_watch(root) == [root]
    assert folders_to_watch(tmp_path / "missing") == []


def test_which_changes_remake_the_watch(tmp_path: Path, root: Path) -> None:
    remake = [root, root / "global", root / "workspaces", root / "workspaces" / "new"]
    keep = [root / "settings.yaml", root / "global" / "0123abcd.md", root / "workspaces" / "a" / "x.md"]
    keep += [root / "history" / "global", tmp_path / "elsewhere"]
    assert [changes_folders(root, [path]) for path in remake] == [True] * 4
    assert [changes_folders(root, [path]) for path in keep] == [False] * 5


def test_a_change_behind_a_link_is_never_reported(watching: tuple[Path, Path, Watching]) -> None:
    root, outside, watch = watching
    (outside / "0123abcd.md").write_text("outside")
    (outside / "deep" / "deeper" / "0123abcd.md").write_text("deeper outside")
    real = root / "workspaces" / "alpha" / "89abcdef.md"
    real.write_text("inside")
    reported = watch.until_seen(real)
    assert all(root in path.parents or path == root for path in reported), reported
    assert not [path for path in reported if "linked" in path.parts], reported


def test_a_workspace_made_after_the_start_is_watched_too(watching: tuple[Path, Path, Watching]) -> None:
    root, _outside, watch = watching
    (root / "workspaces" / "gamma").mkdir()
    watch.next_watching()  # the watch is made again, over the new folder as well
    late = root / "workspaces" / "gamma" / "0123abcd.md"
    late.write_text("in the new workspace")
    assert late in watch.until_seen(late)


def test_a_store_made_after_the_start_is_watched_once_it_exists(tmp_path: Path, root: Path) -> None:
    watch = Watching(root)
    try:
        watch.next_watching()  # nothing there: that much is known
        made = tmp_path / "made"
        make_folders(made)
        made.rename(root)  # the whole store appears at once
        watch.next_watching()  # the root appeared: watched from now on
        memory = root / "global" / "0123abcd.md"
        memory.write_text("first memory")
        assert memory in watch.until_seen(memory)
    finally:
        watch.close()
