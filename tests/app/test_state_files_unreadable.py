"""The app's own state files when the disk cannot read them just now (EIO): nothing in them is
replaced or set aside on account of it. (The fault harness holds every call of these writers to
the same rule: ``tests/harness/test_harness_faults.py``.)"""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path
from typing import Any

import pytest

from oda_tui.own_files.drafts import draft_path, keep, kept_drafts, new_draft
from oda_tui.own_files.review_marks import carry_mark, mark_reviewed, reviewed_mark
from store import GLOBAL, MemoryStore


def _reads_of(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    """Every read of ``path`` fails with EIO (its open succeeds: the file is there)."""
    real_read = os.read

    def read(fd: int, n: int) -> bytes:
        if os.readlink(f"/proc/self/fd/{fd}") == str(path):
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        return real_read(fd, n)

    monkeypatch.setattr(os, "read", read)


def test_a_review_file_the_disk_cannot_read_is_not_replaced_by_a_mark(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = MemoryStore(tmp_path / "oda")
    path = tmp_path / "state" / "review.json"
    mark_reviewed(store, GLOBAL, "0123abcd", version="20260101T000000000Z-chat", path=path)
    mark_reviewed(store, "web", "89abcdef", version="20260102T000000000Z-chat", path=path)
    before = path.read_bytes()
    _reads_of(monkeypatch, path)

    with pytest.raises(OSError) as info:
        mark_reviewed(store, GLOBAL, "fedcba98", version="20260103T000000000Z-chat", path=path)

    assert info.value.errno == errno.EIO
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert reviewed_mark(store, "web", "89abcdef", path=path) == "20260102T000000000Z-chat"
    assert [p.name for p in path.parent.iterdir()] == ["review.json"]


def test_a_moved_memorys_mark_is_carried_in_one_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = MemoryStore(tmp_path / "oda")
    path = tmp_path / "state" / "review.json"
    mark_reviewed(store, GLOBAL, "0123abcd", version="20260101T000000000Z-chat", path=path)
    writes: list[dict[str, Any]] = []
    real_replace = os.replace

    def replace(src: Any, dst: Any, **kwargs: Any) -> None:
        real_replace(src, dst, **kwargs)
        writes.append(json.loads(path.read_bytes()))

    monkeypatch.setattr(os, "replace", replace)

    assert carry_mark(store, GLOBAL, "0123abcd", "web", "0123abcd", path=path) == "20260101T000000000Z-chat"

    monkeypatch.undo()
    assert len(writes) == 1, "the mark was written in more than one step"
    assert reviewed_mark(store, GLOBAL, "0123abcd", path=path) is None
    assert reviewed_mark(store, "web", "0123abcd", path=path) == "20260101T000000000Z-chat"


def test_a_draft_the_disk_cannot_read_now_is_left_for_a_later_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, folder = tmp_path / "oda", tmp_path / "drafts"
    memory = MemoryStore(root).create(GLOBAL, "Stack", "Django.")
    path = keep(new_draft(root, GLOBAL, memory, "Stack", "Django and HTMX.", True), folder)
    assert path == draft_path(root, GLOBAL, memory.id, folder)
    _reads_of(monkeypatch, path)

    found = kept_drafts(root, folder)

    assert found.drafts == [] and found.set_aside == []
    monkeypatch.undo()
    assert [p.name for p in folder.iterdir()] == [path.name]
    assert [d.text for d in kept_drafts(root, folder).drafts] == ["Django and HTMX."]
