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

from store import Limits, MemoryStore

from ..version import version
from . import tools
from .answers import ToolResult, to_json
from .arguments import ToolSpec
from .messages import COULD_NOT_READ
from .resource import MIME_TYPE, Subscribers, resource_text, resource_uri, watch_memory
from .revisions import SentRevisions
from .session import ChatSession, RootProblem

NAME = "oda-tui"
#: JSON-RPC "resource not found" (the MCP spec's code).
RESOURCE_NOT_FOUND = -32002

INSTRUCTIONS = (
    "Memories are short notes kept for future chats, in files the person manages in oda-tui. "
    "At the start of each conversation, and after your context was compacted, call memory_read "
    "for the complete memory; each answer carries a revision. Later, memory_read(since=REV) "
    "returns what changed since revision REV (or says nothing did): pass the last revision you "
    "received before relying on the memory again. "
    "memory_list gives the ids (query searches titles and texts), memory_get one memory whole; "
    "memory_save saves a new memory, memory_change changes one (its title, its text, one "
    "passage, or on/off) and memory_delete deletes one. Every memory in an answer carries its "
    "version: a whole new text and a deletion name the version you read, and a memory changed "
    "since is not changed (the answer holds it as it is now). Each write answers a revision: "
    "pass it as since to memory_read. Save only what matters in future "
    "chats, and never secrets. The person reviews every change you make in oda-tui and can "
    "undo it."
)


@dataclass
class Served:
    """One connection's state: its chat session, its 2025-era subscribers, and its watch of
    the folder, started by the first request that reads the memory resource or watches it.
    A tool call needs no watch (each call reads the kernel's feed of changes to the chat's
    sets), so a client that only calls tools never pays for one."""

    session: ChatSession
    start_watch: Callable[[anyio.Event], object]
    start_rest: Callable[[], object]
    subscribers: Subscribers = field(default_factory=Subscribers)
    _ready: anyio.Event | None = None
    _rest_started: bool = False

    async def watching(self) -> None:
        """Return once no change to the folder can go unnoticed (the watch in place, the chat's
        own sets loaded). Not before the handshake: loading them would delay its answer."""
        if self._ready is None:
            self._ready = anyio.Event()
            self.start_watch(self._ready)
        await self._ready.wait()

    def answered(self) -> None:
        """A first answer is on its way: load the sets the chat does not receive, in the
        background (once), so a later change need not wait for them."""
        if not self._rest_started:
            self._rest_started = True
            self.start_rest()


def _tool(spec: ToolSpec, limits: Limits) -> types.Tool:
    return types.Tool(
        name=spec.name,
        title=spec.title,
        description=spec.describe(limits),
        input_schema=spec.input_schema(limits),
        output_schema=spec.output_schema,
        annotations=types.ToolAnnotations(
            title=spec.title,
            read_only_hint=spec.read_only,
            destructive_hint=spec.destructive,
            idempotent_hint=spec.idempotent,
            open_world_hint=False,
        ),
    )


def _result(outcome: ToolResult) -> types.CallToolResult:
    if outcome.data is None:
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=outcome.text)], is_error=outcome.error
        )
    data = outcome.data
    body = outcome.body if outcome.body is not None else to_json(data)
    if outcome.text not in (data.get("message"), data.get("text"), body):
        data = {**data, "message": outcome.text}  # the sentence too (an empty memory's, say)
        body = to_json(data)
    # The JSON is also the text block, for clients that show only the content.
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=body)], structured_content=data, is_error=outcome.error
    )


def _limits(session: ChatSession) -> Limits:
    """The limits in force now (the defaults while the folder cannot be read); listing the
    tools does not wait for the store to load."""
    try:
        return session.store.limits_in_settings()
    except OSError:
        return Limits()


