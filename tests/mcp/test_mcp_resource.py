"""The chat's memory as an MCP resource, and ``resources/updated`` when a memory file changes."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp.shared.exceptions import MCPError
from mcp.shared.subscriptions import ResourceUpdated

from store import GLOBAL, MemoryStore
from tests.support.mcp import MODES, connect, ok

#: A hang guard only: the watch reports within milliseconds, this is never the expectation.
HANG_GUARD_S = 60

pytestmark = pytest.mark.usefixtures("made_root")


def body(result: types.ReadResourceResult) -> str:
    [contents] = result.contents
    assert isinstance(contents, types.TextResourceContents)
    assert contents.mime_type == "text/markdown"
    return contents.text


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("workspace", "uri"), [(None, "oda://memory/global"), ("proj", "oda://memory/workspaces/proj")]
)
async def test_the_resource_is_exactly_what_the_chat_receives(
    root: Path, store: MemoryStore, mode: str, workspace: str | None, uri: str
) -> None:
    store.create(GLOBAL, "Tea", "Green tea.")
    store.create("proj", "Stack", "Django.")
    store.create("other", "Elsewhere", "Not this chat's.")
    async with connect(root, workspace, mode=mode) as client:
        [resource] = (await client.list_resources()).resources
        assert str(resource.uri) == uri
        assert body(await client.read_resource(uri)) == store.chat_memory(workspace).text
        with pytest.raises(MCPError, match="There is no resource"):
            await client.read_resource("oda://memory/workspaces/other")
        # A failed read does not end the session.
        assert ok(await client.call_tool("memory_list", {}))["chat"]["workspace"] == workspace


async def test_a_2025_subscriber_hears_of_an_outside_edit(root: Path) -> None:
    app = MemoryStore(root)
    tea = app.create(GLOBAL, "Tea", "Green tea.")
    heard: list[str] = []
    arrived = anyio.Event()

    async def on_message(message: Any) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            heard.append(str(message.params.uri))
            arrived.set()

    async with connect(root, mode="legacy", message_handler=on_message) as client:
        resources = client.server_capabilities.resources
        assert resources is not None and resources.subscribe is True
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # resources/subscribe is the 2025 way, still what clients use
            await client.subscribe_resource("oda://memory/global")
        app.change(GLOBAL, tea.id, text="Black tea.")  # the app (or vim) edits the file
        with anyio.fail_after(HANG_GUARD_S):
            await arrived.wait()
        assert set(heard) == {"oda://memory/global"}
        assert "Black tea." in body(await client.read_resource("oda://memory/global"))


async def test_a_2026_listener_hears_of_the_agents_own_save_and_an_outside_edit(root: Path) -> None:
    app = MemoryStore(root)
    uri = "oda://memory/workspaces/proj"
    async with connect(root, "proj", mode="2026-07-28") as client:
        async with client.listen(resource_subscriptions=[uri]) as events:
            saved = ok(await client.call_tool("memory_save", {"title": "Stack", "text": "Django."}))
            with anyio.fail_after(HANG_GUARD_S):
                event = await events.__anext__()
            assert isinstance(event, ResourceUpdated) and event.uri == uri
            app.refresh()
            app.change("proj", saved["id"], text="Django 5.")
            with anyio.fail_after(HANG_GUARD_S):
                while "Django 5." not in body(await client.read_resource(uri)):
                    await events.__anext__()
