"""Recovery of a move is a write path too: a crafted or leftover ``.move.json`` never crosses
the root, a record the store cannot act on is set aside and listed, and nothing at
``.move.json`` or ``.lock`` blocks the store for good."""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from store import GLOBAL, MemoryStore
from tests.support.files import memory_file, write_raw


def _tree(folder: Path) -> dict[str, bytes | None]:
    """Every entry under ``folder``: file bytes, or None for a folder (links not followed)."""
    found: dict[str, bytes | None] = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = [d for d in dirnames if d != ".index"]  # the parse index, a cache written apart
        for name in dirnames:
            found[os.path.relpath(os.path.join(dirpath, name), folder)] = None
        for name in filenames:
            path = os.path.join(dirpath, name)
            found[os.path.relpath(path, folder)] = (
                b"link" if os.path.islink(path) else Path(path).read_bytes()
            )
    return found


def _outside(tmp_path: Path) -> Path:
    """An outside folder holding what a crafted record points at."""
    outside = tmp_path / "outside"
    write_raw(outside / "11111111.md", memory_file("Outside", "outside text"))
    write_raw(outside / "hist" / "11111111" / "versions" / "20250101T000000000Z-settings.md", "x")
    write_raw(outside / "hist" / "keep.txt", "outside")
    return outside


def _links(root: Path, outside: Path) -> None:
    (root / "workspaces").mkdir(parents=True, exist_ok=True)
    (root / "history" / "workspaces").mkdir(parents=True, exist_ok=True)
    os.symlink(outside, root / "workspaces" / "evil")
    os.symlink(outside / "hist", root / "history" / "workspaces" / "evil")


def _set_aside(root: Path, store: MemoryStore) -> list[Path]:
    aside = sorted(
        p for p in root.iterdir() if p.name.startswith(".move.json.") and p.name.endswith(".set-aside")
    )
    listed = [i.path for i in store.ignored() if i.path.name.endswith(".set-aside")]
    assert listed == aside
    return aside


def test_a_crafted_record_moving_from_a_linked_workspace_is_set_aside(tmp_path: Path, root: Path) -> None:
    outside = _outside(tmp_path)
    first = MemoryStore(root)
    first.create(GLOBAL, "Mine", "mine")
    _links(root, outside)
    write_raw(root / "global" / "22222222.md", memory_file("Dest", "dest"))
    record = {"from": "evil", "id": "11111111", "to": None, "new_id": "22222222"}
    write_raw(root / ".move.json", json.dumps(record))
    before = _tree(outside)
    store = MemoryStore(root)
    assert {m.title for m in store.memories(GLOBAL)} == {"Mine", "Dest"}  # a plain read: ``list``
    assert _tree(outside) == before
    assert not (root / "history" / "global" / "22222222").exists()
    assert not (root / ".move.json").exists()
    assert len(_set_aside(root, store)) == 1
    assert "set aside" in next(i.reason for i in store.ignored() if i.path.name.endswith(".set-aside"))


def test_a_crafted_record_moving_into_a_linked_workspace_is_set_aside(tmp_path: Path, root: Path) -> None:
    outside = _outside(tmp_path)
    first = MemoryStore(root)
    mine = first.create(GLOBAL, "Mine", "mine")
    _links(root, outside)
    os.rename(root / "history" / "global" / mine.id, root / "history" / "global" / "11111111")
    os.rename(mine.path, root / "global" / "11111111.md")
    write_raw(
        root / ".move.json", json.dumps({"from": None, "id": "11111111", "to": "evil", "new_id": "11111111"})
    )
    before_outside, before_history = _tree(outside), _tree(root / "history" / "global")
    store = MemoryStore(root)
    store.create(GLOBAL, "Another", "a change runs recovery too")
    assert _tree(outside) == before_outside
    assert (root / "history" / "global" / "11111111").is_dir()
    assert {k: v for k, v in _tree(root / "history" / "global").items() if k.startswith("11111111")} == {
        k: v for k, v in before_history.items() if k.startswith("11111111")
    }
    assert (root / "global" / "11111111.md").exists()
    assert len(_set_aside(root, store)) == 1


