"""The parse index keeps a memory's plain unknown keys (where an import came from), so a store
of imported memories starts from the index like any other, and gives the keys back as written."""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import pytest

from store import GLOBAL, Limits, MemoryStore
from store.read import parse_index, scan
from store.read.parse_index import index_path
from tests.support.files import memory_file, started_store, write_raw


def test_imported_memories_start_from_the_index_with_their_keys(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = MemoryStore(root)
    origin = {
        "importedFrom": "server-memory entity Ada",
        "importedDigest": "sha256:0123456789ab.0123456789ab",
    }
    made = [store.create(GLOBAL, f"E{n}", f"Observation {n}", extra=origin) for n in range(3)]
    write_raw(root / "global" / "0000000a.md", memory_file("Listed", "x", extra="tags: [a, b]\n"))
    started_store(root)
    reads: list[object] = []
    real = scan.read_file

    def counting(path: Path | str, limits: object, dir_fd: int | None = None) -> object:
        reads.append(path)
        return real(path, limits, dir_fd)  # type: ignore[arg-type]

    monkeypatch.setattr("store.read.first_load.read_file", counting)
    second = started_store(root)
    assert [Path(str(p)).name for p in reads] == ["0000000a.md"]  # a list value: read each time
    assert [second.get(GLOBAL, m.id).extra for m in made] == [origin] * 3
    assert second.get(GLOBAL, "0000000a").extra == {"tags": ["a", "b"]}


@pytest.mark.parametrize(
    "extra",
    [[], {"9": {"k": "v"}}, {"0": {"k": 1}}, {"0": {}}, {"x": {"k": "v"}}],
    ids=["not-a-map", "past-the-end", "not-text", "empty", "not-a-position"],
)
def test_an_index_whose_keys_do_not_add_up_is_ignored(root: Path, extra: object) -> None:
    store = MemoryStore(root)
    made = store.create(GLOBAL, "T", "x", extra={"importedFrom": "a"})
    started_store(root)
    _, _, rest = index_path(root).read_bytes().partition(b"\n")
    line, _, data = rest.partition(b"\n")
    meta = json.loads(line)
    meta["extra"] = extra
    rest = json.dumps(meta).encode() + b"\n" + data
    header = f"{parse_index.MAGIC} {parse_index.VERSION} {zlib.crc32(rest):08x}\n".encode()
    index_path(root).write_bytes(header + rest)
    assert parse_index.load(root, Limits()) is None
    assert started_store(root).get(GLOBAL, made.id).extra == {"importedFrom": "a"}