class _Handlers:
    """The server's request handlers for one store and one chat: its resource's address, the
    subscription bus and the revisions every connection shares."""

    def __init__(self, root: Path | str, workspace: str | None, *, root_named: bool) -> None:
        self.root = root
        self.workspace = workspace
        self.root_named = root_named
        self.uri = resource_uri(workspace)
        self.bus = InMemorySubscriptionBus()
        self.sent = SentRevisions()  # one for every connection: any of them may be asked for a revision

    def new_session(self) -> ChatSession:
        """A connection's chat session."""
        return ChatSession(MemoryStore(self.root), self.workspace, root_named=self.root_named, sent=self.sent)

    @asynccontextmanager
    async def lifespan(self, _server: Server[Served]) -> AsyncIterator[Served]:
        """One connection: its session, and its watch once a request needs it."""

        async def announce() -> None:
            await self.bus.publish(ResourceUpdated(uri=self.uri))
            await served.subscribers.tell_all()

        async with anyio.create_task_group() as group:
            session = self.new_session()
            served = Served(
                session,
                lambda ready: group.start_soon(watch_memory, session, announce, ready),
                lambda: group.start_soon(_load_rest, session),
            )
            try:
                yield served
            finally:
                group.cancel_scope.cancel()
                served.session.close()

    async def list_tools(
        self, ctx: ServerRequestContext[Served], _params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        limits = await anyio.to_thread.run_sync(_limits, ctx.lifespan_context.session)
        return types.ListToolsResult(tools=[_tool(spec, limits) for spec in tools.SPECS])

    async def call_tool(
        self, ctx: ServerRequestContext[Served], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        session = ctx.lifespan_context.session
        outcome = await anyio.to_thread.run_sync(tools.call, session, params.name, params.arguments)
        ctx.lifespan_context.answered()
        return _result(outcome)

    def _resource(self) -> types.Resource:
        label = "Global" if self.workspace is None else f"workspace {self.workspace}"
        return types.Resource(
            name="memory",
            title=f"Oda memory ({label})",
            uri=self.uri,
            description="Exactly the memory a chat here receives; it changes when a memory file does.",
            mime_type=MIME_TYPE,
        )

    async def list_resources(
        self, _ctx: ServerRequestContext[Served], _params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[self._resource()])

    async def list_templates(
        self, _ctx: ServerRequestContext[Served], _params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        # None: the one resource has a fixed address (asked anyway by clients that list all).
        return types.ListResourceTemplatesResult(resource_templates=[])

    def _check_uri(self, asked: str) -> None:
        if asked != self.uri:
            raise MCPError(
                RESOURCE_NOT_FOUND, f"There is no resource {asked!r}; this chat's memory is {self.uri}."
            )

    async def read_resource(
        self, ctx: ServerRequestContext[Served], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        self._check_uri(str(params.uri))
        await ctx.lifespan_context.watching()
        try:
            text = await anyio.to_thread.run_sync(resource_text, ctx.lifespan_context.session)
        except (RootProblem, OSError) as exc:
            reason = str(exc) if isinstance(exc, RootProblem) else exc.strerror or str(exc)
            raise MCPError(types.INVALID_PARAMS, COULD_NOT_READ.format(reason=reason)) from exc
        contents: list[types.TextResourceContents | types.BlobResourceContents] = [
            types.TextResourceContents(uri=self.uri, mime_type=MIME_TYPE, text=text)
        ]
        ctx.lifespan_context.answered()
        return types.ReadResourceResult(contents=contents)

    async def subscribe(
        self, ctx: ServerRequestContext[Served], params: types.SubscribeRequestParams
    ) -> types.EmptyResult:
        self._check_uri(str(params.uri))
        await ctx.lifespan_context.watching()
        client = ctx.session  # its connection-wide channel carries the later notification
        ctx.lifespan_context.subscribers.add(self.uri, _notifier(client.send_resource_updated, self.uri))
        return types.EmptyResult()

    async def unsubscribe(
        self, ctx: ServerRequestContext[Served], params: types.UnsubscribeRequestParams
    ) -> types.EmptyResult:
        self._check_uri(str(params.uri))
        ctx.lifespan_context.subscribers.remove(self.uri)
        return types.EmptyResult()


def build_server(
    root: Path | str, workspace: str | None = None, *, root_named: bool = True
) -> Server[Served]:
    """The server for the store at ``root``, as a chat in ``workspace`` (None: Global only).

    ``root_named``: the folder was named by the person (``--root``, ``$ODA_HOME``), so it must
    exist; Oda's default folder may not yet, and the first save creates it.
    """
    handlers = _Handlers(root, workspace, root_named=root_named)
    return Server(
        NAME,
        version=version(),
        title="Oda memory",
        instructions=INSTRUCTIONS,
        lifespan=handlers.lifespan,
        # Every answer reflects the disk now: nothing may be served from a client's cache.
        cache_hints={"resources/read": CacheHint(ttl_ms=0), "resources/list": CacheHint(ttl_ms=0)},
        on_list_tools=handlers.list_tools,
        on_call_tool=handlers.call_tool,
        on_list_resources=handlers.list_resources,
        on_list_resource_templates=handlers.list_templates,
        on_read_resource=handlers.read_resource,
        on_subscribe_resource=handlers.subscribe,
        on_unsubscribe_resource=handlers.unsubscribe,
        on_subscriptions_listen=_when_ready(ListenHandler(handlers.bus)),
    )


def _when_ready(listen: ListenHandler) -> Callable[..., Any]:
    """``listen`` once the watch is in place (a change before that would go untold)."""

    async def handle(
        ctx: ServerRequestContext[Served], params: types.SubscriptionsListenRequestParams
    ) -> types.SubscriptionsListenResult:
        await ctx.lifespan_context.watching()
        return await listen(ctx, params)

    return handle


#: Seconds the rest of the store waits after a first answer: long enough for the answer to be
#: written out before the load takes the interpreter and the picture's lock.
REST_DELAY_S = 0.02


async def _load_rest(session: ChatSession) -> None:
    await anyio.sleep(REST_DELAY_S)
    await anyio.to_thread.run_sync(session.load_rest)


def _notifier(send: Callable[[str], Any], uri: str) -> Callable[[], Any]:
    async def notify() -> None:
        await send(uri)

    return notify
