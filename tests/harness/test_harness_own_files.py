"""The app's and the CLI's own files under attack: a pipe, a character device, a sparse 2 GB file
and JSON or YAML nested 100,000 deep at every config and state path.

Each read is guarded by a thread (a hang fails instead of stalling the run) and by the
process's peak memory (a read that took the file whole would add gigabytes); each refused file
is named, and the defaults apply.
"""

from __future__ import annotations

import os
import resource
import stat
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from oda_tui.config.keymap import KEYMAP_MAX_BYTES, load_keymap
from oda_tui.config.theming import SETTINGS_MAX_BYTES, THEME_MAX_BYTES, load_themes, save_theme, saved_theme
from oda_tui.demo.folder import OWNER_FILE, PREFIX, sweep_stale_demo_folders
from oda_tui.own_files.drafts import MAX_BYTES as DRAFT_MAX_BYTES
from oda_tui.own_files.drafts import SET_ASIDE, draft_path, kept_drafts
from oda_tui.own_files.review_marks import mark_reviewed, review_with_problem
from store import GLOBAL, MemoryStore

HANG_GUARD = 60.0
#: What a bounded read may add to the process's peak memory (a whole read adds gigabytes).
MEMORY_ROOM_KB = 200 * 1024
KINDS = ("fifo", "device", "sparse", "deep")


