"""``MemoryStore.edit``: title, text and the switch set together, one transaction, one version."""

from __future__ import annotations

from pathlib import Path

import pytest

from store import GLOBAL, LooksSecret, MemoryStore, StoreError
from tests.support.files import memory_file, write_raw
from tests.support.stores import limited_store

AWS_KEY = "AKIAIOSFODNN7EXAMPLE"


def file_of(store: MemoryStore, memory_id: str) -> bytes:
    return store.memory_path(GLOBAL, memory_id).read_bytes()


def test_title_text_and_switch_change_together_with_one_version(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "Old", "old text")
    change = store.edit(GLOBAL, m.id, title="New", text="new text", enabled=False)
    assert change.changed
    assert (change.memory.title, change.memory.text, change.memory.enabled) == ("New", "new text", False)
    versions = store.versions(GLOBAL, m.id)
    assert [(v.title, v.text) for v in versions] == [("New", "new text"), ("Old", "old text")]
    assert store.get(GLOBAL, m.id) == change.memory


def test_the_switch_alone_keeps_no_version(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "T", "x")
    assert store.edit(GLOBAL, m.id, enabled=False).memory.enabled is False
    assert store.edit(GLOBAL, m.id, enabled=True).memory.enabled is True
    assert len(store.versions(GLOBAL, m.id)) == 1


def test_an_edit_that_changes_nothing_writes_nothing(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "T", "x")
    before = file_of(store, m.id)
    change = store.edit(GLOBAL, m.id, title="T", text="x", enabled=True)
    assert not change.changed
    assert change.note == "The memory already had that title and text."
    assert file_of(store, m.id) == before
    with pytest.raises(StoreError) as info:
        store.edit(GLOBAL, m.id)
    assert str(info.value) == "Give a new title, a new text, or both."


def test_turning_on_over_the_chat_limit_is_refused_and_changes_nothing(root: Path) -> None:
    s = limited_store(root)
    s.create(GLOBAL, "Big", "x" * 1900)
    off = s.create(GLOBAL, "Off", "y" * 100, enabled=False)
    before = file_of(s, off.id)
    with pytest.raises(StoreError) as info:
        s.edit(GLOBAL, off.id, text="z" * 300, enabled=True)
    message = str(info.value)
    assert message.startswith("This change would bring the memory a chat receives to about ")
    assert message.endswith(" tokens; the limit is 500.")
    assert file_of(s, off.id) == before
    assert len(s.versions(GLOBAL, off.id)) == 1
    assert s.get(GLOBAL, off.id).enabled is False


def test_turning_off_is_never_refused_even_with_a_longer_text(root: Path) -> None:
    write_raw(root / "global" / "aaaaaaaa.md", memory_file(title="A", text="x" * 1990))
    write_raw(root / "global" / "bbbbbbbb.md", memory_file(title="B", text="x" * 1990))
    s = limited_store(root, 600)
    assert s.chat_tokens() > 600
    change = s.edit(GLOBAL, "aaaaaaaa", text="x" * 1995, enabled=False)
    assert change.memory.enabled is False
    assert change.memory.text == "x" * 1995


def test_a_text_over_its_limit_is_refused_before_the_switch_is_touched(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "T", "x", enabled=False)
    with pytest.raises(StoreError) as info:
        store.edit(GLOBAL, m.id, text="x" * 2001, enabled=True)
    assert str(info.value).startswith("A memory is limited to 2000 characters; this one has 2001.")
    assert store.get(GLOBAL, m.id).enabled is False


def test_a_new_secret_is_refused_with_its_kinds_unless_allowed(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "T", "x", enabled=False)
    before = file_of(store, m.id)
    with pytest.raises(LooksSecret) as info:
        store.edit(GLOBAL, m.id, text=f"key {AWS_KEY}", enabled=True)
    assert info.value.kinds
    assert file_of(store, m.id) == before
    change = store.edit(GLOBAL, m.id, text=f"key {AWS_KEY}", enabled=True, allow_secret=True)
    assert change.memory.enabled and AWS_KEY in change.memory.text
    # a secret already there does not block turning off or other edits
    assert store.edit(GLOBAL, m.id, title="Keys", enabled=False).memory.title == "Keys"


def test_a_text_given_as_a_function_gets_the_text_as_it_is_under_the_lock(root: Path) -> None:
    """A passage edit is applied to the file as it is now, not as this store last saw it: an
    outside in-place edit made a moment before is kept, with the passage replaced in it."""
    store = MemoryStore(root)
    memory = store.create(GLOBAL, "Style", "Use tabs.")
    write_raw(store.memory_path(GLOBAL, memory.id), memory_file("Style", "Use tabs. Wrap at 100."))
    seen: list[str] = []

    def passage(current: str) -> str:
        seen.append(current)
        return current.replace("tabs", "spaces")

    change = store.edit(GLOBAL, memory.id, text=passage)
    assert seen == ["Use tabs. Wrap at 100."]
    assert change.memory.text == "Use spaces. Wrap at 100."
    assert [v.text for v in store.versions(GLOBAL, memory.id)][:2] == [
        "Use spaces. Wrap at 100.",
        "Use tabs. Wrap at 100.",
    ]


def test_a_text_function_that_raises_refuses_the_edit_and_writes_nothing(store: MemoryStore) -> None:
    memory = store.create(GLOBAL, "Style", "Use tabs.")
    before = store.memory_path(GLOBAL, memory.id).read_bytes()

    def missing(_current: str) -> str:
        raise LookupError("no such passage")

    with pytest.raises(LookupError):
        store.edit(GLOBAL, memory.id, text=missing, enabled=False)
    assert store.memory_path(GLOBAL, memory.id).read_bytes() == before
    assert store.get(GLOBAL, memory.id).enabled
    assert len(store.versions(GLOBAL, memory.id)) == 1
