"""The MCP server: the four tools and the memory resource on the SDK's low-level ``Server``.

``build_server`` makes a server for one store and one chat (a workspace, or Global only). Each
connection it serves is one MCP session with its own ``ChatSession`` (its id, its memory_read
state) and its own watch of the folder, made by the server's lifespan.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.caching import CacheHint
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ResourceUpdated
from mcp.shared.exceptions import MCPError

from store import MemoryStore

from ..version import version
from . import tools
from .arguments import ToolSpec
from .resource import MIME_TYPE, Subscribers, resource_text, resource_uri, watch_memory
from .session import ChatSession, RootProblem

NAME = "oda-tui"
#: JSON-RPC "resource not found" (the MCP spec's code).
RESOURCE_NOT_FOUND = -32002

INSTRUCTIONS = (
    "Memories are short notes kept for future chats, in files the person manages in oda-tui. "
    "Call memory_read with full=true at the start of each conversation for the complete memory, "
    "and without it later for what changed. "
    "Use memory_list for the ids, memory_save for a new memory and memory_change to change one. "
    "Never save secrets. The person sees, reviews and can undo what you save or change."
)


@dataclass
class Served:
    """One connection's state: its chat session and its 2025-era subscribers."""

    session: ChatSession
    subscribers: Subscribers = field(default_factory=Subscribers)


def _tool(spec: ToolSpec) -> types.Tool:
    return types.Tool(
        name=spec.name,
        description=spec.description,
        input_schema=spec.input_schema(),
        annotations=types.ToolAnnotations(
            read_only_hint=spec.read_only,
            destructive_hint=False,
            idempotent_hint=spec.idempotent,
            open_world_hint=False,
        ),
    )


def _result(outcome: tools.ToolResult) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=outcome.text)],
        structured_content=outcome.data,
        is_error=outcome.error,
    )


def build_server(
    root: Path | str, workspace: str | None = None, *, root_named: bool = True
) -> Server[Served]:
    """The server for the store at ``root``, as a chat in ``workspace`` (None: Global only).

    ``root_named``: the folder was named by the person (``--root``, ``$ODA_HOME``), so it must
    exist; Oda's default folder may not yet, and the first save creates it.
    """
    uri = resource_uri(workspace)
    bus = InMemorySubscriptionBus()

    def new_session() -> ChatSession:
        return ChatSession(MemoryStore(root), workspace, root_named=root_named)

    @asynccontextmanager
    async def lifespan(_server: Server[Served]) -> AsyncIterator[Served]:
        served = Served(new_session())

        async def announce() -> None:
            await bus.publish(ResourceUpdated(uri=uri))
            await served.subscribers.tell_all()

        async with anyio.create_task_group() as group:
            ready = anyio.Event()
            group.start_soon(watch_memory, served.session, announce, ready)
            await ready.wait()  # serve once no change to the folder can go unnoticed
            try:
                yield served
            finally:
                group.cancel_scope.cancel()

    async def list_tools(
        _ctx: ServerRequestContext[Served], _params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[_tool(spec) for spec in tools.SPECS])

    async def call_tool(
        ctx: ServerRequestContext[Served], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        session = ctx.lifespan_context.session
        outcome = await anyio.to_thread.run_sync(tools.call, session, params.name, params.arguments)
        return _result(outcome)

    def _resource() -> types.Resource:
        label = "Global" if workspace is None else f"workspace {workspace}"
        return types.Resource(
            name="memory",
            title=f"Oda memory ({label})",
            uri=uri,
            description="Exactly the memory a chat here receives; it changes when a memory file does.",
            mime_type=MIME_TYPE,
        )

    async def list_resources(
        _ctx: ServerRequestContext[Served], _params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[_resource()])

    def _check_uri(asked: str) -> None:
        if asked != uri:
            raise MCPError(
                RESOURCE_NOT_FOUND, f"There is no resource {asked!r}; this chat's memory is {uri}."
            )

    async def read_resource(
        ctx: ServerRequestContext[Served], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        _check_uri(str(params.uri))
        try:
            text = await anyio.to_thread.run_sync(resource_text, ctx.lifespan_context.session)
        except (RootProblem, OSError) as exc:
            raise MCPError(types.INVALID_PARAMS, str(exc)) from exc
        contents: list[types.TextResourceContents | types.BlobResourceContents] = [
            types.TextResourceContents(uri=uri, mime_type=MIME_TYPE, text=text)
        ]
        return types.ReadResourceResult(contents=contents)

    async def subscribe(
        ctx: ServerRequestContext[Served], params: types.SubscribeRequestParams
    ) -> types.EmptyResult:
        _check_uri(str(params.uri))
        client = ctx.session  # its connection-wide channel carries the later notification
        ctx.lifespan_context.subscribers.add(uri, _notifier(client.send_resource_updated, uri))
        return types.EmptyResult()

    async def unsubscribe(
        ctx: ServerRequestContext[Served], params: types.UnsubscribeRequestParams
    ) -> types.EmptyResult:
        _check_uri(str(params.uri))
        ctx.lifespan_context.subscribers.remove(uri)
        return types.EmptyResult()

    return Server(
        NAME,
        version=version(),
        title="Oda memory",
        instructions=INSTRUCTIONS,
        lifespan=lifespan,
        # Every answer reflects the disk now: nothing may be served from a client's cache.
        cache_hints={"resources/read": CacheHint(ttl_ms=0), "resources/list": CacheHint(ttl_ms=0)},
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
        on_subscribe_resource=subscribe,
        on_unsubscribe_resource=unsubscribe,
        on_subscriptions_listen=ListenHandler(bus),
    )


def _notifier(send: Callable[[str], Any], uri: str) -> Callable[[], Any]:
    async def notify() -> None:
        await send(uri)

    return notify