def make_hostile(path: Path, kind: str, *, yaml: bool = False, max_bytes: int = 1 << 30) -> None:
    """Put a hostile entry of ``kind`` at ``path``; a deep one nests 100,000 deep, or as deep
    as the file's bound ``max_bytes`` allows (so its depth is what is refused, not its size)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        try:
            os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 5))  # /dev/zero: endless bytes
        except PermissionError:
            pytest.skip("making a character device needs CAP_MKNOD (run the suite as root)")
    elif kind == "sparse":
        with open(path, "wb") as f:
            f.truncate(2 << 30)
    else:
        depth = min(100_000, (max_bytes - 8) // 2)
        path.write_text("[" * depth + "]" * depth if not yaml else "k: " + "[" * depth + "]" * depth)


def guarded(call: Callable[[], Any]) -> Any:
    """Run ``call`` in a thread: it must end, and add no more than ``MEMORY_ROOM_KB`` of peak
    memory."""
    result: dict[str, Any] = {}

    def target() -> None:
        try:
            result["value"] = call()
        except BaseException as exc:  # noqa: BLE001 - re-raised in the test's thread
            result["error"] = exc

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    worker.join(HANG_GUARD)
    assert not worker.is_alive(), "the read blocked"
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown < MEMORY_ROOM_KB, f"the read took {grown} KB"
    if "error" in result:
        raise result["error"]
    return result.get("value")


@pytest.fixture
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    config, state = tmp_path / "config", tmp_path / "state"
    monkeypatch.setenv("ODA_TUI_CONFIG", str(config))
    monkeypatch.setenv("ODA_TUI_STATE", str(state))
    return config, state


@pytest.mark.parametrize("kind", KINDS)
def test_keymap(folders: tuple[Path, Path], kind: str) -> None:
    path = folders[0] / "keymap.yaml"
    make_hostile(path, kind, yaml=True, max_bytes=KEYMAP_MAX_BYTES)
    loaded = guarded(load_keymap)
    assert loaded.keymap == {}  # the default keys
    if kind == "deep":  # a file of one line: that line is named
        assert loaded.problems == [
            f"keymap.yaml line 1: “k: {'[' * 56}…” is not “binding.id: keys”, so it is not used."
        ]
    else:
        assert len(loaded.problems) == 1 and loaded.problems[0].startswith(f"{path} is not used: ")
        assert loaded.problems[0].endswith("; the default keys apply.")


@pytest.mark.parametrize("kind", KINDS)
def test_settings_json(folders: tuple[Path, Path], kind: str) -> None:
    path = folders[0] / "settings.json"
    make_hostile(path, kind, max_bytes=SETTINGS_MAX_BYTES)
    saved = guarded(saved_theme)
    assert saved.name is None  # the default theme
    assert saved.problem is not None and saved.problem.startswith(f"{path} is not used: ")
    before = path.lstat()
    guarded(lambda: save_theme("oda-paper"))  # a file it cannot read is left as it is
    after = path.lstat()
    assert (after.st_ino, after.st_mode, after.st_size) == (before.st_ino, before.st_mode, before.st_size)


@pytest.mark.parametrize("kind", KINDS)
def test_a_theme_file(folders: tuple[Path, Path], kind: str) -> None:
    themes = folders[0] / "themes"
    make_hostile(themes / "x.yaml", kind, yaml=True, max_bytes=THEME_MAX_BYTES)
    (themes / "good.yaml").write_text("name: mine\nprimary: '#123456'\n")
    loaded = guarded(lambda: load_themes([themes]))
    assert [t.name for t in loaded.themes] == ["mine"]  # the others still load
    assert len(loaded.problems) == 1 and loaded.problems[0].startswith("x.yaml: ")


@pytest.mark.parametrize("kind", KINDS)
def test_review_json(folders: tuple[Path, Path], kind: str, tmp_path: Path) -> None:
    path = folders[1] / "review.json"
    store = MemoryStore(tmp_path / "oda")
    store.create(GLOBAL, "From a chat", "Text.", source="ai", via="chat")
    make_hostile(path, kind)
    items, problem = guarded(lambda: review_with_problem(store))
    assert len(items) == 1  # no memory counts as reviewed
    assert problem is not None and problem.startswith(f"{path} is not used: ")
    # Marking a review replaces the file that could not be used.
    guarded(lambda: mark_reviewed(store, GLOBAL, items[0].memory.id))
    assert guarded(lambda: review_with_problem(store)) == ([], None)


@pytest.mark.parametrize("kind", KINDS)
def test_a_draft(folders: tuple[Path, Path], kind: str, root: Path) -> None:
    path = draft_path(root, GLOBAL, None)
    make_hostile(path, kind, max_bytes=DRAFT_MAX_BYTES)
    found = guarded(lambda: kept_drafts(root))
    assert found.drafts == []
    assert [aside.name for aside, _why in found.set_aside] == [path.name + SET_ASIDE]


@pytest.mark.parametrize("kind", KINDS)
def test_the_demos_owner_mark(tmp_path: Path, kind: str) -> None:
    folder = tmp_path / f"{PREFIX}x"
    make_hostile(folder / OWNER_FILE, kind)
    assert guarded(lambda: sweep_stale_demo_folders(tmp_path)) == []  # not known as a demo's: kept
    assert folder.exists()


@pytest.mark.parametrize("kind", ("fifo", "deep"))
def test_check_review_names_the_file_and_goes_on(
    folders: tuple[Path, Path], kind: str, tmp_path: Path
) -> None:
    path = folders[1] / "review.json"
    root = tmp_path / "oda"
    MemoryStore(root).create(GLOBAL, "From a chat", "Text.", source="ai", via="chat")
    make_hostile(path, kind)
    done = subprocess.run(
        [sys.executable, "-m", "oda_tui", "check", "--review", "--root", str(root)],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
        timeout=HANG_GUARD,
        check=False,
    )
    assert done.returncode == 1, done.stderr  # found: one memory waits for review
    assert done.stderr.startswith(f"{path} is not used: "), done.stderr
    assert "1 memory the agent saved or changed is waiting for review." in done.stdout


def test_a_link_is_followed_in_the_config_folder_only(folders: tuple[Path, Path], tmp_path: Path) -> None:
    """The config folder is the person's (dotfile managers link files there): a link is
    followed, but what it leads to must be a regular file; the state folder is the app's: a
    link there is refused."""
    config, state = folders
    config.mkdir()
    state.mkdir()
    elsewhere = tmp_path / "dotfiles" / "keymap.yaml"
    elsewhere.parent.mkdir()
    elsewhere.write_text("memory.new: ctrl+n\n")
    (config / "keymap.yaml").symlink_to(elsewhere)
    assert guarded(load_keymap).keymap == {"memory.new": "ctrl+n"}
    (config / "settings.json").symlink_to("/dev/zero")  # never opened: it is no regular file
    saved = guarded(saved_theme)
    assert saved.problem == (
        f"{config / 'settings.json'} is not used: it is not a regular file (a pipe, socket or device); "
        "the default theme applies."
    )
    store = MemoryStore(tmp_path / "oda")
    store.create(GLOBAL, "From a chat", "Text.", source="ai", via="chat")
    marks = tmp_path / "marks.json"
    marks.write_text('{"format": 1, "stores": {}}')
    (state / "review.json").symlink_to(marks)
    items, problem = guarded(lambda: review_with_problem(store))
    assert len(items) == 1
    assert problem == (
        f"{state / 'review.json'} is not used: it is a link, and links are not followed here; "
        "no memory counts as reviewed until a review is marked."
    )
