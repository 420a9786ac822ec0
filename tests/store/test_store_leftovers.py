"""What killed writers leave (half-written files, changes never swapped in, what a swap handed
back, moves cut short, old temp files) is put right under the lock."""

from __future__ import annotations

import hashlib
import json
import os
from datetime import UTC, datetime
from pathlib import Path

import store.durable.history as history_mod
from store import GLOBAL, MemoryStore
from tests.support.files import memory_file, write_raw


def hdir(root: Path, memory_id: str, scope: str | None = None) -> Path:
    part = "global" if scope is None else f"workspaces/{scope}"
    return root / "history" / part / memory_id


# --- what killed writers leave ---------------------------------------------------------------


def _staged(path: Path, data: bytes) -> Path:
    return path.parent / f".{path.name}.{hashlib.sha256(data).hexdigest()[:16]}.new"


def test_a_change_killed_before_its_swap_is_taken_back(store: MemoryStore, root: Path) -> None:
    memory = store.create(GLOBAL, "T", "first")
    path = Path(memory.path)
    data = memory_file(title="T", text="never applied").encode()
    _staged(path, data).write_bytes(data)
    history_mod.add_version(
        root,
        hdir(root, memory.id),
        moment=datetime.now(UTC),
        source="settings",
        title="T",
        text="never applied",
        memory_source="user",
        keep=10,
    )
    other = MemoryStore(root)
    other.change(GLOBAL, memory.id, title="Renamed")
    versions = other.versions(GLOBAL, memory.id)
    assert [(v.source, v.title, v.text) for v in versions] == [
        ("settings", "Renamed", "first"),
        ("settings", "T", "first"),
    ]
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".")]


def test_what_a_killed_swap_handed_back_is_kept(store: MemoryStore, root: Path) -> None:
    memory = store.create(GLOBAL, "T", "first")
    path = Path(memory.path)
    store.change(GLOBAL, memory.id, text="the store's")
    handed_back = memory_file(title="T", text="saved outside just before").encode()
    # The .new name carries the hash of the store's bytes; another content means a swap happened.
    (path.parent / f".{path.name}.{'0' * 16}.new").write_bytes(handed_back)
    MemoryStore(root).change(GLOBAL, memory.id, title="Next")
    texts = [(v.source, v.text) for v in MemoryStore(root).versions(GLOBAL, memory.id)]
    assert ("external", "saved outside just before") in texts
    assert texts[0] == ("settings", "the store's")


def test_stale_temp_files_are_cleaned_under_the_lock(store: MemoryStore, root: Path) -> None:
    memory = store.create(GLOBAL, "T", "first")
    folder = root / "global"
    part = folder / f".{memory.id}.md.0badf00d.part"
    part.write_text("half a file")
    old = folder / f".{memory.id}.md.deadbeef.tmp"
    old.write_text("an old temp file")
    os.utime(old, (1, 1))
    young = folder / f".{memory.id}.md.cafebabe.tmp"  # maybe another writer's, about to rename
    young.write_text("a new temp file")
    versions_tmp = hdir(root, memory.id) / "versions" / ".version.12345678.tmp"
    versions_tmp.write_text("half a version")
    store.change(GLOBAL, memory.id, text="second")
    assert not part.exists() and not old.exists() and not versions_tmp.exists()
    assert young.exists()
    assert [v.source for v in store.versions(GLOBAL, memory.id)] == ["settings", "settings"]


def test_a_move_cut_short_after_its_new_file_is_finished_at_the_next_start(
    store: MemoryStore, root: Path
) -> None:
    memory = store.create(GLOBAL, "T", "moving")
    raw = Path(memory.path).read_bytes()
    write_raw(root / "workspaces" / "ws" / f"{memory.id}.md", raw)  # the new file was written
    intent = {"from": None, "id": memory.id, "to": "ws", "new_id": memory.id}
    write_raw(root / ".move.json", json.dumps(intent))
    after = MemoryStore(root)
    assert [m.id for m in after.memories(GLOBAL)] == []
    assert [m.text for m in after.memories("ws")] == ["moving"]
    assert [v.text for v in after.versions("ws", memory.id)] == ["moving"]  # history came along
    assert not (root / ".move.json").exists()
    assert not hdir(root, memory.id).exists()


def test_a_move_cut_short_before_its_new_file_is_forgotten(store: MemoryStore, root: Path) -> None:
    memory = store.create(GLOBAL, "T", "staying")
    intent = {"from": None, "id": memory.id, "to": "ws", "new_id": memory.id}
    write_raw(root / ".move.json", json.dumps(intent))
    after = MemoryStore(root)
    assert [m.text for m in after.memories(GLOBAL)] == ["staying"]
    assert after.memories("ws") == []
    assert not (root / ".move.json").exists()


def test_a_move_keeps_an_outside_save_to_the_old_file_made_meanwhile(store: MemoryStore, root: Path) -> None:
    memory = store.create(GLOBAL, "T", "moving")
    write_raw(root / "workspaces" / "ws" / f"{memory.id}.md", Path(memory.path).read_bytes())
    write_raw(Path(memory.path), memory_file(title="T", text="saved to the old place"))
    write_raw(
        root / ".move.json", json.dumps({"from": None, "id": memory.id, "to": "ws", "new_id": memory.id})
    )
    after = MemoryStore(root)
    assert after.memories(GLOBAL) == []
    assert "saved to the old place" in {v.text for v in after.versions("ws", memory.id)}


def test_the_first_change_sweeps_leftovers_everywhere(store: MemoryStore, root: Path) -> None:
    a = store.create(GLOBAL, "A", "a")
    b = store.create("ws", "B", "b")
    left = [
        hdir(root, a.id) / "versions" / ".version.12345678.tmp",
        hdir(root, b.id, "ws") / ".deleted.json.12345678.tmp",
        root / "workspaces" / "ws" / f".{b.id}.md.12345678.part",
        root / "..move.json.12345678.tmp",  # as write_atomic names it: .<name>.<random>.tmp
    ]
    for path in left:
        write_raw(path, "left by a killed writer")
    not_ours = write_raw(root / ".export.json.12345678.tmp", "another program's, at the root")
    MemoryStore(root).create("other", "C", "c")  # touches neither memory nor their sets
    assert [p for p in left if p.exists()] == []
    assert not_ours.exists()
