"""Version names that never collide, changes that change nothing, restores and turning on held
to today's limits, the token check against the files as they are now, delete by rename."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import store.memory_store as ms
from store import GLOBAL, CouldNotChange, MemoryStore, OverChatLimit, StoreError, TooLong
from tests.support.files import memory_file, write_raw


def hdir(root: Path, memory_id: str, scope: str | None = None) -> Path:
    part = "global" if scope is None else f"workspaces/{scope}"
    return root / "history" / part / memory_id


# --- version names ---------------------------------------------------------------------------


def test_a_version_stamped_in_the_future_never_makes_names_collide(root: Path) -> None:
    write_raw(root / "settings.yaml", "versions_kept: 3\n")
    store = MemoryStore(root)
    memory = store.create(GLOBAL, "T", "text 0")
    future = hdir(root, memory.id) / "versions" / "20990101T000000000Z-settings.md"
    write_raw(future, memory_file(title="T", text="text 0"))
    for n in range(1, 15):
        store.change(GLOBAL, memory.id, text=f"text {n}")
        versions = store.versions(GLOBAL, memory.id)
        assert [v.text for v in versions] == [f"text {k}" for k in range(n, max(n - 3, -1), -1)]
        assert len({v.name for v in versions}) == len(versions)
        assert not [v for v in versions if v.source == "external"]
    names = [v.name for v in store.versions(GLOBAL, memory.id)]
    assert names == [
        "20990101T000000000Z-settings-15",
        "20990101T000000000Z-settings-14",
        "20990101T000000000Z-settings-13",
    ]


def test_a_clock_that_steps_back_keeps_the_order(
    store: MemoryStore, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    start = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
    moments = iter([start - timedelta(seconds=s) for s in (0, 0, 5, 5, 60, 60, 3600, 3600, 1, 1, 2, 2)])
    monkeypatch.setattr(ms, "now_utc", lambda: next(moments))
    memory = store.create(GLOBAL, "T", "text 0")
    for n in range(1, 6):
        store.change(GLOBAL, memory.id, text=f"text {n}")
    versions = store.versions(GLOBAL, memory.id)
    assert [v.text for v in versions] == [f"text {n}" for n in range(5, -1, -1)]
    assert all(v.moment == start for v in versions)
    assert store.get(GLOBAL, memory.id).text == versions[0].text


def test_trimming_never_drops_the_newest_or_reuses_a_number(root: Path) -> None:
    write_raw(root / "settings.yaml", "versions_kept: 2\n")
    store = MemoryStore(root)
    memory = store.create(GLOBAL, "T", "a")
    folder = hdir(root, memory.id) / "versions"
    write_raw(folder / "20990101T000000000Z-settings-7.md", memory_file(title="T", text="a"))
    store.change(GLOBAL, memory.id, text="b")
    store.change(GLOBAL, memory.id, text="a")
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["20990101T000000000Z-settings-8.md", "20990101T000000000Z-settings-9.md"]


def test_ten_versions_are_kept_by_default(store: MemoryStore) -> None:
    memory = store.create(GLOBAL, "T", "text 0")
    for n in range(1, 14):
        store.change(GLOBAL, memory.id, text=f"text {n}")
    assert [v.text for v in store.versions(GLOBAL, memory.id)] == [f"text {n}" for n in range(13, 3, -1)]


# --- a change that changes nothing -----------------------------------------------------------


def test_a_change_that_changes_nothing_saves_no_version_of_an_outside_file(
    store: MemoryStore, root: Path
) -> None:
    write_raw(root / "global" / "aaaaaaaa.md", memory_file(title="Made outside", text="Body"))
    result = store.change(GLOBAL, "aaaaaaaa", text="Body")
    assert not result.changed
    assert store.set_enabled(GLOBAL, "aaaaaaaa", True).enabled
    assert store.versions(GLOBAL, "aaaaaaaa") == []
    memory = store.create(GLOBAL, "T", "saved")
    write_raw(Path(memory.path), memory_file(title="T", text="edited outside"))
    assert not store.change(GLOBAL, memory.id, title="T", text="edited outside").changed
    assert [v.source for v in store.versions(GLOBAL, memory.id)] == ["settings"]


def test_a_refused_undo_keeps_no_version_of_an_outside_edit(store: MemoryStore) -> None:
    memory = store.create(GLOBAL, "T", "saved")
    write_raw(Path(memory.path), memory_file(title="T", text="edited outside"))
    with pytest.raises(StoreError):
        store.undo(GLOBAL, memory.id)
    assert [v.text for v in store.versions(GLOBAL, memory.id)] == ["saved"]


# --- restoring and turning on are held to today's limits --------------------------------------


def test_restoring_a_version_over_today_s_title_or_text_limit_is_refused(
    root: Path, store: MemoryStore
) -> None:
    memory = store.create(GLOBAL, "t" * 100, "x" * 1500)
    store.change(GLOBAL, memory.id, title="short", text="short")
    old = store.versions(GLOBAL, memory.id)[1]
    write_raw(root / "settings.yaml", "title_max_chars: 50\ntext_max_chars: 1000\n")
    store = MemoryStore(root)
    with pytest.raises(TooLong) as info:
        store.restore_version(GLOBAL, memory.id, old.name)
    assert (info.value.field, info.value.limit, info.value.length) == ("title", 50, 100)
    write_raw(root / "settings.yaml", "text_max_chars: 1000\n")
    store = MemoryStore(root)
    with pytest.raises(TooLong) as info:
        store.restore_version(GLOBAL, memory.id, old.name)
    assert (info.value.field, info.value.limit, info.value.length) == ("text", 1000, 1500)
    assert store.get(GLOBAL, memory.id).text == "short"


def test_restoring_over_the_chat_limit_is_refused(root: Path) -> None:
    write_raw(root / "settings.yaml", "chat_max_tokens: 600\n")
    store = MemoryStore(root)
    big = store.create(GLOBAL, "Big", "x" * 1800)
    store.change(GLOBAL, big.id, text="small")
    store.create(GLOBAL, "Other", "y" * 1200)
    with pytest.raises(OverChatLimit):
        store.restore_version(GLOBAL, big.id, store.versions(GLOBAL, big.id)[1].name)
    assert store.get(GLOBAL, big.id).text == "small"
    gone = store.create("ws", "Gone", "z" * 900)
    store.delete("ws", gone.id)
    store.create(GLOBAL, "More", "w" * 700)
    with pytest.raises(OverChatLimit) as info:
        store.restore_deleted("ws", gone.id)
    assert info.value.workspace == "ws"
    assert [d.id for d in store.deleted("ws")] == [gone.id]


def test_turning_on_a_file_over_its_limit_is_refused(store: MemoryStore, root: Path) -> None:
    path = write_raw(
        root / "global" / "aaaaaaaa.md", memory_file(title="Off", text="x" * 2001, enabled="false")
    )
    before = path.read_bytes()
    with pytest.raises(TooLong) as info:
        store.set_enabled(GLOBAL, "aaaaaaaa", True)
    assert str(info.value).startswith("A memory is limited to 2000 characters; this one has 2001.")
    assert path.read_bytes() == before


# --- another process's write is seen by the token check --------------------------------------


def test_the_token_check_sees_another_process_s_write(root: Path) -> None:
    write_raw(root / "settings.yaml", "chat_max_tokens: 600\n")
    here = MemoryStore(root)
    here.create(GLOBAL, "Mine", "m" * 100)
    assert here.chat_tokens() < 100
    MemoryStore(root).create(GLOBAL, "Theirs", "t" * 2000)  # another process, unseen here
    with pytest.raises(OverChatLimit):
        here.create(GLOBAL, "Small", "s" * 300)
    with pytest.raises(OverChatLimit):
        here.create("ws", "Small", "s" * 300)


# --- delete moves the file -------------------------------------------------------------------


def test_delete_moves_the_file_itself_into_history(store: MemoryStore, root: Path) -> None:
    memory = store.create(GLOBAL, "T", "body")
    inode = os.stat(memory.path).st_ino
    store.delete(GLOBAL, memory.id)
    assert os.stat(hdir(root, memory.id) / "deleted.md").st_ino == inode
    problem = root / "global" / "bbbbbbbb.md"
    with open(problem, "wb") as f:
        f.truncate(200 * 2**20)  # a sparse 200 MB problem file: moved, never copied
    store.refresh()
    inode = os.stat(problem).st_ino
    store.delete(GLOBAL, "bbbbbbbb")
    kept = hdir(root, "bbbbbbbb") / "deleted.md"
    assert os.stat(kept).st_ino == inode
    assert os.stat(kept).st_blocks == 0
    assert [(d.id, d.problem) for d in store.deleted(GLOBAL)] == [("bbbbbbbb", True), (memory.id, False)]
    assert store.restore_deleted(GLOBAL, "bbbbbbbb") is None  # moved back as it is
    assert os.stat(problem).st_ino == inode
    store.delete(GLOBAL, "bbbbbbbb")
    store.purge_deleted(GLOBAL, "bbbbbbbb")
    assert not hdir(root, "bbbbbbbb").exists()


def test_restore_deleted_moves_it_back(store: MemoryStore, root: Path) -> None:
    memory = store.create(GLOBAL, "T", "body")
    raw = Path(memory.path).read_bytes()
    store.delete(GLOBAL, memory.id)
    back = store.restore_deleted(GLOBAL, memory.id)
    assert back is not None and back.text == "body"
    assert Path(memory.path).read_bytes() == raw
    assert not (hdir(root, memory.id) / "deleted.md").exists()
    assert [v.source for v in store.versions(GLOBAL, memory.id)] == ["settings"]  # the same text: kept once


# --- smaller ones ----------------------------------------------------------------------------


def test_a_root_that_cannot_be_created_gives_the_spec_sentence(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    store = MemoryStore(blocker / "oda")
    with pytest.raises(CouldNotChange) as info:
        store.create(GLOBAL, "T", "x")
    assert str(info.value) == "The memory could not be changed: Not a directory."


def test_undo_does_not_claim_a_chat_created_a_memory_it_did_not(store: MemoryStore) -> None:
    memory = store.create(GLOBAL, "T", "one")
    store.change(GLOBAL, memory.id, text="two", via="chat")
    store.change(GLOBAL, memory.id, text="one", via="settings")  # "one" moves to the newest
    with pytest.raises(CouldNotChange) as info:
        store.undo(GLOBAL, memory.id)
    assert "created this memory" not in str(info.value)
    # True: the text from before the chat's change is kept, and it is the current text.
    assert info.value.reason == "the text from before the change from a chat is the current text already"
    store.change(GLOBAL, memory.id, text="three", via="settings")
    assert store.undo(GLOBAL, memory.id).text == "one"  # found where history keeps it now
    by_chat = store.create(GLOBAL, "C", "from a chat", via="chat")
    store.change(GLOBAL, by_chat.id, text="edited", via="settings")
    with pytest.raises(CouldNotChange) as info:
        store.undo(GLOBAL, by_chat.id)
    assert "created this memory" in str(info.value)
