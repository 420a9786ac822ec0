"""The floor of the MCP rows: an SDK server over stdio whose one tool returns a constant.

``python -m benchmarks.floor_server``. Started and called exactly as ``oda-tui mcp`` is, in
the same run, so each MCP figure is read as its excess over this one.
"""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server

TOOL = "constant"


def build() -> Server[Any]:
    """The server: one tool taking anything and answering ``ok``."""

    async def list_tools(
        _ctx: ServerRequestContext[Any], _params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        schema: dict[str, Any] = {"type": "object"}
        return types.ListToolsResult(tools=[types.Tool(name=TOOL, input_schema=schema)])

    async def call_tool(
        _ctx: ServerRequestContext[Any], _params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        return types.CallToolResult(content=[types.TextContent(type="text", text="ok")])

    return Server("floor", on_list_tools=list_tools, on_call_tool=call_tool)


async def serve() -> None:
    """Serve on stdin and stdout until the client closes stdin."""
    server = build()
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(serve)
