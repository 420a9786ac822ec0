"""How a start reads the store: whole files however they change under it, the collector left
as it was, the records it hands out, and the parse index's old format cleared away."""

from __future__ import annotations

import gc
import os
from pathlib import Path

import pytest

from store import GLOBAL, Limits, MemoryStore
from store import messages as msg
from store.format.fields import FileProblem
from store.read import parse_index, scan
from tests.support.files import memory_file, write_raw


def fstat_sees_size(monkeypatch: pytest.MonkeyPatch, size: int) -> None:
    """fstat reports ``size``: the size a moment before another program appended to the file."""
    real_fstat = os.fstat

    def stale_fstat(fd: int) -> os.stat_result:
        fields = list(real_fstat(fd))
        fields[6] = size  # st_size
        return os.stat_result(fields)

    monkeypatch.setattr(os, "fstat", stale_fstat)  # the os module scan reads with


def test_a_file_that_grew_after_its_stat_is_read_whole(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = "word " * 400
    path = write_raw(root / "global" / "0123abcd.md", memory_file("Grown", text))
    fstat_sees_size(monkeypatch, 40)
    result = scan.read_file(path, Limits())
    assert result is not None
    _sig, parsed = result
    assert not isinstance(parsed, FileProblem)
    fields, body = parsed
    assert fields.title == "Grown" and body == text.strip()


def test_a_file_that_grew_past_the_limit_after_its_stat_is_a_problem(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    limits = Limits(file_max_bytes=1024)
    path = write_raw(root / "global" / "0123abcd.md", memory_file("Big", "x" * 5000))
    fstat_sees_size(monkeypatch, 100)
    result = scan.read_file(path, limits)
    assert result is not None
    assert isinstance(result[1], FileProblem)
    assert result[1].message == msg.FILE_TOO_LARGE.format(n=1024)


@pytest.mark.parametrize("enabled_before", [True, False])
def test_a_start_leaves_the_collector_as_it_found_it(root: Path, enabled_before: bool) -> None:
    MemoryStore(root).create(GLOBAL, "One", "Text.")
    (gc.enable if enabled_before else gc.disable)()
    try:
        assert MemoryStore(root).memories(GLOBAL)[0].title == "One"
        assert gc.isenabled() is enabled_before
    finally:
        gc.enable()


def test_a_memory_is_an_immutable_hashable_record(store: MemoryStore, root: Path) -> None:
    m = store.create("proj", "Title", "Text.")
    assert m.path == root / "workspaces" / "proj" / f"{m.id}.md" == Path(m.location)
    with pytest.raises(AttributeError):
        m.title = "changed"  # type: ignore[misc]  # what the types forbid is what is tried here
    again = MemoryStore(root).get("proj", m.id)
    assert again == m and hash(again) == hash(m)
    assert len({m, again}) == 1


def test_the_first_save_of_the_new_index_removes_the_old_one(root: Path) -> None:
    MemoryStore(root).create(GLOBAL, "One", "Text.")
    old = parse_index.index_path(root).with_name("parse-index.json")
    write_raw(old, b'oda-store-parse-index 1 00000000\n{"paths": []}')
    s = MemoryStore(root)
    s.workspaces()
    assert s._index_writer is not None
    s._index_writer.join()
    assert parse_index.index_path(root).is_file()
    assert not old.exists()
