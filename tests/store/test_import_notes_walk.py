"""A notes folder is walked by descriptors: linear in its folders however deep they go, with
its depth and size bounds checked before the work they bound, and a folder moved while it is
walked refused rather than followed elsewhere."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from store.exchange import notes_folder
from store.exchange.import_sources import read_sources
from store.exchange.importers import BadSource
from store.exchange.notes_folder import MAX_DEPTH, walk_files
from tests.support.timing import slowdown
from tests.support.tree import remove_tree


def chain(folder: Path, depth: int) -> Path:
    """``depth`` folders, each inside the one before (made from the one before's descriptor:
    pathlib's ``mkdir(parents=True)`` recurses once a level); the deepest."""
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _level in range(depth):
            os.mkdir("d", dir_fd=fd)
            child = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = child
    finally:
        os.close(fd)
    return folder.joinpath(*["d"] * depth)


@pytest.fixture
def tidy(tmp_path: Path) -> Iterator[None]:
    """Remove the chains of folders a test made (pytest tidies its temp folders with
    ``shutil.rmtree``, which recurses once a level and cannot remove them)."""
    yield
    for entry in list(tmp_path.iterdir()):
        if entry.is_dir() and not entry.is_symlink():
            remove_tree(entry)


@pytest.mark.usefixtures("tidy")
def test_a_deep_folder_is_walked_as_fast_as_a_wide_one(tmp_path: Path) -> None:
    deep, wide = tmp_path / "deep", tmp_path / "wide"
    (chain(deep, MAX_DEPTH) / "note.md").write_text("---\ntitle: Bottom\n---\nAt the bottom.\n")
    for number in range(MAX_DEPTH):
        (wide / f"d{number:04}").mkdir(parents=True)
    (wide / f"d{MAX_DEPTH - 1:04}" / "note.md").write_text("---\ntitle: Bottom\n---\nAt the bottom.\n")
    found = read_sources([str(deep)])
    assert [(c.title, c.text) for c in found.candidates] == [("Bottom", "At the bottom.")]
    assert found.candidates[0].origin == "/".join([str(deep), *["d"] * MAX_DEPTH, "note.md"])
    assert read_sources([str(wide)]).candidates[0].title == "Bottom"
    # Opening each folder from the root made this quadratic: depth 1,000 took 29 s.
    assert slowdown(lambda: read_sources([str(deep)]), lambda: read_sources([str(wide)])) < 20


@pytest.mark.usefixtures("tidy")
def test_folders_deeper_than_the_bound_are_refused_before_they_are_opened(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    deepest = chain(notes, MAX_DEPTH + 1)
    (deepest / "note.md").write_text("deep\n")
    with pytest.raises(
        BadSource, match=f"folders are nested more than {MAX_DEPTH} deep; nothing was imported"
    ):
        read_sources([str(notes)])


def test_a_folder_with_too_many_entries_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(notes_folder, "MAX_ENTRIES", 50)
    notes = tmp_path / "notes"
    for number in range(8):
        sub = notes / f"s{number}"
        sub.mkdir(parents=True)
        for index in range(7):
            (sub / f"{index}.txt").write_text("x")
    with pytest.raises(BadSource, match="it holds more than 50 files and folders"):
        read_sources([str(notes)])


def test_a_folder_moved_while_it_is_walked_is_refused(tmp_path: Path) -> None:
    notes, elsewhere = tmp_path / "notes", tmp_path / "elsewhere"
    (notes / "a" / "b").mkdir(parents=True)
    (notes / "a" / "b" / "n.md").write_text("x")
    (notes / "z.md").write_text("x")
    elsewhere.mkdir()
    taken: list[str] = []

    def take(fd: int, name: str, parts: tuple[str, ...], where: str) -> None:
        taken.append("/".join((*parts, name)))
        if parts == ("a", "b"):  # while the walk is in a/b, another program moves it away
            os.rename(notes / "a" / "b", elsewhere / "b")

    with pytest.raises(BadSource, match="it was moved while it was read"):
        walk_files(notes, "notes", lambda name: name.endswith(".md"), take)
    assert taken == ["z.md", "a/b/n.md"]  # the walk stopped where it found the folder gone


@pytest.mark.usefixtures("tidy")
def test_only_one_descriptor_is_held_however_deep(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    chain(notes, 300)
    before = len(os.listdir("/proc/self/fd"))
    most: list[int] = []

    def take(fd: int, name: str, parts: tuple[str, ...], where: str) -> None:
        most.append(len(os.listdir("/proc/self/fd")))

    for depth in range(0, 301, 50):
        (notes.joinpath(*["d"] * depth) / "n.md").write_text("x")
    walk_files(notes, "notes", lambda name: name.endswith(".md"), take)
    assert len(most) == 7 and max(most) <= before + 2  # the folder walked (and listdir's own)
    assert len(os.listdir("/proc/self/fd")) == before
