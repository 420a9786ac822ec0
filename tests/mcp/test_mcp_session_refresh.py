"""Each tool call brings the chat's own sets up to date, and only those: an outside edit in
Global or the chat's workspace is seen by the very next call; another workspace is not read."""

from __future__ import annotations

from pathlib import Path

from oda_tui.mcp import tools
from oda_tui.mcp.session import ChatSession
from store import MemoryStore
from tests.support.files import memory_file, write_raw


def titles(result: tools.ToolResult) -> list[str]:
    assert not result.error, result.text
    assert result.data is not None
    return [m["title"] for m in result.data["memories"]]


def test_a_tool_call_sees_outside_edits_in_the_chats_sets_only(root: Path) -> None:
    write_raw(root / "global" / "aaaa0001.md", memory_file("Global one", "Text"))
    write_raw(root / "workspaces" / "proj" / "cccc0001.md", memory_file("In proj", "More"))
    write_raw(root / "workspaces" / "other" / "bbbb0001.md", memory_file("Elsewhere", "Far"))
    store = MemoryStore(root)
    session = ChatSession(store, "proj")
    assert titles(tools.call(session, "memory_list", {})) == ["Global one", "In proj"]
    store.load_rest()  # as the server does once the first answer is sent

    write_raw(root / "global" / "aaaa0001.md", memory_file("Global two", "Text"))
    write_raw(root / "workspaces" / "proj" / "cccc0002.md", memory_file("Added in proj", "Hi"))
    (root / "workspaces" / "proj" / "cccc0001.md").unlink()
    write_raw(root / "workspaces" / "other" / "bbbb0001.md", memory_file("Changed elsewhere", "Far"))
    assert titles(tools.call(session, "memory_list", {})) == ["Global two", "Added in proj"]

    # The other workspace was not looked at: the picture still holds what it was at the start.
    assert [m.title for m in store.memories("other")] == ["Elsewhere"]
    store.refresh()
    assert [m.title for m in store.memories("other")] == ["Changed elsewhere"]


def test_a_chat_outside_workspaces_refreshes_global_only(root: Path) -> None:
    write_raw(root / "global" / "aaaa0001.md", memory_file("Global one", "Text"))
    write_raw(root / "workspaces" / "proj" / "cccc0001.md", memory_file("In proj", "More"))
    store = MemoryStore(root)
    session = ChatSession(store, None)
    assert titles(tools.call(session, "memory_list", {})) == ["Global one"]
    store.load_rest()  # as the server does once the first answer is sent
    write_raw(root / "global" / "aaaa0002.md", memory_file("Global two", "Text"))
    write_raw(root / "workspaces" / "proj" / "cccc0001.md", memory_file("Changed in proj", "More"))
    assert titles(tools.call(session, "memory_list", {})) == ["Global one", "Global two"]
    assert [m.title for m in store.memories("proj")] == ["In proj"]


def test_a_save_sees_an_outside_edit_made_just_before_it_through_the_kernels_feed(root: Path) -> None:
    """The budget of a save trusts the chat's followed sets: an editor's in-place growth of
    another memory, saved a moment before the call, still takes the chat over and refuses it."""
    write_raw(root / "settings.yaml", "chat_max_tokens: 500\n")
    path = write_raw(root / "workspaces" / "proj" / "cccc0001.md", memory_file("Big", "x" * 1500))
    session = ChatSession(MemoryStore(root), "proj")
    assert titles(tools.call(session, "memory_list", {})) == ["Big"]  # following from here
    write_raw(path, memory_file("Big", "x" * 1900))  # in place, no store involved
    refused = tools.call(session, "memory_save", {"title": "More", "text": "z" * 200})
    assert refused.error
    assert refused.text.startswith("This change would bring the memory a chat in workspace proj receives")
    assert titles(tools.call(session, "memory_list", {})) == ["Big"]
    accepted = tools.call(session, "memory_save", {"title": "Less", "text": "z" * 20})
    assert not accepted.error, accepted.text
