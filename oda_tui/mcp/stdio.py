"""Serving over stdin and stdout, with an answer for every line the SDK cannot read.

Lines the SDK reads go to the server as they are. One it cannot read is triaged
(``wire.triage``): a tool call holding a lone surrogate still reaches the tool (which refuses
it in the spec's form), a broken or foreign line gets a JSON-RPC error instead of silence, and
a batch (a JSON array) is answered item by item, as one array, on the protocol versions that
have batches (2024-11-05, 2025-03-26) and refused on later ones. Bytes that are not UTF-8 are
kept visible (as lone surrogates) instead of being replaced with U+FFFD in silence.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, cast

import anyio
import anyio.abc
import mcp_types as types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.server import Server
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from pydantic import RootModel

from .wire import (
    EMPTY_BATCH,
    INVALID_REQUEST,
    Batch,
    Forward,
    Reply,
    batch_refusal,
    error,
    triage,
    triage_item,
)


class _Lines:
    """The lines of stdin as the SDK reads them, remembering the one it is reading now."""

    def __init__(self) -> None:
        # Our own descriptor and decoder: bytes that are not UTF-8 stay visible (as lone
        # surrogates) instead of turning into U+FFFD.
        self._file = anyio.wrap_file(
            os.fdopen(os.dup(0), "r", encoding="utf-8", errors="surrogateescape", newline="\n")
        )
        self.current = ""

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        try:
            async for line in self._file:
                self.current = line
                yield line
        finally:
            await self._file.aclose()


class _Raw(RootModel[Any]):
    """A reply written exactly as built (an error echoing an id the SDK's types refuse, or a
    batch's array): the SDK's writer only calls ``model_dump_json`` on it."""


def _raw(payload: Any) -> SessionMessage:
    return SessionMessage(cast(types.JSONRPCMessage, _Raw(payload)))


#: How long answers still being worked on (or not yet written) are waited for once stdin has closed.
ANSWER_AFTER_EOF_S = 30.0


class _Pending:
    """The ids of requests handed to the server and not yet answered, so that stdin closing
    right after a call (``printf ... | oda-tui mcp``) still gets every answer written."""

    def __init__(self) -> None:
        self._ids: set[Any] = set()
        self._settled = anyio.Event()
        self._settled.set()

    def add(self, message: types.JSONRPCMessage) -> None:
        """Note a request on its way to the server; a cancellation settles the one it names."""
        if isinstance(message, types.JSONRPCRequest):
            self._ids.add(message.id)
            self._settled = anyio.Event()
        elif isinstance(message, types.JSONRPCNotification) and message.method == "notifications/cancelled":
            params = message.params if isinstance(message.params, dict) else {}
            self.answered(params.get("requestId"))

    def answered(self, request_id: Any) -> None:
        """The server answered ``request_id`` (or it was cancelled)."""
        self._ids.discard(request_id)
        if not self._ids:
            self._settled.set()

    async def settled(self, within_s: float) -> None:
        """Wait until every request has its answer, for at most ``within_s`` seconds."""
        with anyio.move_on_after(within_s):
            await self._settled.wait()


class _Replies:
    """The server's replies on their way out: a batch's are held and sent as one array, and
    the protocol version the client and server agreed on is noted from ``initialize``."""

    def __init__(self, out: MemoryObjectSendStream[SessionMessage], pending: _Pending) -> None:
        self.out = out
        self.pending = pending
        self.version: str | None = None
        self._batches: list[tuple[set[Any], list[Any]]] = []  # ids still waited for, replies so far

    def hold(self, ids: set[Any], ready: list[Any]) -> bool:
        """Collect the replies to ``ids`` with ``ready`` (False: nothing to wait for)."""
        if not ids:
            return False
        self._batches.append((ids, ready))
        return True

    async def send(self, item: SessionMessage) -> None:
        message = item.message
        if isinstance(message, types.JSONRPCResponse) and isinstance(message.result, dict):
            version = message.result.get("protocolVersion")
            if isinstance(version, str):
                self.version = version
        if not isinstance(message, types.JSONRPCResponse | types.JSONRPCError):
            await self.out.send(item)
            return
        try:
            for waiting, replies in self._batches:
                if message.id in waiting:
                    waiting.discard(message.id)
                    replies.append(message.model_dump(by_alias=True, exclude_unset=True, mode="json"))
                    if not waiting:
                        self._batches.remove((waiting, replies))
                        await self.out.send(_raw(replies))
                    return
            await self.out.send(item)
        finally:
            self.pending.answered(message.id)  # handed to the writer (or it cannot be)


def _misread_request(item: SessionMessage, line: str) -> bool:
    """A request the SDK took for a notification: its id is not one it knows (``5.5``)."""
    return isinstance(item.message, types.JSONRPCNotification) and '"id"' in line


class _Relay:
    """Moves what the SDK read from stdin to the server, answering what it could not read."""

    def __init__(
        self,
        lines: _Lines,
        inbound: MemoryObjectSendStream[SessionMessage | Exception],
        write: MemoryObjectSendStream[SessionMessage],
        replies: _Replies,
    ) -> None:
        self.lines = lines
        self.inbound = inbound
        self.write = write
        self.replies = replies

    async def run(self, sdk_read: MemoryObjectReceiveStream[SessionMessage | Exception]) -> None:
        """Until stdin ends: each message on to the server, or its answer back."""
        async with self.inbound, sdk_read:
            async for item in sdk_read:
                # Read before any await: the SDK reads its next line only after this one.
                line = self.lines.current
                if isinstance(item, Exception):
                    await self._unread(line)
                    continue
                bad_id = triage(line) if _misread_request(item, line) else None
                if isinstance(bad_id, Reply):
                    await self.write.send(_raw(bad_id.payload))
                else:
                    await self._forward(item)
            # stdin ended: the server stops once its inbound closes, so answer what it holds first.
            await self.replies.pending.settled(ANSWER_AFTER_EOF_S)

    async def _forward(self, item: SessionMessage) -> None:
        self.replies.pending.add(item.message)
        await self.inbound.send(item)

    async def _unread(self, line: str) -> None:
        """A line the SDK could not read: on to the server after all, answered, or a batch."""
        found = triage(line)
        if isinstance(found, Forward):
            await self._forward(SessionMessage(found.message))
        elif isinstance(found, Reply):
            await self.write.send(_raw(found.payload))
        elif isinstance(found, Batch):
            await self._batch(found.items)

    async def _batch(self, items: list[Any]) -> None:
        """Answered as one array where the agreed version has batches, else refused."""
        refusal = batch_refusal(self.replies.version)
        if refusal is not None or not items:
            await self.write.send(_raw(refusal or error(None, INVALID_REQUEST, EMPTY_BATCH)))
            return
        ready: list[Any] = []
        forward: list[types.JSONRPCMessage] = []
        for item in items:
            found = triage_item(item)
            if isinstance(found, Reply):
                ready.append(found.payload)
            elif isinstance(found, Forward):
                forward.append(found.message)
        ids = {m.id for m in forward if isinstance(m, types.JSONRPCRequest)}
        if not self.replies.hold(ids, ready) and ready:
            await self.write.send(_raw(ready))
        for message in forward:
            await self._forward(SessionMessage(message))


async def serve_stdio(server: Server[Any]) -> None:
    """Serve ``server`` on stdin and stdout until the client closes stdin."""
    lines = _Lines()
    async with stdio_server(stdin=lines) as (sdk_read, write):  # type: ignore[arg-type]
        inbound_send, inbound = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        outbound, outbound_read = anyio.create_memory_object_stream[SessionMessage](0)
        replies = _Replies(write, _Pending())
        relay = _Relay(lines, inbound_send, write, replies)

        async def pass_on() -> None:
            async with outbound_read, write:
                async for item in outbound_read:
                    await replies.send(item)

        async with anyio.create_task_group() as group:
            group.start_soon(relay.run, sdk_read)
            passing = _Task(group, pass_on)
            async with outbound:  # closed once the server is done: what it answered still goes out
                await server.run(inbound, outbound, server.create_initialization_options())
            with anyio.move_on_after(ANSWER_AFTER_EOF_S):  # a client that stopped reading: not forever
                await passing.done.wait()
            group.cancel_scope.cancel()  # the relay, when the server ended with stdin still open


class _Task:
    """A task of ``group`` whose end can be waited for."""

    def __init__(self, group: anyio.abc.TaskGroup, run: Callable[[], Awaitable[None]]) -> None:
        self.done = anyio.Event()

        async def running() -> None:
            try:
                await run()
            finally:
                self.done.set()

        group.start_soon(running)