@pytest.mark.parametrize(
    "case",
    ["not json", "extra key", "same set", "dest is a folder", "history in both", "source set missing"],
)
def test_a_record_the_store_cannot_act_on_is_set_aside_not_acted_on(
    root: Path, store: MemoryStore, case: str
) -> None:
    memory = store.create(GLOBAL, "T", "text")
    store.create("ws", "W", "other")
    fields: dict[str, object] = {"from": None, "id": memory.id, "to": "ws", "new_id": memory.id}
    record: object = fields
    if case == "not json":
        record = "{not json"
    elif case == "extra key":
        record = {**fields, "more": 1}
    elif case == "same set":
        record = {"from": None, "id": memory.id, "to": None, "new_id": "abcdef01"}
    elif case == "dest is a folder":
        (root / "workspaces" / "ws" / f"{memory.id}.md").mkdir()
    elif case == "history in both":
        write_raw(root / "workspaces" / "ws" / f"{memory.id}.md", Path(memory.path).read_bytes())
        (root / "history" / "workspaces" / "ws" / memory.id).mkdir(parents=True)
    elif case == "source set missing":
        record = {"from": "gone", "id": memory.id, "to": None, "new_id": "abcdef01"}
        write_raw(root / "global" / "abcdef01.md", memory_file("Copy", "copy"))
    write_raw(root / ".move.json", record if isinstance(record, str) else json.dumps(record))
    before = _tree(root)
    after = MemoryStore(root)
    assert [m.text for m in after.memories(GLOBAL) if m.id == memory.id] == ["text"]
    assert not (root / ".move.json").exists()
    [aside] = _set_aside(root, after)
    now = _tree(root)
    assert now.pop(os.path.relpath(aside, root)) == before.pop(".move.json")
    assert now == before  # nothing else touched
    after.create(GLOBAL, "Later", "a later change goes through")


@contextmanager
def _socket_at(path: Path) -> Iterator[None]:
    sock = socket.socket(socket.AF_UNIX)
    cwd = os.getcwd()
    os.chdir(path.parent)  # a short name: socket paths are limited to about 100 bytes
    try:
        sock.bind(path.name)
    finally:
        os.chdir(cwd)
    try:
        yield
    finally:
        sock.close()


@pytest.mark.parametrize("what", ["socket", "oversized", "fifo"])
def test_a_move_record_that_is_not_a_small_file_never_blocks_a_change(
    root: Path, store: MemoryStore, what: str
) -> None:
    store.create(GLOBAL, "T", "text")
    watcher = MemoryStore(root)  # another process, loaded before
    watcher.memories(GLOBAL)
    path = root / ".move.json"
    if what == "socket":
        with _socket_at(path):
            store.create(GLOBAL, "Next", "goes through")
    else:
        if what == "oversized":
            write_raw(path, b"{" + b" " * 10_000 + b"}")
        else:
            os.mkfifo(path)
        store.create(GLOBAL, "Next", "goes through")
    assert not os.path.lexists(path)
    [aside] = _set_aside(root, MemoryStore(root))
    store.create(GLOBAL, "After", "and the next")
    assert watcher.refresh([aside]) == {aside}  # what another process set aside shows at once
    assert aside in [i.path for i in watcher.ignored()]


@pytest.mark.parametrize("what", ["socket", "fifo", "folder", "link"])
def test_what_is_not_a_lock_file_at_lock_is_set_aside(
    tmp_path: Path, root: Path, store: MemoryStore, what: str
) -> None:
    store.create(GLOBAL, "T", "text")
    lock = root / ".lock"
    lock.unlink()
    outside = write_raw(tmp_path / "precious.txt", "do not empty me")
    if what == "socket":
        with _socket_at(lock):
            store.create(GLOBAL, "Next", "goes through")
    else:
        {"fifo": os.mkfifo, "folder": os.mkdir, "link": lambda p: os.symlink(outside, p)}[what](lock)
        store.create(GLOBAL, "Next", "goes through")
    assert outside.read_text() == "do not empty me"
    assert lock.is_file() and not lock.is_symlink()
    fresh = MemoryStore(root)
    listed = [i for i in fresh.ignored() if i.path.name.startswith(".lock.")]
    assert len(listed) == 1 and "lock file" in listed[0].reason


def test_a_lock_that_cannot_be_set_aside_names_the_file(
    root: Path, store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.create(GLOBAL, "T", "text")
    (root / ".lock").unlink()
    os.mkfifo(root / ".lock")
    import store.durable.lock as store_lock

    monkeypatch.setattr(store_lock, "set_aside", lambda root, name: None)
    with pytest.raises(Exception) as info:
        store.create(GLOBAL, "Next", "refused")
    assert str(info.value) == (
        "The memory could not be changed: .lock in the memory folder is not the store's lock file "
        "(a link, a socket, a pipe or a folder) and could not be set aside; delete it."
    )
