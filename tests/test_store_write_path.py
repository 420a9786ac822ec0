"""The write path: refused means not applied, an outside save in the middle of a change is
kept, version names never collide, and what a killed writer left is put right."""

from __future__ import annotations

import errno
import hashlib
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import store.commit as commit_mod
import store.history as history_mod
import store.memory_store as ms
import store.swap as swap
from store import GLOBAL, CouldNotChange, MemoryStore, OverChatLimit, StoreError, TooLong
from tests.conftest import memory_file, write_raw


def hdir(root: Path, memory_id: str, scope: str | None = None) -> Path:
    part = "global" if scope is None else f"workspaces/{scope}"
    return root / "history" / part / memory_id


def file_state(root: Path) -> dict[str, bytes]:
    """Every file under the root except the lock and the parse index, with its bytes."""
    found = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.name != ".lock" and "parse-index" not in path.name:
            found[str(path.relative_to(root))] = path.read_bytes()
    return found


@pytest.fixture(params=["exchange", "fallback"])
def swap_mode(request: pytest.FixtureRequest) -> Any:
    """Run a test with the kernel's swap and with the fallback other systems use."""
    if request.param == "exchange" and not swap.exchange_available():
        pytest.skip("renameat2 is not available on this system")
    swap.force_fallback(request.param == "fallback")
    yield request.param
    swap.force_fallback(False)


# --- an outside save in the middle of a change ---------------------------------------------


def test_an_outside_save_during_a_change_is_kept_before_the_stores_version(
    store: MemoryStore, root: Path, monkeypatch: pytest.MonkeyPatch, swap_mode: str
) -> None:
    memory = store.create(GLOBAL, "T", "first")
    path = Path(memory.path)
    real = history_mod.write_version

    def outside_saves_meanwhile(*args: Any, **kwargs: Any) -> Any:
        version = real(*args, **kwargs)
        if kwargs.get("source") == "settings":  # between the store's read and its rename
            tmp = path.with_name("editor.tmp")
            tmp.write_text(memory_file(title="T", text="outside text"))
            os.replace(tmp, path)
        return version

    monkeypatch.setattr(history_mod, "write_version", outside_saves_meanwhile)
    changed = store.change(GLOBAL, memory.id, text="the store's text")
    monkeypatch.undo()
    assert Path(memory.path).read_text().endswith("the store's text\n")
    versions = store.versions(GLOBAL, memory.id)
    assert [(v.source, v.text) for v in versions[:3]] == [
        ("settings", "the store's text"),
        ("external", "outside text"),
        ("settings", "first"),
    ]
    assert changed.memory.text == "the store's text"
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".")]


def test_an_outside_problem_file_saved_during_a_change_wins_and_the_change_is_refused(
    store: MemoryStore, root: Path, monkeypatch: pytest.MonkeyPatch, swap_mode: str
) -> None:
    memory = store.create(GLOBAL, "T", "first")
    path = Path(memory.path)
    real = history_mod.write_version

    def outside_breaks_it(*args: Any, **kwargs: Any) -> Any:
        version = real(*args, **kwargs)
        path.write_text("not a memory file\n")
        return version

    monkeypatch.setattr(history_mod, "write_version", outside_breaks_it)
    with pytest.raises(CouldNotChange) as info:
        store.change(GLOBAL, memory.id, text="the store's text")
    monkeypatch.undo()
    assert info.value.reason.startswith("its file has a problem")
    assert path.read_text() == "not a memory file\n"
    assert [v.text for v in store.versions(GLOBAL, memory.id)] == ["first"]  # its own taken back


# --- refused means not applied ---------------------------------------------------------------


def _history_unwritable(monkeypatch: pytest.MonkeyPatch, root: Path) -> None:
    """What the kernel does for a history folder the user may not write (tests run as root,
    where permissions do not bite)."""
    real_open = os.open
    history = str(root / "history")

    def guarded(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if os.fspath(path).startswith(history) and flags & os.O_CREAT:
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded)


