"""The parse index: a start with unchanged files reads none of them, and the index is only ever
a cache (a changed file is read again; a damaged or foreign index is ignored and rebuilt)."""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from store import GLOBAL, Limits, MemoryStore
from store.read import first_load, parse_index, scan
from store.read.parse_index import index_path
from tests.support.files import memory_file, started_store, write_raw


def picture(s: MemoryStore) -> tuple[object, ...]:
    scopes = [GLOBAL, *s.workspaces()]
    return tuple(s.memories(scope) for scope in scopes), tuple(s.problems()), tuple(s.ignored())


@pytest.fixture
def filled(root: Path) -> Path:
    write_raw(root / "global" / "0123abcd.md", memory_file("Global one", "Text"))
    write_raw(root / "workspaces" / "proj" / "0123abce.md", memory_file("In proj", "More", extra="zeta: 1\n"))
    write_raw(root / "workspaces" / "proj" / "0123abcf.md", "no frontmatter\n")
    write_raw(root / "workspaces" / "proj" / "0123abd0.md", memory_file("Bad: 'title", "x"))
    s = MemoryStore(root)
    s.create("proj", "Made here", "By the store", source="ai", session_id="s-1")
    return root


def count_reads(monkeypatch: pytest.MonkeyPatch) -> list[Path | str]:
    """The path of every memory file the store reads from here on, in order."""
    reads: list[Path | str] = []
    real = scan.read_file

    def counting(path: Path | str, limits: Limits, dir_fd: int | None = None) -> object:
        reads.append(path)
        return real(path, limits, dir_fd)

    # Every place the picture reads a file from: the first load and a file read again.
    monkeypatch.setattr("store.read.first_load.read_file", counting)
    monkeypatch.setattr("store.read.refresh.read_file", counting)
    return reads


