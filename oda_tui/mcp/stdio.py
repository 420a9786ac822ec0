"""Serving over stdin and stdout, with an answer for every line the SDK cannot read.

The SDK's stdio transport drops a line it cannot parse without a reply, so a client that sent
a lone surrogate (``"\\ud800"``, which JSON allows and UTF-8 cannot hold) or a broken line would
wait for ever. Here such a line gets a JSON-RPC error naming the problem; nothing is done. Bytes
that are not UTF-8 are refused the same way instead of being replaced with U+FFFD in silence.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import AsyncIterator
from typing import Any

import anyio
import mcp_types as types
from mcp.server import Server
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
_SURROGATE = re.compile("[\ud800-\udfff]")

NOT_JSON = "The line is not a JSON-RPC message: {reason}"
NOT_TEXT = (
    "The request holds a lone surrogate (U+{code:04X}) or bytes that are not UTF-8, which are "
    "not valid text; nothing was done."
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


def answer_for(line: str) -> types.JSONRPCError | None:
    """The error reply for a line the SDK could not parse (None: nothing to answer)."""
    if not line.strip():
        return None
    try:
        message = json.loads(line.strip())
    except (ValueError, RecursionError) as exc:
        return types.JSONRPCError(
            jsonrpc="2.0",
            id=None,
            error=types.ErrorData(code=PARSE_ERROR, message=NOT_JSON.format(reason=exc)),
        )
    request_id = message.get("id") if isinstance(message, dict) else None
    if not isinstance(request_id, str | int) or isinstance(request_id, bool):
        return None  # a notification (or a reply): JSON-RPC sends nothing back
    found = _SURROGATE.search(line) or _SURROGATE.search(json.dumps(message, ensure_ascii=False))
    if found is not None:
        text = NOT_TEXT.format(code=ord(found.group()))
        return types.JSONRPCError(
            jsonrpc="2.0", id=request_id, error=types.ErrorData(code=INVALID_REQUEST, message=text)
        )
    return None  # the SDK answers other malformed requests itself


async def serve_stdio(server: Server[Any]) -> None:
    """Serve ``server`` on stdin and stdout until the client closes stdin."""
    lines = _Lines()
    async with stdio_server(stdin=lines) as (sdk_read, write):  # type: ignore[arg-type]
        inbound_send, inbound = anyio.create_memory_object_stream[SessionMessage | Exception](0)

        async def relay() -> None:
            async with inbound_send, sdk_read:
                async for item in sdk_read:
                    if isinstance(item, Exception):
                        # Read before any await: the SDK reads its next line only after this one.
                        reply = answer_for(lines.current)
                        if reply is not None:
                            await write.send(SessionMessage(reply))
                            continue
                    await inbound_send.send(item)

        async with anyio.create_task_group() as group:
            group.start_soon(relay)
            await server.run(inbound, write, server.create_initialization_options())
            group.cancel_scope.cancel()
