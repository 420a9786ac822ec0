"""The primitives under every read and write of the store: no link followed at any depth, only
regular files opened (never waiting on a pipe), no read past its bound."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from store.disk import safe_io
from store.limits import Limits
from store.read.scan import read_file


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "root"
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "b" / "f.md").write_bytes(b"inside")
    outside = tmp_path / "outside"
    (outside / "b").mkdir(parents=True)
    (outside / "b" / "f.md").write_bytes(b"outside")
    return root, outside


def test_a_link_at_any_depth_is_refused(tree: tuple[Path, Path]) -> None:
    root, outside = tree
    os.rename(root / "a" / "b", outside / "moved")
    os.symlink(outside / "b", root / "a" / "b")
    with pytest.raises(safe_io.Unsafe) as info:
        safe_io.read_regular(root, root / "a" / "b" / "f.md", 100)
    assert info.value.kind == "link" and info.value.filename == "a/b"
    assert info.value.reason == "a/b is a link, and links in the memory folder are never followed"
    with pytest.raises(safe_io.Unsafe):
        safe_io.check_folder(root, root / "a" / "b" / "new")
    assert not (outside / "b" / "new").exists()
    with pytest.raises(safe_io.Unsafe):
        safe_io.remove_file(root, root / "a" / "b" / "f.md")
    with pytest.raises(safe_io.Unsafe):
        safe_io.remove_tree(root, root / "a" / "b")
    assert (outside / "b" / "f.md").read_bytes() == b"outside"


def test_a_file_that_is_a_link_is_not_read_and_unlinking_it_keeps_its_target(tree: tuple[Path, Path]) -> None:
    root, outside = tree
    os.symlink(outside / "b" / "f.md", root / "a" / "link.md")
    with pytest.raises(safe_io.Unsafe) as info:
        safe_io.read_regular(root, root / "a" / "link.md", 100)
    assert info.value.kind == "link"
    with safe_io.folder(root, root / "a") as fd:
        assert read_file("link.md", Limits(), fd) is None
    assert safe_io.remove_file(root, root / "a" / "link.md")
    assert (outside / "b" / "f.md").read_bytes() == b"outside"


def test_a_file_where_a_folder_should_be_is_refused(tree: tuple[Path, Path]) -> None:
    root, _ = tree
    with pytest.raises(safe_io.Unsafe) as info:
        safe_io.check_folder(root, root / "a" / "b" / "f.md" / "x")
    assert info.value.kind == "not_folder" and info.value.reason == "a/b/f.md is not a folder"


def test_missing_folders_are_made_private(tree: tuple[Path, Path]) -> None:
    root, _ = tree
    safe_io.check_folder(root, root / "new" / "deeper")
    assert stat.S_IMODE(os.stat(root / "new" / "deeper").st_mode) == 0o700
    with pytest.raises(FileNotFoundError):
        safe_io.open_folder(root, root / "missing")
    assert safe_io.list_names(root, root / "missing") == []


def test_a_pipe_is_never_waited_on(tree: tuple[Path, Path]) -> None:
    root, _ = tree
    os.mkfifo(root / "a" / "pipe.md")
    with pytest.raises(safe_io.Unsafe) as info:
        safe_io.read_regular(root, root / "a" / "pipe.md", 100)
    assert info.value.kind == "not_regular"
    with safe_io.folder(root, root / "a") as fd:
        assert read_file("pipe.md", Limits(), fd) is None


def test_a_read_never_passes_its_bound(tree: tuple[Path, Path]) -> None:
    root, _ = tree
    with open(root / "a" / "sparse", "wb") as f:
        f.truncate(1 << 30)
    with pytest.raises(safe_io.TooLarge):
        safe_io.read_regular(root, root / "a" / "sparse", 1000)
    (root / "a" / "exact").write_bytes(b"x" * 1000)
    assert len(safe_io.read_regular(root, root / "a" / "exact", 1000)) == 1000
    (root / "a" / "over").write_bytes(b"x" * 1001)
    with pytest.raises(safe_io.TooLarge):
        safe_io.read_regular(root, root / "a" / "over", 1000)


def test_a_file_that_grew_past_the_bound_after_its_stat_is_refused(tree: tuple[Path, Path]) -> None:
    root, _ = tree
    path = root / "a" / "grows"
    path.write_bytes(b"x" * 10)
    fd, st = safe_io.open_regular(str(path))
    try:
        path.write_bytes(b"x" * 5000)  # same inode, larger now
        raw = safe_io.read_fd(fd, st.st_size, 1000)
    finally:
        os.close(fd)
    assert len(raw) == 1001  # one byte past the bound tells the caller, no more is read


def test_paths_outside_the_root_are_refused(tree: tuple[Path, Path]) -> None:
    root, outside = tree
    for path in (outside / "b" / "f.md", root / ".." / "outside" / "b" / "f.md"):
        with pytest.raises(safe_io.Unsafe) as info:
            safe_io.read_regular(root, path, 100)
        assert info.value.kind == "outside"
