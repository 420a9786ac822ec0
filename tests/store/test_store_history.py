"""Versions and history: every rule of the spec's "Versions and history"."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from store import GLOBAL, MemoryStore, StoreError
from store.format.timestamps import parse_moment
from tests.support.files import memory_file, write_raw

NAME = re.compile(r"\d{8}T\d{9}Z-(chat|settings|restore|undo|external|found)(-\d+)?\Z")


def texts(store: MemoryStore, memory_id: str, scope: str | None = GLOBAL) -> list[tuple[str, str]]:
    return [(v.source, v.text) for v in store.versions(scope, memory_id)]


def test_create_keeps_the_first_version_with_its_source(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "T", "one", via="chat")
    [version] = store.versions(GLOBAL, m.id)
    assert NAME.match(version.name)
    assert (version.source, version.title, version.text) == ("chat", "T", "one")


def test_every_change_keeps_a_version_newest_first(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "T", "one")
    store.change(GLOBAL, m.id, text="two", via="chat")
    store.change(GLOBAL, m.id, title="T2")
    assert [(v.source, v.title, v.text) for v in store.versions(GLOBAL, m.id)] == [
        ("settings", "T2", "two"),
        ("chat", "T", "two"),
        ("settings", "T", "one"),
    ]
    names = [v.name for v in store.versions(GLOBAL, m.id)]
    assert all(NAME.match(n) for n in names)


def test_only_the_newest_versions_are_kept(root: Path) -> None:
    write_raw(root / "settings.yaml", "versions_kept: 3\n")
    s = MemoryStore(root)
    m = s.create(GLOBAL, "T", "v0")
    for i in range(1, 6):
        s.change(GLOBAL, m.id, text=f"v{i}")
    assert [t for _, t in texts(s, m.id)] == ["v5", "v4", "v3"]


def test_same_text_is_kept_once_as_the_newest(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "T", "a")
    store.change(GLOBAL, m.id, text="b")
    store.change(GLOBAL, m.id, text="a", via="chat")
    assert texts(store, m.id) == [("chat", "a"), ("settings", "b")]


def test_versions_with_the_same_moment_get_a_number(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import UTC, datetime

    import store.memory_store as ms

    fixed = datetime(2026, 11, 29, 21, 52, 34, 123000, tzinfo=UTC)
    monkeypatch.setattr(ms, "now_utc", lambda: fixed)
    m = store.create(GLOBAL, "T", "a")
    store.change(GLOBAL, m.id, text="b", via="chat")
    store.change(GLOBAL, m.id, text="c", via="chat")
    assert [v.name for v in store.versions(GLOBAL, m.id)] == [
        "20261129T215234123Z-chat-3",
        "20261129T215234123Z-chat-2",
        "20261129T215234123Z-settings",
    ]


def test_outside_edit_is_kept_as_external_before_the_next_save(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "T", "mine")
    m.path.write_text(memory_file(title="T", text="theirs"))
    store.change(GLOBAL, m.id, text="again")
    assert texts(store, m.id) == [("settings", "again"), ("external", "theirs"), ("settings", "mine")]


def test_outside_edit_is_kept_before_toggle_and_delete(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "T", "mine")
    m.path.write_text(memory_file(title="T", text="theirs"))
    store.set_enabled(GLOBAL, m.id, False)
    assert texts(store, m.id)[0] == ("external", "theirs")
    m.path.write_text(memory_file(title="T", text="theirs 2", enabled="false"))
    store.delete(GLOBAL, m.id)
    assert texts(store, m.id)[0] == ("external", "theirs 2")


def test_a_file_made_outside_is_found_first(store: MemoryStore, root: Path) -> None:
    write_raw(root / "workspaces" / "proj" / "0123abcd.md", memory_file(text="by hand"))
    store.refresh()
    store.change("proj", "0123abcd", text="edited", via="chat")
    assert texts(store, "0123abcd", "proj") == [("chat", "edited"), ("found", "by hand")]


def test_toggle_makes_no_version(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "T", "a")
    store.set_enabled(GLOBAL, m.id, False)
    store.set_enabled(GLOBAL, m.id, True)
    assert len(store.versions(GLOBAL, m.id)) == 1


def test_restore_version_is_itself_a_version_and_undoable(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "T", "a")
    store.change(GLOBAL, m.id, text="b")
    oldest = store.versions(GLOBAL, m.id)[-1]
    assert store.restore_version(GLOBAL, m.id, oldest.name).text == "a"
    assert texts(store, m.id) == [("restore", "a"), ("settings", "b")]
    back = store.versions(GLOBAL, m.id)[1]
    assert store.restore_version(GLOBAL, m.id, back.name).text == "b"


def test_missing_version_message(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "T", "a")
    with pytest.raises(StoreError) as info:
        store.restore_version(GLOBAL, m.id, "20200101T000000000Z-chat")
    assert str(info.value) == 'No saved version "20200101T000000000Z-chat" of this memory exists.'


def test_undo_writes_back_the_text_before_the_newest_chat_change(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "T", "mine")
    store.change(GLOBAL, m.id, text="agent's", via="chat")
    undone = store.undo(GLOBAL, m.id)
    assert undone.text == "mine"
    assert texts(store, m.id)[0] == ("undo", "mine")
    with pytest.raises(StoreError) as again:
        store.undo(GLOBAL, m.id)
    assert str(again.value) == "There is no change from a chat to undo."


def test_undo_without_a_chat_change(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "T", "a")
    store.change(GLOBAL, m.id, text="b")
    with pytest.raises(StoreError) as info:
        store.undo(GLOBAL, m.id)
    assert str(info.value) == "There is no change from a chat to undo."


def test_undo_of_a_memory_the_chat_created_is_refused_clearly(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "T", "a", source="ai", via="chat")
    with pytest.raises(StoreError) as info:
        store.undo(GLOBAL, m.id)
    assert str(info.value).startswith("The memory could not be changed: the change from a chat created")


def test_delete_keeps_history_and_waits_under_deleted(store: MemoryStore) -> None:
    m = store.create("proj", "Gone", "text")
    store.change("proj", m.id, text="text 2")
    store.delete("proj", m.id)
    assert not m.path.exists()
    assert store.memories("proj") == []
    [gone] = store.deleted("proj")
    assert (gone.id, gone.title, gone.text, gone.problem) == (m.id, "Gone", "text 2", False)
    assert [t for _, t in texts(store, m.id, "proj")] == ["text 2", "text"]
    back = store.restore_deleted("proj", m.id)
    assert back is not None and back.text == "text 2"
    assert store.deleted("proj") == []
    assert store.get("proj", m.id).text == "text 2"


def test_restore_deleted_writes_the_bytes_back(store: MemoryStore, root: Path) -> None:
    content = "---\n# my note\ntitle: 'Quoted'\nenabled: True\nsource: user\n---\nbody"
    path = write_raw(root / "global" / "0123abcd.md", content)
    store.refresh()
    store.delete(GLOBAL, "0123abcd")
    store.restore_deleted(GLOBAL, "0123abcd")
    assert path.read_text() == content


def test_purge_removes_everything(store: MemoryStore, root: Path) -> None:
    m = store.create(GLOBAL, "T", "a")
    store.delete(GLOBAL, m.id)
    store.purge_deleted(GLOBAL, m.id)
    assert store.deleted(GLOBAL) == [] and store.versions(GLOBAL, m.id) == []
    with pytest.raises(StoreError):
        store.restore_deleted(GLOBAL, m.id)


def test_restore_over_the_limit_is_refused(root: Path) -> None:
    s = MemoryStore(root)
    m = s.create(GLOBAL, "T", "x" * 1500)
    s.delete(GLOBAL, m.id)
    write_raw(root / "settings.yaml", "text_max_chars: 1000\n")
    s.refresh()
    with pytest.raises(StoreError) as info:
        s.restore_deleted(GLOBAL, m.id)
    assert str(info.value) == (
        "A memory is limited to 1000 characters; this one has 1500. Shorten it or split it into several memories."
    )


def test_history_lives_apart_from_the_memory_files(store: MemoryStore, root: Path) -> None:
    m = store.create(GLOBAL, "T", "a")
    store.change(GLOBAL, m.id, text="b")
    assert sorted(p.name for p in (root / "global").iterdir()) == [f"{m.id}.md"]
    assert (root / "history" / "global" / m.id / "versions").is_dir()


def test_move_takes_the_file_and_its_history(store: MemoryStore, root: Path) -> None:
    m = store.create(GLOBAL, "T", "one")
    store.change(GLOBAL, m.id, text="two", via="chat")
    raw = m.path.read_bytes()
    moved = store.move(GLOBAL, m.id, "proj")
    assert (moved.id, moved.scope, moved.text) == (m.id, "proj", "two")
    assert moved.path.read_bytes() == raw and not m.path.exists()
    assert store.memories(GLOBAL) == [] and store.deleted(GLOBAL) == []
    assert texts(store, m.id, "proj") == [("chat", "two"), ("settings", "one")]
    assert store.undo("proj", m.id).text == "one"
    back = store.move("proj", m.id, GLOBAL)
    assert back.scope is None and MemoryStore(root).get(GLOBAL, m.id).text == "one"


def test_move_takes_a_new_id_when_the_target_has_it(store: MemoryStore, root: Path) -> None:
    m = store.create(GLOBAL, "T", "one")
    write_raw(root / "workspaces" / "proj" / f"{m.id}.md", memory_file(title="Theirs"))
    store.refresh()
    moved = store.move(GLOBAL, m.id, "proj")
    assert moved.id != m.id and moved.text == "one"
    assert store.get("proj", m.id).title == "Theirs"
    assert [v.text for v in store.versions("proj", moved.id)] == ["one"]


def test_move_is_refused_over_the_target_chat_limit(root: Path, limited: MemoryStore) -> None:
    s = limited
    s.create("big", "Big", "x" * 1800)
    m = s.create("small", "Small", "y" * 400)
    with pytest.raises(StoreError) as info:
        s.move("small", m.id, "big")
    assert str(info.value).startswith(
        "This change would bring the memory a chat in workspace big receives to about "
    )
    assert s.get("small", m.id).text == "y" * 400
    with pytest.raises(StoreError) as same:
        s.move("small", m.id, "small")
    assert str(same.value) == "The memory could not be changed: the memory is already there."


def test_only_a_json_true_marks_a_deleted_problem_file(store: MemoryStore, root: Path) -> None:
    import json

    m = store.create(GLOBAL, "Gone", "its text")
    store.delete(GLOBAL, m.id)
    meta_path = root / "history" / "global" / m.id / "deleted.json"
    for written, problem in (("false", False), ("true", False), (1, False), (True, True)):
        meta = json.loads(meta_path.read_text())
        meta["problem"] = written
        meta_path.write_text(json.dumps(meta))
        [gone] = store.deleted(GLOBAL)
        assert gone.problem is problem, written
        # A problem file shows the file as it was (frontmatter and all), a memory its text.
        raw = (meta_path.parent / "deleted.md").read_text()
        assert gone.text == (raw if problem else "its text")


def test_restoring_kept_bytes_that_have_a_problem_is_refused_in_the_specs_form(
    store: MemoryStore, root: Path
) -> None:
    m = store.create(GLOBAL, "Gone", "its text")
    store.delete(GLOBAL, m.id)
    (root / "history" / "global" / m.id / "deleted.md").write_text("no frontmatter\n")
    with pytest.raises(StoreError) as refused:
        store.restore_deleted(GLOBAL, m.id)
    assert str(refused.value) == (
        "The memory could not be changed: its file has a problem: "
        "The file does not start with a --- frontmatter block."
    )
    assert not (root / "global" / f"{m.id}.md").exists()


def test_a_deletion_says_where_it_came_from(store: MemoryStore) -> None:
    mine, theirs = store.create(GLOBAL, "Mine", "one"), store.create(GLOBAL, "Theirs", "two")
    store.delete(GLOBAL, mine.id)
    store.delete(GLOBAL, theirs.id, via="chat")
    assert {d.id: d.via for d in store.deleted(GLOBAL)} == {mine.id: "settings", theirs.id: "chat"}


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789٣", min_size=17, max_size=17))
def test_a_version_moment_is_read_as_strptime_reads_it(digits: str) -> None:
    """``parse_moment`` reads a version name's moment by hand (strptime costs more than the
    rest of the name): it takes exactly the ASCII moments strptime takes, as strptime reads them."""
    text = f"{digits[:8]}T{digits[8:17]}Z"
    expected = None
    if digits.isascii():
        try:
            base = datetime.strptime(text[:15], "%Y%m%dT%H%M%S").replace(tzinfo=UTC)
            expected = base.replace(microsecond=int(text[15:18]) * 1000)
        except ValueError:
            expected = None
    assert parse_moment(text) == expected
