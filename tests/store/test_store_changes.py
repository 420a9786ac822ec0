"""Changing memories: the spec's refusals word for word, limits at and past their edges."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from store import GLOBAL, MemoryStore, StoreError, change_note, estimate_tokens
from tests.support.files import memory_file, write_raw
from tests.support.stores import limited_store


def refused(call: Callable[..., object], *args: Any, **kwargs: Any) -> str:
    with pytest.raises(StoreError) as info:
        call(*args, **kwargs)
    return str(info.value)


def test_change_needs_a_title_or_a_text(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "T", "x")
    assert refused(store.change, GLOBAL, m.id) == "Give a new title, a new text, or both."


def test_empty_title_and_text_are_refused(store: MemoryStore) -> None:
    assert refused(store.create, GLOBAL, " \n\t ", "x") == "A memory needs a title."
    assert refused(store.create, GLOBAL, "T", "  \n ") == "A memory needs some text."
    m = store.create(GLOBAL, "T", "x")
    assert refused(store.change, GLOBAL, m.id, title="") == "A memory needs a title."
    assert refused(store.change, GLOBAL, m.id, text="") == "A memory needs some text."


def test_title_limit_at_and_past_the_edge(store: MemoryStore) -> None:
    assert store.create(GLOBAL, "t" * 120, "x").title == "t" * 120
    assert refused(store.create, GLOBAL, "t" * 121, "x") == (
        "A memory title is limited to 120 characters; this one has 121."
    )


def test_text_limit_at_and_past_the_edge(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "T", "x" * 2000)
    assert refused(store.change, GLOBAL, m.id, text="x" * 2001) == (
        "A memory is limited to 2000 characters; this one has 2001. "
        "Shorten it or split it into several memories."
    )


def test_unknown_id_is_refused_with_the_spec_message(store: MemoryStore) -> None:
    expected = 'No memory with the id "0000aaaa" exists in this chat\'s memory. Call memory_list for the current ids.'
    assert refused(store.change, GLOBAL, "0000aaaa", text="x") == expected
    assert refused(store.get, GLOBAL, "0000aaaa") == expected
    assert refused(store.delete, GLOBAL, "0000aaaa") == expected
    assert refused(store.set_enabled, "ws", "0000aaaa", True) == expected
    traversal = refused(store.change, GLOBAL, "../../x", text="y")
    assert traversal.startswith('No memory with the id "../../x"')


def test_a_bad_workspace_key_is_refused(store: MemoryStore, root: Path) -> None:
    for key in ("..", ".", "../x", "a/b", "-lead", "_lead", "x" * 256, ""):
        message = refused(store.create, key, "T", "x")
        assert message == f'The memory could not be changed: the workspace key "{key}" is not valid.'
    assert not (root / "x").exists()
    # The spec sets no length below the file system's name limit (255 bytes).
    assert store.create("a" * 255, "T", "x").scope == "a" * 255
    assert store.workspaces() == ["a" * 255]


def test_a_change_that_changes_nothing_saves_nothing(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "T", "x")
    before = m.path.stat()
    result = store.change(GLOBAL, m.id, title=" T ", text="x\n")
    assert not result.changed
    assert result.note == "The memory already had that title and text."
    assert len(store.versions(GLOBAL, m.id)) == 1
    after = m.path.stat()
    assert (before.st_ino, before.st_mtime_ns) == (after.st_ino, after.st_mtime_ns)


def test_change_title_only_keeps_the_text(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "T", "body")
    changed = store.change(GLOBAL, m.id, title="New").memory
    assert (changed.title, changed.text) == ("New", "body")
    assert changed.updated is not None and m.updated is not None and changed.updated >= m.updated


def test_file_size_limit_refuses_a_save(root: Path) -> None:
    write_raw(root / "settings.yaml", "file_max_bytes: 1024\ntext_max_chars: 5000\n")
    s = MemoryStore(root)
    assert refused(s.create, GLOBAL, "T", "x" * 1100) == (
        "The memory could not be changed: the file would be larger than 1024 bytes."
    )


def test_estimate_tokens_is_four_characters_a_token() -> None:
    assert [estimate_tokens("x" * n) for n in (0, 1, 4, 5, 8)] == [0, 1, 1, 2, 2]


def test_chat_memory_text_is_exactly_the_spec_format(store: MemoryStore) -> None:
    g = store.create(GLOBAL, "G", "global text")
    store.create(GLOBAL, "Off", "not sent", enabled=False)
    w = store.create("proj", "W", "workspace text")
    store.create("other", "O", "other text")
    chat = store.chat_memory("proj")
    assert chat.text == "# Memory\n\n## G\n\nglobal text\n\n## W\n\nworkspace text\n"
    assert chat.tokens == estimate_tokens(chat.text) == store.chat_tokens("proj")
    assert [e.id for e in chat.entries] == [g.id, w.id]
    assert store.chat_memory(None).text == "# Memory\n\n## G\n\nglobal text\n"
    assert store.chat_memory("missing").text == store.chat_memory(None).text
    assert MemoryStore(store.root / "nothing").chat_memory().text == ""


def test_chat_order_is_created_then_id_with_no_created_first(store: MemoryStore, root: Path) -> None:
    a = store.create(GLOBAL, "A", "a")
    write_raw(root / "global" / "ffffffff.md", memory_file(title="No date", text="n"))
    write_raw(
        root / "global" / "00000000.md",
        memory_file(title="Old", text="o", extra="created: 2001-01-01T00:00:00Z\n"),
    )
    store.refresh()
    assert [e.title for e in store.chat_memory().entries] == ["No date", "Old", "A"]
    assert a.id


def test_problem_and_disabled_memories_are_not_sent(store: MemoryStore, root: Path) -> None:
    write_raw(root / "global" / "0123abcd.md", "no frontmatter")
    store.create(GLOBAL, "Off", "x", enabled=False)
    assert store.chat_memory().text == ""


def test_tokens_limit_refuses_a_growing_chat(root: Path) -> None:
    s = limited_store(root)
    m = s.create(GLOBAL, "Big", "x" * 1900)  # ~ 480 tokens
    message = refused(s.create, GLOBAL, "More", "y" * 200)
    assert message.startswith("This change would bring the memory a chat receives to about ")
    assert message.endswith(" tokens; the limit is 500.")
    n = int(message.split("about ")[1].split(" ")[0])
    assert n == estimate_tokens("# Memory\n\n## Big\n\n" + "x" * 1900 + "\n\n## More\n\n" + "y" * 200 + "\n")
    assert s.change(GLOBAL, m.id, text="x" * 100).changed  # a change that lowers the total is fine


def test_tokens_limit_names_the_workspace(root: Path) -> None:
    s = limited_store(root)
    s.create("proj", "Big", "x" * 1900)
    message = refused(s.create, GLOBAL, "More", "y" * 200)
    assert message.startswith(
        "This change would bring the memory a chat in workspace proj receives to about "
    )
    assert message.endswith(" tokens; the limit is 500.")
    assert s.create("other", "Fine", "y" * 200).title == "Fine"


def test_turning_on_is_checked_turning_off_never(root: Path) -> None:
    s = limited_store(root)
    s.create(GLOBAL, "Big", "x" * 1900)
    off = s.create(GLOBAL, "Off", "y" * 300, enabled=False)
    assert refused(s.set_enabled, GLOBAL, off.id, True).startswith("This change would bring")
    big = s.memories(GLOBAL)[0]
    assert s.set_enabled(GLOBAL, big.id, False).enabled is False
    assert s.set_enabled(GLOBAL, off.id, True).enabled is True


def test_already_over_the_limit_a_shrinking_change_is_allowed(root: Path) -> None:
    write_raw(root / "global" / "aaaaaaaa.md", memory_file(title="A", text="x" * 1990))
    write_raw(root / "global" / "bbbbbbbb.md", memory_file(title="B", text="x" * 1990))
    s = limited_store(root, 600)
    assert s.chat_tokens() > 600
    assert s.change(GLOBAL, "aaaaaaaa", text="x" * 1000).changed
    assert refused(s.change, GLOBAL, "aaaaaaaa", text="x" * 1500).startswith("This change would bring")


def test_deleting_is_never_refused(root: Path) -> None:
    write_raw(root / "global" / "aaaaaaaa.md", memory_file(title="A", text="x" * 1990))
    write_raw(root / "global" / "bbbbbbbb.md", memory_file(title="B", text="x" * 1990))
    s = limited_store(root, 600)
    s.delete(GLOBAL, "aaaaaaaa")
    assert [m.id for m in s.memories(GLOBAL)] == ["bbbbbbbb"]


def test_change_note_lists_what_changed(store: MemoryStore) -> None:
    a = store.create(GLOBAL, "Alpha", "a")
    b = store.create(GLOBAL, "Beta", "b")
    before = store.chat_memory()
    assert change_note(before, store.chat_memory()) is None
    store.change(GLOBAL, a.id, text="a2")
    store.delete(GLOBAL, b.id)
    store.create(GLOBAL, "Gamma", "g")
    note = change_note(before, store.chat_memory())
    assert note is not None
    assert note.startswith('Memory update: added "Gamma"; changed "Alpha"; removed "Beta".')
    assert "a2" in note and "g" in note
    assert note.endswith("This applies from now on; the rest of the memory is unchanged.")


def test_problem_file_cannot_be_changed_but_can_be_deleted(store: MemoryStore, root: Path) -> None:
    path = write_raw(root / "global" / "0123abcd.md", b"\xff\xfe broken")
    message = refused(store.change, GLOBAL, "0123abcd", text="x")
    assert message == "The memory could not be changed: its file has a problem: The file is not UTF-8 text."
    store.delete(GLOBAL, "0123abcd")
    assert not path.exists()
    assert store.restore_deleted(GLOBAL, "0123abcd") is None
    assert path.read_bytes() == b"\xff\xfe broken"
    assert [p.message for p in store.problems()] == ["The file is not UTF-8 text."]


def test_chat_memory_refuses_a_bad_workspace_key(store: MemoryStore) -> None:
    assert (
        refused(store.chat_memory, "../x")
        == 'The memory could not be changed: the workspace key "../x" is not valid.'
    )
    assert refused(store.chat_tokens, "a/b").startswith("The memory could not be changed: the workspace key")


def test_find_tells_a_memory_from_a_problem_file(store: MemoryStore, root: Path) -> None:
    m = store.create(GLOBAL, "T", "x")
    write_raw(root / "global" / "0123abcd.md", "broken")
    store.refresh()
    assert store.find(GLOBAL, m.id) == m
    found = store.find(GLOBAL, "0123abcd")
    assert found is not None and not hasattr(found, "title") and found.message.startswith("The file does not")
    assert store.find(GLOBAL, "ffffffff") is None


def test_every_change_is_a_plain_method_with_the_signature_of_what_it_runs() -> None:
    """Go to definition, find usages and ``inspect.signature`` all reach a change's real
    parameters: each is a method of ``MemoryStore`` handing them on unchanged."""
    import inspect

    from store.write.changes import Changes
    from store.write.frontmatter_edit import change_frontmatter

    names = [
        "create", "edit", "change", "set_enabled", "delete", "restore_deleted", "purge_deleted",
        "move", "restore_version", "undo", "change_frontmatter", "write_fixed", "keep_outside_edit",
    ]  # fmt: skip
    for name in names:
        method = inspect.getattr_static(MemoryStore, name)
        assert inspect.isfunction(method), name
        runs = change_frontmatter if name == "change_frontmatter" else getattr(Changes, name)
        ours = list(inspect.signature(method).parameters.values())[1:]
        theirs = list(inspect.signature(runs).parameters.values())[1:]
        assert ours == theirs, name
        assert inspect.getdoc(method) == inspect.getdoc(runs), name
