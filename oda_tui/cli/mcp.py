"""``oda-tui mcp``: the MCP server's command, whose code lives in ``oda_tui.mcp`` (an optional extra)."""

from __future__ import annotations

from ..mcp.command import HELP, NAME, add_arguments, run

__all__ = ["HELP", "NAME", "add_arguments", "run"]
