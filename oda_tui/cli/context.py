"""``oda-tui context``: exactly the text a chat receives, and its estimate against the limit."""

from __future__ import annotations

import argparse

from .access import open_store, workspace_key
from .errors import OK
from .output import note, to_json, write_data, write_text

NAME = "context"
HELP = "print exactly the memory a chat receives (its token estimate goes to stderr)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Which chat: one in a workspace, or (by default) one outside any workspace."""
    parser.add_argument("--workspace", metavar="KEY", help="a chat in this workspace (Global and its own)")


def run(args: argparse.Namespace) -> int:
    """Write the chat's text byte for byte (nothing added; control characters shown visibly on a
    terminal), then ``≈ n / limit tokens`` on stderr."""
    store = open_store(args)
    workspace = None if args.workspace is None else workspace_key(args.workspace)
    if workspace is not None and workspace not in store.workspaces():
        note(f'Note: there is no workspace "{workspace}" in {store.root}; a chat there receives only Global.')
    chat = store.chat_memory(workspace)
    limit = store.limits.chat_max_tokens
    if args.json:
        document = {
            "root": str(store.root),
            "workspace": workspace,
            "text": chat.text,
            "tokens": chat.tokens,
            "limit": limit,
            "entries": [{"id": e.id, "scope": e.scope, "title": e.title} for e in chat.entries],
        }
        write_data(to_json(document))
        return OK
    write_text(chat.text)
    note(f"≈ {chat.tokens:,} / {limit:,} tokens")
    return OK
