"""A change to content the caller never saw is refused: ``expected`` fingerprints, compared by
the store under its lock with the file as it is then (an editor's write included)."""

from __future__ import annotations

from pathlib import Path

import pytest

from store import GLOBAL, ChangedSinceRead, MemoryStore, fingerprint, memory_fingerprint
from tests.support.files import memory_file, write_raw


def snapshot(root: Path) -> list[tuple[str, bytes]]:
    return sorted((str(p), p.read_bytes()) for p in root.rglob("*.md") if p.is_file())


def test_the_fingerprint_names_title_text_and_switch() -> None:
    base = fingerprint("T", "text", True)
    assert base == fingerprint("T", "text", True)
    others = {
        fingerprint("T2", "text", True),
        fingerprint("T", "text.", True),
        fingerprint("T", "text", False),
    }
    assert base not in others and len(others) == 3
    assert fingerprint("ab", "c", True) != fingerprint("a", "bc", True)  # parts cannot run together


def test_an_editors_write_changes_the_fingerprint(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "Deploy", "Tag the release.")
    assert memory_fingerprint(m) == fingerprint("Deploy", "Tag the release.", True)
    write_raw(m.path, memory_file("Deploy", "Tag the release. Never on Fridays."))
    store.refresh()
    assert memory_fingerprint(store.get(GLOBAL, m.id)) != memory_fingerprint(m)


def test_a_stale_edit_is_refused_with_the_memory_as_it_is_now(root: Path, store: MemoryStore) -> None:
    m = store.create(GLOBAL, "Deploy", "Tag the release.")
    seen = memory_fingerprint(m)
    # The person's edit lands after the caller read; this store has not looked since.
    write_raw(m.path, memory_file("Deploy", "Tag the release. Never on Fridays."))
    before = snapshot(root)
    with pytest.raises(ChangedSinceRead) as info:
        store.edit(GLOBAL, m.id, text="Tag the release. Tag the commit first.", via="chat", expected=seen)
    current = info.value.current
    assert current is not None
    assert (current.id, current.text) == (m.id, "Tag the release. Never on Fridays.")
    assert memory_fingerprint(current) != seen
    assert str(info.value).startswith("The memory could not be changed: it was changed since it was read")
    assert snapshot(root) == before  # nothing written, not even a version


def test_an_edit_over_what_was_read_goes_ahead(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "Deploy", "Tag the release.")
    change = store.edit(GLOBAL, m.id, text="Tag the release first.", expected=memory_fingerprint(m))
    assert change.changed and change.memory.text == "Tag the release first."


def test_turning_off_by_anyone_makes_an_earlier_fingerprint_stale(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "Deploy", "Tag the release.")
    store.set_enabled(GLOBAL, m.id, False)
    with pytest.raises(ChangedSinceRead):
        store.edit(GLOBAL, m.id, title="Deploying", expected=memory_fingerprint(m))


def test_a_stale_delete_is_refused_and_the_file_stays(root: Path, store: MemoryStore) -> None:
    m = store.create(GLOBAL, "Deploy", "Tag the release.")
    write_raw(m.path, memory_file("Deploy", "Never on Fridays."))
    with pytest.raises(ChangedSinceRead) as info:
        store.delete(GLOBAL, m.id, via="chat", expected=memory_fingerprint(m))
    assert info.value.current is not None and info.value.current.text == "Never on Fridays."
    assert m.path.exists() and store.deleted(GLOBAL) == []
    store.delete(GLOBAL, m.id, via="chat", expected=memory_fingerprint(info.value.current))
    assert not m.path.exists()


def test_deleting_what_became_a_problem_file_is_refused_naming_the_problem(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "Deploy", "Tag the release.")
    write_raw(m.path, "no frontmatter any more\n")
    with pytest.raises(ChangedSinceRead) as info:
        store.delete(GLOBAL, m.id, expected=memory_fingerprint(m))
    assert info.value.current is None
    assert info.value.problem == "The file does not start with a --- frontmatter block."
    assert m.path.exists()
