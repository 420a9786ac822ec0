"""``oda-tui mcp``: serve the memory tools to an MCP client over stdin and stdout.

The ``mcp`` SDK is imported only when the command runs, so the other commands and the app do
not need the extra.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys

from ..cli.errors import CommandError
from ..config.paths import ENV_VAR, resolve_root

NAME = "mcp"
HELP = "serve the memory tools to an MCP client (Claude, Cursor…) over stdio"
NEEDS_EXTRA = "oda-tui mcp needs the mcp extra: pip install 'oda-tui[mcp]'"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--workspace KEY``: the chat is in that workspace (Global and its own memories)."""
    parser.add_argument(
        "--workspace",
        metavar="KEY",
        help="the chat's workspace (default: none, so it receives and saves Global memories only)",
    )


def run(args: argparse.Namespace) -> int:
    """Serve until the client closes stdin. Refusals go to the model; only start-up errors here."""
    from ..cli.access import workspace_key

    workspace = None if args.workspace is None else workspace_key(args.workspace)
    try:
        import anyio

        from .server import build_server
        from .stdio import serve_stdio
    except ImportError as exc:  # the extra is not installed
        if exc.name is not None and exc.name.split(".")[0] not in ("mcp", "mcp_types", "anyio"):
            raise
        raise CommandError(NEEDS_EXTRA) from exc
    root = resolve_root(args.root)
    named = bool(args.root or os.environ.get(ENV_VAR))
    if named and not root.is_dir():
        # Served anyway: each tool call answers with the reason, so the model can tell the person.
        print(f"Note: the memory folder {root} does not exist or is not a folder.", file=sys.stderr)
    # stdout is the protocol's: anything the SDK logs goes to stderr.
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    server = build_server(root, workspace, root_named=named)
    anyio.run(serve_stdio, server)
    return 0
