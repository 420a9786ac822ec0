"""Typed refusals: each says why a change was refused with its values, in the spec's words."""

from __future__ import annotations

import pytest

from store import (
    GLOBAL,
    CouldNotChange,
    LooksSecret,
    MemoryStore,
    MissingField,
    NoSuchVersion,
    NothingToChange,
    NothingToUndo,
    OverChatLimit,
    StoreError,
    TooLong,
    UnknownMemory,
)


def test_unknown_id_carries_the_id(store: MemoryStore) -> None:
    with pytest.raises(UnknownMemory) as info:
        store.change(GLOBAL, "0000aaaa", text="x")
    assert info.value.memory_id == "0000aaaa"
    assert str(info.value) == (
        'No memory with the id "0000aaaa" exists in this chat\'s memory. Call memory_list for the current ids.'
    )
    assert isinstance(info.value, StoreError)


def test_missing_and_too_long_carry_the_field_and_the_numbers(store: MemoryStore) -> None:
    with pytest.raises(MissingField) as missing:
        store.create(GLOBAL, " ", "x")
    assert (missing.value.field, str(missing.value)) == ("title", "A memory needs a title.")
    with pytest.raises(MissingField) as missing:
        store.create(GLOBAL, "T", "\n")
    assert (missing.value.field, str(missing.value)) == ("text", "A memory needs some text.")
    with pytest.raises(TooLong) as long:
        store.create(GLOBAL, "t" * 121, "x")
    assert (long.value.field, long.value.limit, long.value.length) == ("title", 120, 121)
    assert str(long.value) == "A memory title is limited to 120 characters; this one has 121."
    memory = store.create(GLOBAL, "T", "x")
    with pytest.raises(TooLong) as long:
        store.change(GLOBAL, memory.id, text="y" * 2001)
    assert (long.value.field, long.value.limit, long.value.length) == ("text", 2000, 2001)


def test_nothing_to_change_and_nothing_to_undo(store: MemoryStore) -> None:
    memory = store.create(GLOBAL, "T", "x")
    with pytest.raises(NothingToChange) as nothing:
        store.change(GLOBAL, memory.id)
    assert str(nothing.value) == "Give a new title, a new text, or both."
    with pytest.raises(NothingToUndo) as undo:
        store.undo(GLOBAL, memory.id)
    assert str(undo.value) == "There is no change from a chat to undo."


def test_no_such_version_carries_its_name(store: MemoryStore) -> None:
    memory = store.create(GLOBAL, "T", "x")
    with pytest.raises(NoSuchVersion) as info:
        store.restore_version(GLOBAL, memory.id, "nope")
    assert info.value.name == "nope"
    assert str(info.value) == 'No saved version "nope" of this memory exists.'


def test_over_chat_limit_names_the_chat_and_its_numbers(limited: MemoryStore) -> None:
    store = limited
    store.create("proj", "Big", "x" * 1900)
    with pytest.raises(OverChatLimit) as info:
        store.create(GLOBAL, "More", "y" * 200)
    err = info.value
    assert (err.workspace, err.limit) == ("proj", 500)
    assert err.tokens > 500
    assert str(err) == (
        f"This change would bring the memory a chat in workspace proj receives to about "
        f"{err.tokens} tokens; the limit is 500."
    )
    with pytest.raises(OverChatLimit) as outside:
        store.create(GLOBAL, "Alone", "z" * 2000)
    assert outside.value.workspace == "proj"  # the largest chat the change reaches


def test_over_chat_limit_outside_any_workspace_has_no_workspace(limited: MemoryStore) -> None:
    store = limited
    store.create(GLOBAL, "Big", "x" * 1900)
    with pytest.raises(OverChatLimit) as info:
        store.create(GLOBAL, "More", "y" * 200)
    assert info.value.workspace is None
    assert str(info.value).startswith("This change would bring the memory a chat receives to about ")


def test_could_not_change_carries_the_reason(store: MemoryStore) -> None:
    with pytest.raises(CouldNotChange) as info:
        store.create("../x", "T", "x")
    assert info.value.reason == 'the workspace key "../x" is not valid'
    assert str(info.value) == 'The memory could not be changed: the workspace key "../x" is not valid.'


def test_looks_secret_carries_the_kinds(store: MemoryStore) -> None:
    with pytest.raises(LooksSecret) as info:
        store.create(GLOBAL, "Login", "password: hunter2hunter2")
    assert info.value.kinds == ("password",)
    assert str(info.value).startswith("This text looks like it contains a password;")
