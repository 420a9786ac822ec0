"""write_fixed: the file a person fixed by hand is written under the store-wide lock, never through a link."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from filelock import FileLock

from store import GLOBAL, CouldNotChange, LooksSecret, MemoryStore
from tests.support.files import write_raw


def test_a_fixed_problem_file_is_written_and_read_again(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path / "oda")
    path = write_raw(store.memory_path(GLOBAL, "0badf11e"), "no frontmatter\n")
    store.refresh()
    assert [p.path for p in store.problems()] == [path]
    fixed = b"---\ntitle: Fixed\nenabled: true\nsource: user\n---\n\nNow it reads.\n"
    store.write_fixed(path, fixed, seen=b"no frontmatter\n")
    assert path.read_bytes() == fixed
    assert store.problems() == [] and store.get(GLOBAL, "0badf11e").text == "Now it reads."


def test_it_waits_for_the_store_wide_lock(root: Path, store: MemoryStore) -> None:
    path = write_raw(store.memory_path(GLOBAL, "0badf11e"), "no frontmatter\n")
    other = FileLock(str(root / ".lock"))  # another process's writer holds the lock
    other.acquire()
    done = threading.Event()

    def fix() -> None:
        store.write_fixed(path, b"fixed\n", seen=b"no frontmatter\n")
        done.set()

    worker = threading.Thread(target=fix)
    worker.start()
    assert not done.wait(0.5)  # cannot finish while the lock is held
    assert path.read_bytes() == b"no frontmatter\n"
    other.release()
    worker.join(60)
    assert done.is_set() and path.read_bytes() == b"fixed\n"


def test_it_never_writes_through_a_link_out_of_the_root(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "oda"
    store = MemoryStore(root)
    root.mkdir(exist_ok=True)
    (root / "global").symlink_to(outside)
    with pytest.raises(CouldNotChange):
        store.write_fixed(root / "global" / "0badf11e.md", b"fixed\n", seen=None)
    assert list(outside.iterdir()) == []


def test_a_fix_with_secret_looking_text_is_refused_unless_allowed(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path / "oda")
    path = write_raw(store.memory_path(GLOBAL, "0badf11e"), "no frontmatter\n")
    fixed = b"---\ntitle: Wifi\nenabled: true\nsource: user\n---\n\npassword: Hunter2-office!\n"
    with pytest.raises(LooksSecret) as info:
        store.write_fixed(path, fixed, seen=b"no frontmatter\n")
    assert info.value.kinds == ("password",)
    assert path.read_bytes() == b"no frontmatter\n"
    store.write_fixed(path, fixed, seen=b"no frontmatter\n", allow_secret=True)
    assert path.read_bytes() == fixed
    store.write_fixed(store.root / "settings.yaml", b"versions_kept: 5\n", seen=None)  # not a memory: no scan
