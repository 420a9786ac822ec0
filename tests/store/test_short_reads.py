"""Reads and writes that do part of what was asked, as network and FUSE file systems do, and
calls interrupted by a signal (EINTR): every file is still read whole and written whole.

The calls are wrapped at ``os.read`` and ``os.write``, so every reader and writer of the
project (the store, its history, the parse index, the app's own files) is under them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from store import GLOBAL, MemoryStore, load_json_config
from store.disk import safe_io
from store.disk.atomic import write_atomic
from tests.support.files import memory_file, write_raw

#: What a read or a write does at most, as the FUSE file system that lost an outside edit did.
STEP = 150

OUTSIDE_TEXT = "\n".join(f"Line {n} of a note saved in another editor, long enough." for n in range(1, 30))


def _short_reads_and_writes(monkeypatch: pytest.MonkeyPatch, step: int = STEP) -> None:
    real_read, real_write = os.read, os.write

    def read(fd: int, n: int) -> bytes:
        return real_read(fd, min(n, step))

    def write(fd: int, data: Any) -> int:
        return real_write(fd, memoryview(data)[:step])

    monkeypatch.setattr(os, "read", read)
    monkeypatch.setattr(os, "write", write)


def _interrupted_every_other_call(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """``os.read`` and ``os.write`` fail with EINTR at every other call: the calls seen."""
    seen: list[str] = []

    def interrupted(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            seen.append(name)
            if len(seen) % 2:
                raise InterruptedError(4, "Interrupted system call")
            return real(*args)

        return call

    monkeypatch.setattr(os, "read", interrupted("read", os.read))
    monkeypatch.setattr(os, "write", interrupted("write", os.write))
    return seen


def test_a_chats_change_keeps_the_whole_outside_edit_when_reads_are_short(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = MemoryStore(root)
    made = store.create(GLOBAL, "Notes", "the first text")
    path = store.memory_path(GLOBAL, made.id)
    write_raw(path, memory_file(title="Notes", text=OUTSIDE_TEXT))
    assert path.stat().st_size > 10 * STEP
    _short_reads_and_writes(monkeypatch)

    changed = store.change(GLOBAL, made.id, title="Notes, renamed", via="chat")

    assert changed.memory.text == OUTSIDE_TEXT
    monkeypatch.undo()
    assert MemoryStore(root).get(GLOBAL, made.id).text == OUTSIDE_TEXT
    assert OUTSIDE_TEXT in path.read_text()
    assert [v.text for v in store.versions(GLOBAL, made.id) if v.source == "external"] == [OUTSIDE_TEXT]


def test_a_store_loads_every_file_whole_when_reads_are_short(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = MemoryStore(root)
    ids = [store.create(GLOBAL, f"Note {n}", OUTSIDE_TEXT + f"\n{n}").id for n in range(3)]
    _short_reads_and_writes(monkeypatch)

    fresh = MemoryStore(root)

    assert [fresh.get(GLOBAL, i).text for i in ids] == [OUTSIDE_TEXT + f"\n{n}" for n in range(3)]
    assert [v.text for v in fresh.versions(GLOBAL, ids[0])] == [OUTSIDE_TEXT + "\n0"]


def test_an_apps_own_file_is_read_whole_when_reads_are_short(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"theme": "oda-dark", "notes": "' + "x" * 2000 + '"}')
    _short_reads_and_writes(monkeypatch)

    assert load_json_config(path, 64 * 1024, follow_links=True) == {"theme": "oda-dark", "notes": "x" * 2000}


def test_an_interrupted_read_or_write_is_asked_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = OUTSIDE_TEXT.encode() * 3
    seen = _interrupted_every_other_call(monkeypatch)

    write_atomic(tmp_path / "note.md", data, root=tmp_path)
    read_back = safe_io.read_regular(tmp_path, tmp_path / "note.md", 1 << 20)

    monkeypatch.undo()
    assert "read" in seen and "write" in seen
    assert read_back == data == (tmp_path / "note.md").read_bytes()


def test_the_read_loop_stops_at_its_bound_however_the_file_grows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "grows.md"
    path.write_bytes(b"x" * 100)
    with safe_io.regular_file(tmp_path, path) as (fd, st):
        path.write_bytes(b"y" * 5000)  # grown after the fstat: read to the bound, one byte past it
        _short_reads_and_writes(monkeypatch, step=50)
        raw = safe_io.read_fd(fd, st.st_size, 1000)
    assert raw == b"y" * 1001
