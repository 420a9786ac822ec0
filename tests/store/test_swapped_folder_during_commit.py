"""A folder swapped for a link to an outside folder after the store checked it, right before
the store creates its temp file there: nothing is created outside the root, and the change is
refused (or completed inside the folder it checked) with nothing left behind.

The swap is made by a hook on ``os.open``, at the moment the temp file (a ``.part``, a
version's ``.tmp``, a deletion record's ``.tmp``) is about to be created, as another process
renaming the folder away and putting a link in its place would. Every write is watched: not a
byte goes into a file outside, even one that would be taken away again.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from store import GLOBAL, CouldNotChange, MemoryStore
from store.disk.layout import history_dir
from tests.support.faults import snapshot

PREFIX = "The memory could not be changed: "


def _swap_before_temp(monkeypatch: pytest.MonkeyPatch, folder: Path, outside: Path, marker: str) -> list[str]:
    """Before the first file whose name holds ``marker`` is created, ``folder`` is renamed
    aside (inside the root) and a link to ``outside`` put in its place: the names created."""
    real_open = os.open
    swapped: list[str] = []

    def hooked(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        name = os.path.basename(os.fspath(path))
        if not swapped and flags & os.O_CREAT and marker in name:
            swapped.append(name)
            os.rename(folder, folder.with_name(folder.name + ".moved"))
            os.symlink(outside, folder)
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", hooked)
    return swapped


def _writes_outside(monkeypatch: pytest.MonkeyPatch, outside: Path) -> list[str]:
    """Every write into a file under ``outside`` (even one tidied away later): the files."""
    real_write = os.write
    found: list[str] = []

    def watched(fd: int, data: Any) -> int:
        where = os.readlink(f"/proc/self/fd/{fd}")
        if where.startswith(str(outside) + os.sep):
            found.append(where)
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", watched)
    return found


def _left_behind(root: Path) -> list[str]:
    """Temp files anywhere under the root, in the folders set aside by the swap too."""
    return sorted(
        rel
        for rel in snapshot(root)
        if rel.rsplit("/", 1)[-1].startswith(".") and rel.endswith((".tmp", ".part", ".new"))
    )


Change = Callable[[MemoryStore, str], object]

CASES: dict[str, tuple[Callable[[Path, str], Path], str, Change]] = {
    "the set, at a change's .part": (
        lambda root, i: root / "global",
        ".part",
        lambda s, i: s.change(GLOBAL, i, text="new text"),
    ),
    "the set, at a new memory's .part": (
        lambda root, i: root / "global",
        ".part",
        lambda s, i: s.create(GLOBAL, "New", "a new memory"),
    ),
    "the versions folder, at a version's temp file": (
        lambda root, i: history_dir(root, None, i) / "versions",
        ".version.",
        lambda s, i: s.change(GLOBAL, i, text="new text"),
    ),
    "the history folder, at a deletion record's temp file": (
        lambda root, i: history_dir(root, None, i),
        ".deleted.json.",
        lambda s, i: s.delete(GLOBAL, i),
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_folder_swapped_for_a_link_before_a_temp_file_gets_nothing_outside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    root, outside = tmp_path / "oda", tmp_path / "outside"
    store = MemoryStore(root)
    memory_id = store.create(GLOBAL, "Secret plan", "memory text that must stay inside").id
    # The outside folder holds files named like the store's own, for a write by path to reach.
    outside.mkdir()
    for name in (f"{memory_id}.md", "deleted.json", "theirs.txt"):
        (outside / name).write_text("another folder's file")
    before = snapshot(outside)
    where, marker, change = CASES[case]
    swapped = _swap_before_temp(monkeypatch, where(root, memory_id), outside, marker)
    written_outside = _writes_outside(monkeypatch, outside)

    try:
        change(store, memory_id)
    except CouldNotChange as exc:
        assert str(exc).startswith(PREFIX) and str(exc).endswith(".")

    monkeypatch.undo()
    assert swapped, "the hook never ran: the change created no such temp file"
    assert written_outside == []
    assert snapshot(outside) == before
    assert _left_behind(root) == []
