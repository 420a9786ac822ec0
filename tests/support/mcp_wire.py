"""``oda-tui mcp`` as a subprocess spoken to in raw JSON-RPC lines: what no SDK client sends."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp import StdioServerParameters

#: Hang guards only (a stuck process fails the test instead of hanging it), never expectations.
HANG_GUARD_S = 120


def server_command(root: Path, *args: str) -> list[str]:
    """How the tests start ``oda-tui mcp`` on ``root`` (this checkout's code)."""
    return [sys.executable, "-m", "oda_tui", "mcp", "--root", str(root), *args]


def stdio_params(root: Path, *args: str) -> StdioServerParameters:
    """How the SDK's client starts ``oda-tui mcp`` on ``root`` (this checkout's code, the test's
    own state folder)."""
    env = {**os.environ, "ODA_TUI_STATE": str(root.parent / "state")}
    return StdioServerParameters(command=sys.executable, args=server_command(root, *args)[1:], env=env)


def invalid_request(request_id: object, message: str) -> dict[str, Any]:
    """The JSON-RPC answer to a request that is not a valid one (code -32600), saying ``message``."""
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": -32600, "message": message}}


class RawSession:
    """JSON-RPC lines written to ``oda-tui mcp`` by hand."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    async def send(self, line: str | bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write((line.encode("utf-8") if isinstance(line, str) else line) + b"\n")
        await self.process.stdin.drain()

    async def reply(self) -> Any:
        assert self.process.stdout is not None
        line = await asyncio.wait_for(self.process.stdout.readline(), HANG_GUARD_S)
        assert line, "the server closed its output"
        return json.loads(line)

    async def ask(self, message: Any) -> Any:
        """Send one message (any JSON) and return the next line's reply."""
        await self.send(json.dumps(message))
        return await self.reply()

    async def call(self, request_id: int, params: str | bytes) -> Any:
        """A tools/call whose params are written exactly as given."""
        head = f'{{"jsonrpc": "2.0", "id": {request_id}, "method": "tools/call", "params": '.encode()
        await self.send(head + (params.encode("utf-8") if isinstance(params, str) else params) + b"}")
        message = await self.reply()
        assert message["id"] == request_id
        return message

    async def initialize(self, version: str = "2025-06-18") -> Any:
        """The handshake, on ``version``; returns the server's answer."""
        hello = {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}
        answer = await self.ask({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello})
        await self.send('{"jsonrpc": "2.0", "method": "notifications/initialized"}')
        return answer


@asynccontextmanager
async def raw_server(root: Path, *args: str, stderr: int = subprocess.DEVNULL) -> AsyncIterator[RawSession]:
    """A fresh server on ``root``; it is closed (its stdin) and awaited at the end."""
    process = await asyncio.create_subprocess_exec(
        *server_command(root, *args),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=stderr,
        env={**os.environ, "ODA_TUI_STATE": str(root.parent / "state")},
    )
    try:
        yield RawSession(process)
    finally:
        if process.returncode is None:
            assert process.stdin is not None
            process.stdin.close()
            await asyncio.wait_for(process.wait(), HANG_GUARD_S)
