"""A move whose history cannot follow is refused and rolled back completely: no id in two
sets, no ``.move.json`` left, later changes not blocked. And a change's read-back of the file
it wrote never goes through a link."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import store.durable.commit as commit_mod
import store.durable.moves as moves
from store import GLOBAL, CouldNotChange, MemoryStore
from store.disk.swap import rename_new_at
from tests.support.files import memory_file, write_raw


def _where(root: Path, memory_id: str) -> dict[str, list[str]]:
    """Which sets a fresh store (a restart) finds the id in, and where its history is."""
    fresh = MemoryStore(root)
    sets = {"global": [m.id for m in fresh.memories(GLOBAL)], "ws": [m.id for m in fresh.memories("ws")]}
    return {
        "in": [name for name, ids in sets.items() if memory_id in ids],
        "history": [
            name
            for name, folder in (("global", "history/global"), ("ws", "history/workspaces/ws"))
            if (root / folder / memory_id).is_dir()
        ],
    }


def _prepared(root: Path) -> tuple[MemoryStore, str, list[str]]:
    store = MemoryStore(root)
    store.create("ws", "There", "the target set exists")
    memory = store.create(GLOBAL, "T", "moving")
    store.change(GLOBAL, memory.id, text="moving on")
    return store, memory.id, [v.name for v in store.versions(GLOBAL, memory.id)]


def _assert_rolled_back(root: Path, store: MemoryStore, memory_id: str, versions: list[str]) -> None:
    assert _where(root, memory_id) == {"in": ["global"], "history": ["global"]}
    assert not os.path.lexists(root / ".move.json")
    assert not (root / "workspaces" / "ws" / f"{memory_id}.md").exists()
    assert [v.name for v in MemoryStore(root).versions(GLOBAL, memory_id)] == versions
    store.create(GLOBAL, "Later", "a later change goes through")
    moved = store.move(GLOBAL, memory_id, "ws")  # and the move itself, once the fault is gone
    assert moved.text == "moving on"
    assert _where(root, memory_id) == {"in": ["ws"], "history": ["ws"]}


@pytest.mark.parametrize("code", [errno.EACCES, errno.EXDEV, errno.ENOSPC])
def test_a_move_whose_history_cannot_follow_is_rolled_back(
    root: Path, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    store, memory_id, versions = _prepared(root)
    real = rename_new_at  # what moves calls

    def refused(*args: Any) -> None:
        monkeypatch.setattr(moves, "rename_new_at", real)  # this once
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(moves, "rename_new_at", refused)
    with pytest.raises(CouldNotChange) as info:
        store.move(GLOBAL, memory_id, "ws")
    assert str(info.value) == f"The memory could not be changed: {os.strerror(code)}."
    _assert_rolled_back(root, store, memory_id, versions)


@pytest.mark.parametrize("code", [errno.EACCES, errno.EIO])
def test_a_move_that_cannot_take_the_source_away_puts_the_history_back(
    root: Path, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    store, memory_id, versions = _prepared(root)
    real = os.rename

    def rename(src: Any, dst: Any, **kw: Any) -> None:
        if src == f"{memory_id}.md" and kw:
            raise OSError(code, os.strerror(code))
        real(src, dst, **kw)

    monkeypatch.setattr(os, "rename", rename)
    with pytest.raises(CouldNotChange):
        store.move(GLOBAL, memory_id, "ws")
    monkeypatch.setattr(os, "rename", real)
    _assert_rolled_back(root, store, memory_id, versions)


_MOVE = """
import sys
from store import MemoryStore, StoreError
try:
    MemoryStore(sys.argv[1]).move(None, sys.argv[2], "ws")
except StoreError as exc:
    print(exc)
