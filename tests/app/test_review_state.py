"""Review of what the agent saved: which memories wait, the diff, and the marks file."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from oda_tui.own_files import review_marks
from oda_tui.own_files.review_marks import mark_reviewed, pending_review, reviewed_mark, state_path
from store import GLOBAL, MemoryStore
from tests.support.files import memory_file, write_raw


def summary(store: MemoryStore) -> list[tuple[str | None, str, str, str | None, str]]:
    return [
        (item.memory.scope, item.memory.id, item.before_text or "", item.reviewed, item.after_text)
        for item in pending_review(store)
    ]


def test_state_path_follows_the_env(state_folder: Path) -> None:
    assert state_path() == state_folder / "review.json"


def test_state_path_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ODA_TUI_STATE")
    import platformdirs

    assert state_path() == platformdirs.user_state_path("oda-tui", appauthor=False) / "review.json"


def test_agent_created_memory_waits_until_reviewed(store: MemoryStore, state_folder: Path) -> None:
    m = store.create(GLOBAL, "Tea", "Likes green tea", source="ai", via="chat")
    items = pending_review(store)
    assert len(items) == 1
    item = items[0]
    assert item.memory.id == m.id
    assert item.created_by_agent and item.before is None
    assert (item.before_title, item.before_text) == ("", "")
    assert (item.after_title, item.after_text) == ("Tea", "Likes green tea")
    assert item.reviewed is None
    name = mark_reviewed(store, GLOBAL, m.id)
    assert name == item.newest.name
    assert pending_review(store) == []
    assert reviewed_mark(store, GLOBAL, m.id) == name
    # the marks live in the app's state, never in the memory file
    assert "review" not in store.memory_path(GLOBAL, m.id).read_text("utf-8")
    assert json.loads((state_folder / "review.json").read_text("utf-8"))["stores"][str(store.root)] == {
        "global": {m.id: name}
    }


def test_agent_change_after_review_waits_again_with_the_diff(store: MemoryStore) -> None:
    m = store.create("proj", "Tea", "Likes green tea", source="ai", via="chat")
    first = mark_reviewed(store, "proj", m.id)
    store.change("proj", m.id, text="Likes black tea", via="chat")
    items = pending_review(store)
    assert len(items) == 1
    item = items[0]
    assert item.reviewed == first
    assert item.before is not None and item.before.text == "Likes green tea"
    assert item.after_text == "Likes black tea"
    assert not item.created_by_agent


def test_what_does_not_wait(store: MemoryStore) -> None:
    store.create(GLOBAL, "Mine", "I wrote this")  # source user: no chat changed it
    ai_settings = store.create(GLOBAL, "Set", "Saved in settings", source="ai")  # not by a chat
    ai_chat = store.create(GLOBAL, "Chat", "Saved by chat", source="ai", via="chat")
    store.change(GLOBAL, ai_chat.id, text="fixed by the person")  # the person edited after the chat
    assert pending_review(store) == []
    store.change(GLOBAL, ai_settings.id, text="now a chat changed it", via="chat")
    assert [i.memory.id for i in pending_review(store)] == [ai_settings.id]


def test_a_chat_change_to_the_persons_own_memory_waits(store: MemoryStore) -> None:
    mine = store.create(GLOBAL, "Mine", "I wrote this")  # source user
    store.change(GLOBAL, mine.id, text="changed by chat", via="chat")
    items = pending_review(store)
    assert [(i.memory.id, i.before_text, i.after_text) for i in items] == [
        (mine.id, "I wrote this", "changed by chat")
    ]
    assert not items[0].created_by_agent
    store.change(GLOBAL, mine.id, text="the person's own again")  # edited since: nothing to review
    assert pending_review(store) == []


def test_undo_of_the_agent_change_clears_it(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "Tea", "green", source="ai")
    store.change(GLOBAL, m.id, text="black", via="chat")
    assert len(pending_review(store)) == 1
    store.undo(GLOBAL, m.id)
    assert pending_review(store) == []


def test_outside_edit_after_the_chat_is_the_persons(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "Tea", "green", source="ai", via="chat")
    path = store.memory_path(GLOBAL, m.id)
    path.write_text(path.read_text("utf-8").replace("green", "green, edited by hand"), "utf-8")
    store.refresh([path])
    assert pending_review(store) == []


def test_found_ai_memory_without_history_does_not_wait(store: MemoryStore, root: Path) -> None:
    write_raw(root / "global" / "0123abcd.md", memory_file(source="ai"))
    store.refresh()
    assert pending_review(store) == []


def test_disabled_memories_still_wait(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "Tea", "green", source="ai", via="chat", enabled=False)
    assert [i.memory.id for i in pending_review(store)] == [m.id]


def test_order_global_then_workspaces(store: MemoryStore) -> None:
    w = store.create("beta", "W", "in beta", source="ai", via="chat")
    a = store.create("alpha", "A", "in alpha", source="ai", via="chat")
    g = store.create(GLOBAL, "G", "global", source="ai", via="chat")
    assert [i.memory.id for i in pending_review(store)] == [g.id, a.id, w.id]


def test_marks_are_per_store_root(tmp_path: Path) -> None:
    one, two = MemoryStore(tmp_path / "one"), MemoryStore(tmp_path / "two")
    m1 = one.create(GLOBAL, "T", "x", source="ai", via="chat")
    two.create(GLOBAL, "T", "x", source="ai", via="chat")
    mark_reviewed(one, GLOBAL, m1.id)
    assert pending_review(one) == []
    assert len(pending_review(two)) == 1


def test_a_mark_older_than_several_chat_changes(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "Tea", "v1", source="ai", via="chat")
    mark_reviewed(store, GLOBAL, m.id)
    store.change(GLOBAL, m.id, text="v2", via="chat")
    store.change(GLOBAL, m.id, text="v3", via="chat")
    (item,) = pending_review(store)
    assert (item.before_text, item.after_text) == ("v2", "v3")  # the newest chat change
    mark_reviewed(store, GLOBAL, m.id)
    assert pending_review(store) == []


def test_state_file_is_private_and_written_atomically(store: MemoryStore, state_folder: Path) -> None:
    m = store.create(GLOBAL, "T", "x", source="ai", via="chat")
    mark_reviewed(store, GLOBAL, m.id)
    path = state_folder / "review.json"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert [p.name for p in state_folder.iterdir()] == ["review.json"]  # no temp file left


def test_a_broken_state_file_reads_as_empty_and_is_replaced(store: MemoryStore, state_folder: Path) -> None:
    state_folder.mkdir(parents=True)
    (state_folder / "review.json").write_text("{not json", "utf-8")
    m = store.create(GLOBAL, "T", "x", source="ai", via="chat")
    assert len(pending_review(store)) == 1
    mark_reviewed(store, GLOBAL, m.id)
    assert pending_review(store) == []
    (state_folder / "review.json").write_text('["a list"]', "utf-8")
    assert len(pending_review(store)) == 1


def test_mark_without_history_returns_none(store: MemoryStore) -> None:
    assert mark_reviewed(store, GLOBAL, "0123abcd") is None


def test_forget_marks(store: MemoryStore) -> None:
    a = store.create(GLOBAL, "A", "a", source="ai", via="chat")
    b = store.create("ws", "B", "b", source="ai", via="chat")
    mark_reviewed(store, GLOBAL, a.id)
    mark_reviewed(store, "ws", b.id)
    assert review_marks.forget_marks(store, [(GLOBAL, a.id)]) == 1
    assert reviewed_mark(store, "ws", b.id) is None
    assert reviewed_mark(store, GLOBAL, a.id) is not None


def test_review_state_imports_no_textual() -> None:
    source = Path(review_marks.__file__).read_text("utf-8")
    assert "textual" not in source.replace("no Textual", "")


def test_a_mark_goes_with_a_moved_memory(tmp_path: Path) -> None:
    from oda_tui.own_files.review_marks import carry_mark, mark_reviewed, reviewed_mark

    store = MemoryStore(tmp_path / "oda")
    m = store.create(GLOBAL, "T", "by the agent", source="ai", via="chat")
    state = tmp_path / "state.json"
    name = mark_reviewed(store, GLOBAL, m.id, path=state)
    moved = store.move(GLOBAL, m.id, "proj")
    assert carry_mark(store, GLOBAL, m.id, moved.scope, moved.id, path=state) == name
    assert reviewed_mark(store, "proj", moved.id, path=state) == name
    assert reviewed_mark(store, GLOBAL, m.id, path=state) is None
    assert carry_mark(store, "other", "00000000", "proj", "00000000", path=state) is None
