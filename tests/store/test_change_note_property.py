"""Change notes, read as a model reads them, bring what it holds to what a chat receives now.

For random sequences of changes (create, change, rename, turn off and on, delete, move between
sets, edits, new files and deletions by another program, a changed order), applying each note
to what was sent leaves exactly the memories of a complete read; so does one note from the
first memory sent to the last. The model's side is ``tests.support.notes``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from store import GLOBAL, MemoryStore, change_note
from store.checks.chat import APPLIES
from tests.support.changes import STEPS, TEXTS, TITLES, example_store, settled, take
from tests.support.files import write_raw
from tests.support.notes import ORDER_ONLY, apply, same, sections


@settings(max_examples=30, deadline=None)
@given(st.lists(STEPS, max_size=10), st.lists(st.tuples(TITLES, TEXTS), max_size=4))
def test_applying_each_note_leaves_what_a_complete_read_gives(
    examples_folder: Path, steps: list[tuple[Any, ...]], first: list[tuple[str, str]]
) -> None:
    with example_store(examples_folder, first) as store:
        start = sent = store.chat_memory("proj")
        held = sections(start.text)
        for step in steps:
            take(store, step)
            now = store.chat_memory("proj")
            note = change_note(sent, now)
            assert (note is None) == (sent.text == now.text), note
            held = apply(held, note)
            assert same(held, now.text), (step, note, held, now.text)
            sent = now
        # One note over the whole sequence does the same.
        assert same(apply(sections(start.text), change_note(start, sent)), sent.text)
        settled(store)


def test_a_rename_names_the_old_title_and_the_model_drops_it(store: MemoryStore) -> None:
    style = store.create(GLOBAL, "Style", "Use tabs.")
    before = store.chat_memory()
    store.change(GLOBAL, style.id, title="Indentation", text="Use spaces.")
    note = change_note(before, store.chat_memory())
    assert note == (
        'Memory update: changed "Style" (now titled "Indentation").\n'
        f"\n## Indentation\n\nUse spaces.\n\n{APPLIES}"
    )
    assert apply(sections(before.text), note) == [("Indentation", "Use spaces.")]


def test_a_title_holding_quotes_reads_as_one_title(store: MemoryStore) -> None:
    odd = store.create(GLOBAL, 'a", "b', "One memory.")
    store.create(GLOBAL, "Tea", "Green tea.")
    before = store.chat_memory()
    store.delete(GLOBAL, odd.id)
    note = change_note(before, store.chat_memory())
    assert note == f'Memory update: removed "a\\", \\"b".\n{APPLIES}'
    assert apply(sections(before.text), note) == [("Tea", "Green tea.")]


def test_memories_sharing_a_title_are_told_apart_by_their_text(store: MemoryStore) -> None:
    tabs = store.create(GLOBAL, "Style", "Use tabs in Makefiles.")
    store.create(GLOBAL, "Style", "Use tabs elsewhere too.")
    copy = store.create(GLOBAL, "Style", "Short lines.")
    twin = store.create(GLOBAL, "Style", "Short lines.")
    before = store.chat_memory()
    store.delete(GLOBAL, tabs.id)
    store.set_enabled(GLOBAL, copy.id, False)
    store.change(GLOBAL, twin.id, title="Lines")
    note = change_note(before, store.chat_memory())
    assert note is not None
    # Exact copies are told apart from the rest, not from each other: either is the same to a model.
    assert note.startswith(
        'Memory update: changed "Style" (the one beginning "Short…", now titled "Lines"); '
        'removed "Style" (the one beginning "Use tabs in…"), "Style" (the one beginning "Short…").\n'
    )
    held = apply(sections(before.text), note)
    assert same(held, store.chat_memory().text)


def test_a_moved_memory_is_the_same_memory(store: MemoryStore) -> None:
    store.create("proj", "Stack", "Django.")
    moved = store.create(GLOBAL, "Tea", "Green tea.")
    before = store.chat_memory("proj")
    store.move(GLOBAL, moved.id, "proj")
    assert change_note(before, store.chat_memory("proj")) == ORDER_ONLY
    store.change("proj", moved.id, text="Black tea.")
    store.move("proj", moved.id, GLOBAL)
    note = change_note(before, store.chat_memory("proj"))
    assert note is not None and note.startswith('Memory update: changed "Tea".\n')


def test_only_the_order_changing_is_said(store: MemoryStore, root: Path) -> None:
    first = store.create(GLOBAL, "First", "One.")
    store.create(GLOBAL, "Second", "Two.")
    before = store.chat_memory()
    path = store.memory_path(GLOBAL, first.id)
    raw = path.read_text("utf-8")
    write_raw(path, re.sub(r"^created: .*$", "created: 2999-01-01T00:00:00.000Z", raw, flags=re.M))
    store.refresh()
    after = store.chat_memory()
    assert [e.title for e in after.entries] == ["Second", "First"]
    assert change_note(before, after) == "Memory update: the order of memories changed. " + APPLIES
