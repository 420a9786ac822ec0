"""The details an agent meets: a memory over its limit turned on or off, a retried save of a
memory that is off, the real bound on the revisions held, a save to Global from a workspace's
chat, a query's length, and no ``--json`` for ``oda-tui mcp``."""

from __future__ import annotations

from pathlib import Path

import pytest

from oda_tui.mcp import tools
from oda_tui.mcp.revisions import SentRevisions
from oda_tui.mcp.session import ChatSession
from oda_tui.own_files.review_marks import pending_review
from store import GLOBAL, MemoryStore, Problem
from tests.support.cli import run_cli
from tests.support.files import memory_file, write_raw
from tests.support.mcp import MODES, connect, ok, refused

ID = "abcdef01"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.usefixtures("made_root")
async def test_a_memory_over_its_limit_turns_off_and_turning_it_on_names_the_length(
    root: Path, mode: str
) -> None:
    path = write_raw(root / "global" / f"{ID}.md", memory_file("Long", "x" * 2345))
    async with connect(root, mode=mode) as client:
        on = refused(await client.call_tool("memory_change", {"id": ID, "enabled": True}))
        off = ok(await client.call_tool("memory_change", {"id": ID, "enabled": False}))
    assert on == (
        "A memory is limited to 2000 characters; this one has 2345. Shorten it or split it into several memories."
    )
    assert (off["enabled"], off["changed"], off["title"]) == (False, True, "Long")
    assert (
        off["message"] == f'Turned off the memory "Long" (id {ID}): it is no longer sent, from the next step.'
    )
    assert "enabled: false" in path.read_text("utf-8")
    assert isinstance(MemoryStore(root).find(GLOBAL, ID), Problem)  # still over its limit


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.usefixtures("made_root")
async def test_saving_again_a_memory_that_is_off_says_it_is_off(
    root: Path, store: MemoryStore, mode: str
) -> None:
    off = store.create(GLOBAL, "Tea", "Green tea.", enabled=False)
    async with connect(root, mode=mode) as client:
        again = ok(await client.call_tool("memory_save", {"title": "Tea", "text": "Green tea."}))
    assert (again["saved"], again["id"], again["enabled"]) == (False, off.id, False)
    assert again["message"] == (
        f'The memory "Tea" (id {off.id}) was already saved in Global with this title and text, but it is '
        "off, so it is not sent; nothing new was saved. memory_change with enabled=true turns it on."
    )


def test_a_retried_save_finds_its_memory_among_others_of_the_same_title(root: Path) -> None:
    app = MemoryStore(root)
    app.create(GLOBAL, "Tea", "Green tea.")
    black = app.create(GLOBAL, "Tea", "Black tea.")
    session = ChatSession(MemoryStore(root), None)
    again = tools.call(session, "memory_save", {"title": "Tea", "text": "Black tea."}).data
    assert again is not None and (again["saved"], again["id"]) == (False, black.id)
    new = tools.call(session, "memory_save", {"title": "Tea", "text": "White tea."}).data
    assert new is not None and new["saved"] is True
    assert sorted(m.text for m in MemoryStore(root).memories(GLOBAL)) == [
        "Black tea.",
        "Green tea.",
        "White tea.",
    ]


def test_a_forgotten_revision_says_how_many_were_really_held(root: Path) -> None:
    app = MemoryStore(root)
    tea = app.create(GLOBAL, "Tea", "Green tea. " * 10)
    # Room for 64 revisions, but only for about one of this size: the characters bound it.
    session = ChatSession(MemoryStore(root), None, sent=SentRevisions(keep=64, keep_chars=200))
    oldest = tools.call(session, "memory_read", {}).data
    assert oldest is not None
    app.change(GLOBAL, tea.id, text="Black tea. " * 10)
    tools.call(session, "memory_read", {})
    forgotten = tools.call(session, "memory_read", {"since": oldest["revision"]}).data
    assert forgotten is not None and forgotten["kind"] == "full"
    assert forgotten["reason"] == (
        f'The revision "{oldest["revision"]}" is not one this server holds (it holds the last 1 it sent, '
        "at most 64 and at most 200 characters of memory in all, until it restarts), so this is the "
        "complete memory."
    )


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.usefixtures("made_root")
async def test_a_workspace_chat_saves_to_global_when_asked_and_the_person_reviews_it(
    root: Path, mode: str
) -> None:
    async with connect(root, "proj", mode=mode) as client:
        mine = ok(
            await client.call_tool("memory_save", {"title": "Me", "text": "Lisbon.", "scope": "global"})
        )
        here = ok(
            await client.call_tool("memory_save", {"title": "Stack", "text": "Django.", "scope": "proj"})
        )
        elsewhere = refused(
            await client.call_tool("memory_save", {"title": "X", "text": "y", "scope": "other"})
        )
    assert (mine["scope"], mine["source"]) == (None, "ai")
    assert (
        mine["message"]
        == f'Saved the memory "Me" (id {mine["id"]}) in Global. It applies from the next step.'
    )
    assert here["scope"] == "proj"
    assert elsewhere == (
        'The memory could not be changed: the scope "other" is not one this chat can save to; give '
        '"global" for Global or leave it out for workspace proj.'
    )
    store = MemoryStore(root)
    assert [m.title for m in store.memories(GLOBAL)] == ["Me"]
    assert sorted(i.memory.id for i in pending_review(store)) == sorted([mine["id"], here["id"]])


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.usefixtures("made_root")
async def test_a_chat_without_a_workspace_saves_only_to_global(root: Path, mode: str) -> None:
    async with connect(root, mode=mode) as client:
        tools_listed = {t.name: t for t in (await client.list_tools()).tools}
        assert "scope" in tools_listed["memory_save"].input_schema["properties"]
        message = refused(await client.call_tool("memory_save", {"title": "X", "text": "y", "scope": "proj"}))
    assert message == (
        'The memory could not be changed: the scope "proj" is not one this chat can save to; it has only "global".'
    )
    assert not (root / "workspaces").exists()


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.usefixtures("made_root")
async def test_a_query_has_a_length_limit_in_the_schema_and_in_the_answer(root: Path, mode: str) -> None:
    async with connect(root, mode=mode) as client:
        listing = {t.name: t for t in (await client.list_tools()).tools}["memory_list"]
        assert listing.input_schema["properties"]["query"]["maxLength"] == 2121
        message = refused(await client.call_tool("memory_list", {"query": "tea " * 600}))
    assert message == (
        'The memory could not be read: the argument "query" is limited to 2121 characters; this one has 2400.'
    )


def test_mcp_offers_no_json_option() -> None:
    shown = run_cli("mcp", "--help")
    assert shown.code == 0 and "--json" not in shown.out and "--root" in shown.out
    refused_run = run_cli("mcp", "--json")
    assert refused_run.code == 2 and "unrecognized arguments: --json" in refused_run.err
