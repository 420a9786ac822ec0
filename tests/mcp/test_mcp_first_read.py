"""A server's first answer needs only the chat's own sets: Global and its workspace are read,
no other workspace is opened or looked at before it; the rest loads afterwards, and a change
right after the start still sees every chat it reaches as it is now."""

from __future__ import annotations

from pathlib import Path

import pytest

from oda_tui.mcp import tools
from oda_tui.mcp.session import ChatSession
from store import MemoryStore
from tests.support.files import memory_file, started_store, write_raw
from tests.support.mcp import connect, ok, refused
from tests.support.opened import Opened

OTHERS = [f"ws-{i:02d}" for i in range(12)]


def many_workspaces(root: Path) -> None:
    """Global, the chat's workspace ``proj``, and a dozen others, with their parse index."""
    write_raw(root / "global" / "aaaa0001.md", memory_file("Tea", "Green tea."))
    write_raw(root / "workspaces" / "proj" / "cccc0001.md", memory_file("Stack", "Django."))
    for n, key in enumerate(OTHERS):
        for m in range(3):
            write_raw(
                root / "workspaces" / key / f"b{n:03d}{m:04d}.md", memory_file(f"Far {n} {m}", "Elsewhere.")
            )
    started_store(root)


async def test_the_first_memory_read_opens_no_file_of_another_workspace(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    many_workspaces(root)
    rest: list[ChatSession] = []
    monkeypatch.setattr(ChatSession, "load_rest", lambda s: rest.append(s), raising=False)  # held back
    opened = Opened()
    opened.watch(monkeypatch)
    async with connect(root, "proj") as client:
        answer = ok(await client.call_tool("memory_read", {}))
        touched = [p for key in OTHERS for p in opened.under(root.resolve() / "workspaces" / key)]
    assert "Green tea." in answer["text"] and "Django." in answer["text"]
    assert "Elsewhere" not in answer["text"]
    assert opened.under(root.resolve() / "workspaces" / "proj")  # (the hook does see the chat's own)
    assert touched == []


def test_memory_get_and_list_first_open_no_file_of_another_workspace(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    many_workspaces(root)
    opened = Opened()
    opened.watch(monkeypatch)
    session = ChatSession(MemoryStore(root), "proj")
    listed = tools.call(session, "memory_list", {})
    assert not listed.error and listed.data is not None
    assert [m["title"] for m in listed.data["memories"]] == ["Tea", "Stack"]
    got = tools.call(session, "memory_get", {"id": "cccc0001"})
    assert not got.error and got.text == "Django."
    assert [p for key in OTHERS for p in opened.under(root.resolve() / "workspaces" / key)] == []


@pytest.mark.parametrize("workspace", [None, "proj"])
async def test_a_global_save_right_after_start_is_refused_over_another_workspaces_budget(
    root: Path, workspace: str | None
) -> None:
    """The chat loaded only its own sets; the save reaches every workspace's chat, and one of
    them, grown by an editor after the start, would go over: refused, naming it."""
    many_workspaces(root)
    write_raw(root / "settings.yaml", "chat_max_tokens: 500\n")
    big = write_raw(root / "workspaces" / "ws-07" / "dddd0001.md", memory_file("Big", "x" * 1000))
    async with connect(root, workspace) as client:
        ok(await client.call_tool("memory_read", {}))
        write_raw(big, memory_file("Big", "x" * 1850))  # in place, no store involved
        answer = refused(
            await client.call_tool("memory_save", {"title": "More", "text": "z" * 200, "scope": "global"})
        )
        assert answer.startswith("This change would bring the memory a chat in workspace ws-07 receives")
        ok(await client.call_tool("memory_save", {"title": "Less", "text": "z" * 10, "scope": "global"}))
    assert [m.title for m in MemoryStore(root).memories(None)] == ["Tea", "Less"]