def test_a_second_start_reads_only_what_is_not_indexed(filled: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = started_store(filled)
    assert index_path(filled).is_file()
    reads = count_reads(monkeypatch)
    second = started_store(filled)
    assert picture(second) == picture(first)
    # Only the memory with an unknown key (kept out of the index) is read again.
    assert [Path(p).name for p in reads] == ["0123abce.md"]


def test_a_file_whose_stat_changed_is_read_again(filled: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started_store(filled)
    path = filled / "global" / "0123abcd.md"
    st = os.stat(path)
    # Same size, same mtime: only the ctime (and content) differ.
    path.write_bytes(memory_file("Global two", "Text").encode())
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    reads = count_reads(monkeypatch)
    again = started_store(filled)
    assert again.get(GLOBAL, "0123abcd").title == "Global two"
    assert "0123abcd.md" in [Path(p).name for p in reads]


@pytest.mark.parametrize(
    "damage",
    [
        b"",
        b"garbage",
        b"oda-store-parse-index 1 00000000\n{}",
        b"oda-store-parse-index 99 00000000\n{}",
        b"something-else 1 00000000\n{}",
    ],
)
def test_a_damaged_or_foreign_index_is_ignored_and_rebuilt(filled: Path, damage: bytes) -> None:
    expected = picture(started_store(filled))
    index_path(filled).write_bytes(damage)
    assert picture(started_store(filled)) == expected
    assert parse_index.load(filled, Limits()) is not None  # rebuilt


def _with_meta(meta: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**meta, **changes}


@pytest.mark.parametrize(
    "damage",
    [
        lambda meta, data: (_with_meta(meta, enabled=12345), data),
        lambda meta, data: (_with_meta(meta, source="x" * meta["n"]), data),
        lambda meta, data: (_with_meta(meta, n=meta["n"] + 1), data),
        lambda meta, data: (_with_meta(meta, problems=[["global/x.md", 1, 2, 3, "4", "m", None]]), data),
        lambda meta, data: (_with_meta(meta, parts=[0, 0, 0, len(data)]), data),
        lambda meta, data: (_with_meta(meta, machine=["middle-endian", 8, 8, 8]), data),
        lambda meta, data: (meta, data[:-3]),
    ],
    ids=["flag-type", "flag-char", "count", "problem-row", "parts", "machine", "truncated"],
)
def test_a_well_formed_index_that_does_not_add_up_is_ignored(
    filled: Path, damage: Callable[[dict[str, Any], bytes], tuple[dict[str, Any], bytes]]
) -> None:
    expected = picture(started_store(filled))
    _, _, rest = index_path(filled).read_bytes().partition(b"\n")
    line, _, data = rest.partition(b"\n")
    meta, data = damage(json.loads(line), data)
    rest = json.dumps(meta).encode() + b"\n" + data
    header = f"{parse_index.MAGIC} {parse_index.VERSION} {zlib.crc32(rest):08x}\n".encode()
    index_path(filled).write_bytes(header + rest)  # the checksum is right: only the checks catch it
    assert parse_index.load(filled, Limits()) is None
    assert picture(started_store(filled)) == expected


def test_a_flipped_byte_is_caught_by_the_checksum(filled: Path) -> None:
    started_store(filled)
    raw = bytearray(index_path(filled).read_bytes())
    pos = raw.index(b"Global one")
    raw[pos] = ord("X")
    index_path(filled).write_bytes(bytes(raw))
    assert parse_index.load(filled, Limits()) is None
    assert started_store(filled).get(GLOBAL, "0123abcd").title == "Global one"


def test_other_limits_ignore_the_index(filled: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started_store(filled)
    (filled / "settings.yaml").write_text("title_max_chars: 10\n")
    reads = count_reads(monkeypatch)
    s = started_store(filled)
    assert len(reads) == 5  # every file read again under the new limits
    assert s.limits.title_max_chars == 10


def test_the_index_is_private_and_never_a_memory(filled: Path) -> None:
    started_store(filled)
    assert os.stat(index_path(filled)).st_mode & 0o777 == 0o600
    assert os.stat(index_path(filled).parent).st_mode & 0o777 == 0o700
    s = started_store(filled)
    assert not any(".index" in str(i.path) for i in s.ignored())


def test_reading_an_empty_root_writes_no_index(root: Path) -> None:
    started_store(root)
    assert not root.exists()


def test_text_of_every_kind_comes_back_from_the_index_exactly(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Wide characters, a control character (YAML's escape), an empty session.
    write_raw(
        root / "global" / "0123abcd.md",
        '---\ntitle: "Odd \\x01 日本 😀"\n'
        "enabled: true\nsource: ai\nsessionId: ''\n---\n\nText ü 日本 😀 \ud7ff end\n",
    )
    write_raw(root / "global" / "0123abce.md", memory_file("Plain", "x" * 5000))
    first = started_store(root)
    assert first.get(GLOBAL, "0123abcd").title == "Odd \x01 日本 😀"
    assert first.get(GLOBAL, "0123abcd").session_id == ""
    assert parse_index.load(root, Limits()) is not None
    reads = count_reads(monkeypatch)
    second = started_store(root)
    assert reads == []  # all of it from the index
    assert picture(second) == picture(first)
    assert [m.title for m in second.memories(GLOBAL)] == [m.title for m in first.memories(GLOBAL)]


def test_a_held_index_is_written_only_when_asked(filled: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parse_index.remove(filled)
    held = MemoryStore(filled, hold_index=True)
    first = picture(held)
    assert held._index_writer is None and not index_path(filled).exists()
    held.write_index_now()
    assert held._index_writer is not None
    held._index_writer.join()
    assert index_path(filled).exists()
    # The index written late serves the next start like any other (only the memory with an
    # unknown key, kept out of the index, is read again).
    reads = count_reads(monkeypatch)
    assert picture(started_store(filled)) == first
    assert [Path(p).name for p in reads] == ["0123abce.md"]


def count_memory_stats(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of every memory file whose stat the store takes (by its folder) from here on."""
    names: list[str] = []
    real = os.stat

    def counting(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        if isinstance(path, str) and path.endswith(".md") and kwargs.get("dir_fd") is not None:
            names.append(path)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", counting)
    return names


def test_an_index_no_file_matches_is_given_up_after_a_few_looks(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A copied or restored store: every file has a new ctime (or inode), so the index holds
    # none of them as they are. Looking each one up before reading it made such a start
    # slower than one without an index.
    s = MemoryStore(root)
    for n in range(3 * first_load.PROBES):
        s.create(GLOBAL if n % 3 else "proj", f"Memory {n}", f"Text {n}")
    first = started_store(root)
    for path in root.rglob("*.md"):
        if "history" not in path.parts:
            path.chmod(0o644)  # a new ctime, nothing else
    stats = count_memory_stats(monkeypatch)
    reads = count_reads(monkeypatch)
    again = started_store(root)
    assert picture(again) == picture(first)
    assert len(reads) == 3 * first_load.PROBES  # every file read, as with no index
    assert len(stats) <= first_load.PROBES  # only the few looks that found the index stale
    monkeypatch.undo()
    # The index was written anew: the next start reads nothing.
    reads = count_reads(monkeypatch)
    assert picture(started_store(root)) == picture(first) and reads == []


def test_an_index_that_holds_most_files_is_used_for_them(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s = MemoryStore(root)
    for n in range(3 * first_load.PROBES):
        s.create(GLOBAL, f"Memory {n}", f"Text {n}")
    started_store(root)
    touched = sorted(p for p in (root / "global").glob("*.md"))[: first_load.PROBES]
    for path in touched:
        path.chmod(0o644)
    reads = count_reads(monkeypatch)
    started_store(root)
    assert sorted(Path(p).name for p in reads) == sorted(p.name for p in touched)