def test_an_unwritable_history_changes_nothing(
    store: MemoryStore, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = store.create(GLOBAL, "T", "older")
    store.change(GLOBAL, memory.id, text="first", via="chat")
    older = store.versions(GLOBAL, memory.id)[1].name
    store.create("ws", "W", "in a workspace")
    before = file_state(root)
    _history_unwritable(monkeypatch, root)
    for call in (
        lambda: store.change(GLOBAL, memory.id, text="second"),
        lambda: store.create(GLOBAL, "New", "never saved"),
        lambda: store.create("other", "New", "never saved"),
        lambda: store.undo(GLOBAL, memory.id),
        lambda: store.restore_version(GLOBAL, memory.id, older),
        lambda: store.delete(GLOBAL, memory.id),
    ):
        with pytest.raises(StoreError):
            call()
        assert file_state(root) == before
    with pytest.raises(CouldNotChange) as info:
        store.change(GLOBAL, memory.id, text="second")
    assert str(info.value) == "The memory could not be changed: Permission denied."
    monkeypatch.undo()
    assert [m.text for m in MemoryStore(root).memories(GLOBAL)] == ["first"]


def test_an_unwritable_history_keeps_an_outside_edit_unapplied_too(
    store: MemoryStore, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = store.create(GLOBAL, "T", "first")
    write_raw(Path(memory.path), memory_file(title="T", text="edited outside"))
    before = file_state(root)
    _history_unwritable(monkeypatch, root)
    with pytest.raises(CouldNotChange):
        store.change(GLOBAL, memory.id, text="second")
    assert file_state(root) == before


@pytest.mark.parametrize("bad", ["bad \ud800", "\udfff", "ok \ud83d"])
def test_a_lone_surrogate_is_refused_before_anything_is_written(
    store: MemoryStore, root: Path, bad: str
) -> None:
    memory = store.create(GLOBAL, "T", "first")
    before = file_state(root)
    for call in (
        lambda: store.change(GLOBAL, memory.id, title=bad),
        lambda: store.change(GLOBAL, memory.id, text=bad),
        lambda: store.create(GLOBAL, bad, "x"),
        lambda: store.create(GLOBAL, "T", bad),
        lambda: store.create(GLOBAL, "T", "x", session_id=bad),
    ):
        with pytest.raises(CouldNotChange) as info:
            call()
        assert str(info.value).startswith("The memory could not be changed: ")
        assert str(info.value).endswith(".")
        assert file_state(root) == before
    assert store.get(GLOBAL, memory.id).text == "first"


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


# --- restoring and turning on are held to today's limits --------------------------------------


def test_restoring_a_version_over_today_s_title_or_text_limit_is_refused(root: Path) -> None:
    store = MemoryStore(root)
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
    with pytest.raises(CouldNotChange) as info:
        store.set_enabled(GLOBAL, "aaaaaaaa", True)
    assert info.value.reason.startswith("its file has a problem: The memory is longer than 2000 characters")
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


def test_restore_deleted_moves_it_back(store: MemoryStore, root: Path) -> None:
    memory = store.create(GLOBAL, "T", "body")
    raw = Path(memory.path).read_bytes()
    store.delete(GLOBAL, memory.id)
    back = store.restore_deleted(GLOBAL, memory.id)
    assert back is not None and back.text == "body"
    assert Path(memory.path).read_bytes() == raw
    assert not (hdir(root, memory.id) / "deleted.md").exists()
    assert [v.source for v in store.versions(GLOBAL, memory.id)] == ["settings"]  # the same text: kept once


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
    assert info.value.reason == "no version from before the change from a chat is kept"
    by_chat = store.create(GLOBAL, "C", "from a chat", via="chat")
    store.change(GLOBAL, by_chat.id, text="edited", via="settings")
    with pytest.raises(CouldNotChange) as info:
        store.undo(GLOBAL, by_chat.id)
    assert "created this memory" in str(info.value)


def test_swap_primitives_never_overwrite(tmp_path: Path, swap_mode: str) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("A")
    b.write_text("B")
    with pytest.raises(FileExistsError):
        swap.rename_new(a, b)
    assert (a.read_text(), b.read_text()) == ("A", "B")
    if swap_mode == "exchange":
        assert swap.exchange(a, b)
        assert (a.read_text(), b.read_text()) == ("B", "A")
    else:
        assert not swap.exchange(a, b)
    swap.rename_new(a, tmp_path / "c")
    assert not a.exists() and (tmp_path / "c").read_text() in ("A", "B")
    assert commit_mod.read_limited(tmp_path, tmp_path / "c", 0) is not None