"""


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None, reason="needs root and setpriv")
def test_a_move_refused_by_an_unwritable_history_without_dac_override(root: Path) -> None:
    store, memory_id, versions = _prepared(root)
    (root / "history" / "global").chmod(0o500)
    try:
        done = subprocess.run(
            [
                "setpriv",
                "--bounding-set=-all",
                "--inh-caps=-all",
                sys.executable,
                "-c",
                _MOVE,
                str(root),
                memory_id,
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
            cwd=root.parent,  # not the checkout: the store under test is the installed one
        )
    finally:
        (root / "history" / "global").chmod(0o700)
    assert done.stdout.strip() == "The memory could not be changed: Permission denied."
    _assert_rolled_back(root, store, memory_id, versions)


@pytest.mark.parametrize("edited", [False, True])
def test_a_leftover_move_that_cannot_be_finished_never_blocks_a_change(
    root: Path, monkeypatch: pytest.MonkeyPatch, edited: bool
) -> None:
    store, memory_id, _versions = _prepared(root)
    copy = Path(store.get(GLOBAL, memory_id).path).read_bytes()
    if edited:  # saved in the new place since the kill: removing it would lose that
        copy = copy.replace(b"moving on", b"edited in the new place")
    write_raw(root / "workspaces" / "ws" / f"{memory_id}.md", copy)
    write_raw(
        root / ".move.json", json.dumps({"from": None, "id": memory_id, "to": "ws", "new_id": memory_id})
    )

    def refused(*args: Any) -> None:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(moves, "rename_new_at", refused)  # the history cannot follow
    later = MemoryStore(root)
    later.create(GLOBAL, "Elsewhere", "goes through")
    later.create("ws", "And here", "too")
    assert not os.path.lexists(root / ".move.json")
    listed = [i for i in later.ignored() if i.path.name.startswith(".move.json.")]
    if edited:  # neither finished nor rolled back: set aside, both copies kept, and said so
        assert _where(root, memory_id) == {"in": ["global", "ws"], "history": ["global"]}
        assert len(listed) == 1 and "two sets" in listed[0].reason
    else:  # rolled back: the new file held exactly the old one's bytes
        assert _where(root, memory_id) == {"in": ["global"], "history": ["global"]}
        assert listed == []


def test_the_read_back_of_a_written_file_never_goes_through_a_link(
    tmp_path: Path, root: Path, store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = store.create(GLOBAL, "T", "mine")
    outside = tmp_path / "outside"
    write_raw(outside / f"{memory.id}.md", memory_file("T", "TEXT FROM OUTSIDE THE ROOT"))
    real = commit_mod.commit

    def then_swapped(*args: Any, **kw: Any) -> None:
        real(*args, **kw)  # written: now, before the read-back, global/ becomes a link
        os.rename(root / "global", tmp_path / "real-global")
        os.symlink(outside, root / "global")

    monkeypatch.setattr(commit_mod, "commit", then_swapped)
    with pytest.raises(CouldNotChange) as info:
        store.change(GLOBAL, memory.id, text="changed")
    assert "global is a link" in str(info.value)
    assert all("OUTSIDE" not in m.text for m in store.memories(GLOBAL))
    assert (tmp_path / "real-global" / f"{memory.id}.md").read_text().endswith("changed\n")


def test_a_leftover_move_whose_history_moved_is_rolled_back_with_its_history(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, memory_id, versions = _prepared(root)
    write_raw(
        root / "workspaces" / "ws" / f"{memory_id}.md", Path(store.get(GLOBAL, memory_id).path).read_bytes()
    )
    (root / "history" / "workspaces" / "ws").mkdir(parents=True, exist_ok=True)
    os.rename(root / "history" / "global" / memory_id, root / "history" / "workspaces" / "ws" / memory_id)
    write_raw(
        root / ".move.json", json.dumps({"from": None, "id": memory_id, "to": "ws", "new_id": memory_id})
    )
    real = os.rename

    def rename(src: Any, dst: Any, **kw: Any) -> None:
        if src == f"{memory_id}.md" and kw:  # the old file cannot be taken away
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real(src, dst, **kw)

    monkeypatch.setattr(os, "rename", rename)
    MemoryStore(root).create(GLOBAL, "Elsewhere", "goes through")
    monkeypatch.setattr(os, "rename", real)
    assert not os.path.lexists(root / ".move.json")
    assert _where(root, memory_id) == {"in": ["global"], "history": ["global"]}
    assert [v.name for v in MemoryStore(root).versions(GLOBAL, memory_id)] == versions
