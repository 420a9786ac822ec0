"""``load_scopes``: a store not loaded yet loads only the sets one chat receives, with no look
at any other; whatever needs more (another set, the workspaces, a change) loads the rest first,
and a change to the loaded sets meanwhile is still reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from store import GLOBAL, MemoryStore, OverChatLimit
from tests.support.files import memory_file, started_store, write_raw
from tests.support.opened import Opened


def filled(root: Path) -> Path:
    write_raw(root / "global" / "aaaa0001.md", memory_file("Tea", "Green tea."))
    write_raw(root / "workspaces" / "proj" / "cccc0001.md", memory_file("Stack", "Django."))
    write_raw(root / "workspaces" / "other" / "bbbb0001.md", memory_file("Far", "Elsewhere."))
    started_store(root)  # with its parse index, as a later start finds it
    return root


def test_only_the_named_sets_are_opened_and_the_rest_comes_when_asked(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    filled(root)
    opened = Opened()
    opened.watch(monkeypatch)
    store = MemoryStore(root)
    store.load_scopes([GLOBAL, "proj"])
    assert [m.title for m in store.memories(GLOBAL)] == ["Tea"]
    assert [m.title for m in store.memories("proj")] == ["Stack"]
    assert "Django." in store.chat_memory("proj").text
    assert opened.under(root.resolve() / "workspaces" / "other") == []
    assert store.workspaces() == ["other", "proj"]  # needs every set: the rest is loaded
    assert [m.title for m in store.memories("other")] == ["Far"]
    assert opened.under(root.resolve() / "workspaces" / "other")


def test_a_change_to_the_loaded_sets_before_the_rest_is_reported(root: Path) -> None:
    filled(root)
    store = MemoryStore(root)
    store.load_scopes([GLOBAL, "proj"])
    path = write_raw(root / "workspaces" / "proj" / "cccc0001.md", memory_file("Stack", "Flask now."))
    assert store.refresh_scopes([GLOBAL, "proj"]) == {path}
    changed = write_raw(root / "global" / "aaaa0001.md", memory_file("Tea", "Black tea."))
    store.load_rest()
    assert store.refresh() == {changed}
    assert store.get(GLOBAL, "aaaa0001").text == "Black tea."
    assert store.refresh() == set()


def test_a_change_right_after_a_partial_load_sees_every_chat_it_reaches(root: Path) -> None:
    filled(root)
    write_raw(root / "settings.yaml", "chat_max_tokens: 500\n")
    write_raw(root / "workspaces" / "other" / "bbbb0002.md", memory_file("Big", "x" * 1850))
    store = MemoryStore(root)
    store.load_scopes([GLOBAL])
    with pytest.raises(OverChatLimit, match="a chat in workspace other receives"):
        store.create(GLOBAL, "More", "z" * 200)
    assert [m.title for m in store.memories(GLOBAL)] == ["Tea"]
