"""Helpers for the MCP server's tests: an in-process client, and what a tool call answered."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, cast

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


def block(result: CallToolResult) -> str:
    """The one text block a tool call answered."""
    assert len(result.content) == 1
    content = result.content[0]
    assert content.type == "text"
    return content.text


def text(result: CallToolResult) -> str:
    """What the model reads first: a refusal's sentence, else the answer's ``message`` (what
    was done) or ``text`` (a memory, or memory_read's), else the whole JSON."""
    if result.is_error:
        return block(result)
    data = ok(result)
    found = data.get("message", data.get("text"))
    return found if isinstance(found, str) else block(result)


def ok(result: CallToolResult) -> dict[str, Any]:
    """The JSON of a call that succeeded (its text block is the same JSON)."""
    assert not result.is_error, block(result)
    assert result.structured_content is not None
    assert json.loads(block(result)) == result.structured_content
    return cast(dict[str, Any], result.structured_content)  # the SDK types it Any


def refused(result: CallToolResult) -> str:
    """The sentence of a call that was refused (a tool error, not a protocol error)."""
    assert result.is_error, block(result)
    assert result.structured_content is None
    return block(result)


def refused_with_memory(result: CallToolResult) -> dict[str, Any]:
    """The JSON of a call refused with the memory as it is now (changed since it was read): an
    error whose text block is the same JSON as its structured content."""
    assert result.is_error, block(result)
    assert result.structured_content is not None, block(result)
    assert json.loads(block(result)) == result.structured_content
    return cast(dict[str, Any], result.structured_content)
