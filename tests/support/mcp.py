"""Helpers for the MCP server's tests: an in-process client, and what a tool call answered."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp import Client
from mcp_types import CallToolResult

from oda_tui.mcp.server import build_server

#: The two protocol eras the SDK serves: the 2025 handshake (Claude Desktop, Claude Code
#: today) and the 2026 per-request envelope.
MODES = ("legacy", "2026-07-28")


@asynccontextmanager
async def connect(
    root: Path, workspace: str | None = None, *, mode: str = "legacy", root_named: bool = True, **kw: Any
) -> AsyncIterator[Client]:
    """One MCP session with a fresh server on ``root`` (each connection is its own session)."""
    async with Client(build_server(root, workspace, root_named=root_named), mode=mode, **kw) as client:
        yield client


def text(result: CallToolResult) -> str:
    """The text a tool call answered (one text block)."""
    assert len(result.content) == 1
    block = result.content[0]
    assert block.type == "text"
    return block.text


def ok(result: CallToolResult) -> dict[str, Any]:
    """The JSON of a call that succeeded."""
    assert not result.is_error, text(result)
    assert result.structured_content is not None
    return result.structured_content


def refused(result: CallToolResult) -> str:
    """The sentence of a call that was refused (a tool error, not a protocol error)."""
    assert result.is_error, text(result)
    return text(result)
