"""A client that writes JSON-RPC lines to a server's stdin and reads its answers from stdout.

It times the server's own round trip: the request written, the server answering, the answer
line parsed. The SDK's Python client also checks each structured answer against the tool's
``outputSchema`` with ``jsonschema`` before it returns (about 4 ms for a page of 100
memories on the benchmark's machine); that is the client's cost, so the MCP rows are measured
with both clients and the table shows each.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from types import TracebackType
from typing import Any, NamedTuple

#: The revision the raw client asks for (the SDK client's "legacy" mode asks for it too).
PROTOCOL = "2025-06-18"
#: Answers can be large (every memory of a chat): the reader's line limit.
LINE_LIMIT = 64 * 1024 * 1024


class RawResult(NamedTuple):
    """What a ``tools/call`` answered, under the names the SDK's result uses."""

    is_error: bool
    structured_content: dict[str, Any] | None
    content: Any


class RawClient:
    """One server process spoken to in JSON-RPC lines: ``python ARGS...``."""

    def __init__(self, args: list[str]) -> None:
        self._args = args
        self._process: asyncio.subprocess.Process | None = None
        self._next_id = 0

    async def __aenter__(self) -> RawClient:
        self._process = await asyncio.create_subprocess_exec(
            sys.executable,
            *self._args,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            limit=LINE_LIMIT,
        )
        info = {"name": "benchmarks.raw_client", "version": "1"}
        await self._ask("initialize", {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": info})
        await self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        process = self._process
        if process is None:
            return
        assert process.stdin is not None
        process.stdin.close()
        try:
            await asyncio.wait_for(process.wait(), 30)
        except TimeoutError:
            process.kill()
            await process.wait()

    async def _send(self, message: dict[str, Any]) -> None:
        assert self._process is not None and self._process.stdin is not None
        self._process.stdin.write(json.dumps(message).encode("utf-8") + b"\n")
        await self._process.stdin.drain()

    async def _ask(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send a request; its result (notifications the server sends meanwhile are skipped)."""
        assert self._process is not None and self._process.stdout is not None
        self._next_id += 1
        await self._send({"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params})
        while True:
            line = await self._process.stdout.readline()
            if not line:
                raise ConnectionError(f"the server ended before answering {method}")
            answer = json.loads(line)
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise ConnectionError(f"{method} answered an error: {answer['error']}")
                result: dict[str, Any] = answer["result"]
                return result

    async def schemas(self) -> dict[str, set[str]]:
        """Each tool's argument names."""
        tools = (await self._ask("tools/list", {}))["tools"]
        return {t["name"]: set(t.get("inputSchema", {}).get("properties", {})) for t in tools}

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> RawResult:
        """One ``tools/call``."""
        result = await self._ask("tools/call", {"name": name, "arguments": arguments})
        return RawResult(bool(result.get("isError")), result.get("structuredContent"), result.get("content"))
