"""``MemoryStore.agent_changes``: what a chat created, changed or deleted since the marks the
caller keeps; ``newest_version_name``: the mark a review writes."""

from __future__ import annotations

from pathlib import Path

from store import GLOBAL, MemoryStore


def test_a_chats_changes_wait_until_marked_and_an_edit_since_is_the_persons(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path)
    made = store.create(GLOBAL, "Language", "Reply in French.", source="ai", via="chat")
    mine = store.create("proj", "Tabs", "Use tabs.")
    store.change("proj", mine.id, text="Use four spaces.", via="chat")
    [created, changed] = store.agent_changes({})
    assert (created.memory.id, created.created_by_agent, created.after_text) == (
        made.id,
        True,
        "Reply in French.",
    )
    assert (changed.memory.id, changed.before_text, changed.after_text) == (
        mine.id,
        "Use tabs.",
        "Use four spaces.",
    )
    newest = store.newest_version_name(GLOBAL, made.id)
    assert newest is not None and newest.endswith("-chat") and newest == created.newest.name
    assert [i.memory.id for i in store.agent_changes({GLOBAL: {made.id: newest}})] == [mine.id]
    store.change("proj", mine.id, text="Use three spaces.")  # the person's own edit
    assert [i.memory.id for i in store.agent_changes({GLOBAL: {made.id: newest}})] == []


def test_a_chats_deletion_waits_with_its_own_mark(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path)
    gone = store.create(GLOBAL, "Old", "Was here.")
    store.delete(GLOBAL, gone.id, via="chat")
    [item] = store.agent_changes({})
    assert item.deleted_by_agent and item.before_text == "Was here." and item.newest.name.endswith("-deleted")
    assert store.agent_changes({GLOBAL: {gone.id: item.newest.name}}) == []


def test_newest_version_name_of_no_history_or_a_bad_name_is_none(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path)
    assert store.newest_version_name(GLOBAL, "0123abcd") is None
    assert store.newest_version_name(GLOBAL, "../../x") is None
    assert store.newest_version_name("../..", "0123abcd") is None
