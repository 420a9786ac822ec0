"""``oda-tui mcp``: serve the memory tools to an MCP client over stdin and stdout.

The ``mcp`` SDK is imported only when the command runs, so the other commands and the app do
not need the extra.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys

from ..config.paths import ENV_VAR, default_root, resolve_root
from .errors import CommandError

NAME = "mcp"
#: It speaks JSON-RPC on stdout: ``--json`` would mean nothing here, so it is not offered.
TAKES_JSON = False
HELP = "serve the memory tools to an MCP client (Claude, Cursor…) over stdio"
#: The exit status of a program ended by Ctrl-C (128 + SIGINT).
INTERRUPTED = 130
NEEDS_EXTRA = "oda-tui mcp needs the mcp extra: in the clone, .venv/bin/pip install -e '.[mcp]'"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--workspace KEY``: the chat is in that workspace (Global and its own memories)."""
    parser.add_argument(
        "--workspace",
        metavar="KEY",
        help="the chat's workspace (default: none, so it receives and saves Global memories only)",
    )
    parser.add_argument(
        "--print-config",
        action="store_true",
        help="print the JSON a client (Claude Desktop, Cursor…) needs to start this server, "
        "with the absolute paths of oda-tui and the memory folder, and exit",
    )


def _interrupted(_signum: int, _frame: object) -> None:
    """Ctrl-C: end at once, quietly, as a shell expects (130). The store's writes are crash-safe
    (each is one transaction the next start puts right), and waiting would hang on stdin."""
    os._exit(INTERRUPTED)


def run(args: argparse.Namespace) -> int:
    """Serve until the client closes stdin. Refusals go to the model; only start-up errors here."""
    signal.signal(signal.SIGINT, _interrupted)
    from .access import workspace_key

    workspace = None if args.workspace is None else workspace_key(args.workspace)
    if args.print_config:  # needs no SDK: the JSON to paste, then done
        from ..mcp.client_config import config_text

        sys.stdout.write(config_text(resolve_root(args.root), workspace))
        return 0
    try:
        import anyio

        from ..mcp.server import build_server
        from ..mcp.stdio import serve_stdio
    except ImportError as exc:  # the extra is not installed
        if exc.name is not None and exc.name.split(".")[0] not in ("mcp", "mcp_types", "anyio"):
            raise
        raise CommandError(NEEDS_EXTRA) from exc
    root = resolve_root(args.root)
    # Oda's own folder may not exist yet even when named (as --print-config names it).
    named = bool(args.root or os.environ.get(ENV_VAR)) and root.absolute() != default_root().absolute()
    if named and not root.is_dir():
        # Served anyway: each tool call answers with the reason, so the model can tell the person.
        print(f"Note: the memory folder {root} does not exist or is not a folder.", file=sys.stderr)
    # stdout is the protocol's: anything the SDK logs goes to stderr.
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    server = build_server(root, workspace, root_named=named)
    anyio.run(serve_stdio, server)
    return 0
