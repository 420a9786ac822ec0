"""The limits a change is checked against are settings.yaml as it is now, and a refusal over
a limit names the value and the limit; a restored deleted memory's version says ``restore``."""

from __future__ import annotations

from pathlib import Path

import pytest

from store import GLOBAL, MemoryStore, TooLong
from tests.support.files import write_raw


def test_turning_on_over_the_text_limit_names_the_value_and_the_limit(store: MemoryStore, root: Path) -> None:
    memory = store.create(GLOBAL, "T", "x" * 150, enabled=False)
    write_raw(root / "settings.yaml", "text_max_chars: 100\n")
    with pytest.raises(TooLong) as info:
        store.set_enabled(GLOBAL, memory.id, True)
    assert str(info.value) == (
        "A memory is limited to 100 characters; this one has 150. Shorten it or split it into several memories."
    )


def test_turning_on_over_the_title_limit_names_the_value_and_the_limit(
    store: MemoryStore, root: Path
) -> None:
    memory = store.create(GLOBAL, "T" * 60, "text", enabled=False)
    write_raw(root / "settings.yaml", "title_max_chars: 40\n")
    with pytest.raises(TooLong) as info:
        store.set_enabled(GLOBAL, memory.id, True)
    assert str(info.value) == "A memory title is limited to 40 characters; this one has 60."


def test_limits_another_program_lowers_apply_to_the_next_change(store: MemoryStore, root: Path) -> None:
    kept = store.create(GLOBAL, "T", "x" * 150)
    write_raw(root / "settings.yaml", "text_max_chars: 100\n")  # another process, meanwhile
    with pytest.raises(TooLong) as info:
        store.create(GLOBAL, "New", "y" * 150)
    assert "limited to 100 characters; this one has 150" in str(info.value)
    with pytest.raises(TooLong):
        store.change(GLOBAL, kept.id, text="z" * 120)
    assert store.limits.text_max_chars == 100
    assert {p.name for p in store.refresh()} == {"settings.yaml", Path(kept.path).name}  # reported once
    assert store.refresh() == set()


def test_the_settings_are_looked_at_under_the_lock(
    store: MemoryStore, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.create(GLOBAL, "T", "first")
    lock = store._sync.disk_lock
    real = lock.acquire

    def then_lowered() -> None:
        real()  # the checks before the lock passed with the old limit; now another process lowers it
        write_raw(root / "settings.yaml", "text_max_chars: 100\n")

    monkeypatch.setattr(lock, "acquire", then_lowered)
    with pytest.raises(TooLong):
        store.create(GLOBAL, "New", "y" * 150)
    assert [m.title for m in MemoryStore(root).memories(GLOBAL)] == ["T"]


def test_a_restored_deleted_memory_keeps_its_text_as_a_restore_version(
    store: MemoryStore, root: Path
) -> None:
    memory = store.create(GLOBAL, "T", "before")
    store.delete(GLOBAL, memory.id)
    kept = root / "history" / "global" / memory.id / "deleted.md"
    kept.write_text(kept.read_text().replace("before", "fixed while deleted"))
    back = store.restore_deleted(GLOBAL, memory.id)
    assert back is not None and back.text == "fixed while deleted"
    newest = store.versions(GLOBAL, memory.id)[0]
    assert (newest.source, newest.text) == ("restore", "fixed while deleted")


def test_the_limits_in_settings_are_read_without_loading_the_memories(root: Path) -> None:
    write_raw(root / "settings.yaml", "title_max_chars: 50\n")
    write_raw(root / "global" / "abcdef01.md", "---\ntitle: T\nenabled: true\nsource: user\n---\n\nx\n")
    store = MemoryStore(root)
    assert store.limits_in_settings().title_max_chars == 50
    assert store._sync.state is None  # nothing of the memories was read
    write_raw(root / "settings.yaml", "title_max_chars: 60\n")
    assert store.limits_in_settings().title_max_chars == 60
    assert store.limits.title_max_chars == 60  # loaded now: the store's own reading
