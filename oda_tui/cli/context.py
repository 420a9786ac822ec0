"""``oda-tui context``: exactly the text a chat receives, and its estimate against the limit."""

from __future__ import annotations

import argparse

from store import ChatMemory, MemoryStore

from .access import open_store, workspace_key
from .errors import OK
from .output import note, to_json, write_data, write_text

NAME = "context"
HELP = "print exactly the memory a chat receives (its token estimate goes to stderr)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Which chat: one in a workspace, or (by default) one outside any workspace."""
    parser.add_argument("--workspace", metavar="KEY", help="a chat in this workspace (Global and its own)")


def chat_for(store: MemoryStore, workspace_arg: str | None) -> tuple[str | None, ChatMemory]:
    """The workspace ``--workspace`` names (refused when not a valid key) and exactly what a
    chat there receives (``oda-tui sync`` writes this same text)."""
    workspace = None if workspace_arg is None else workspace_key(workspace_arg)
    if workspace is not None and workspace not in store.workspaces():
        note(f'Note: there is no workspace "{workspace}" in {store.root}; a chat there receives only Global.')
    return workspace, store.chat_memory(workspace)


def run(args: argparse.Namespace) -> int:
    """Write the chat's text byte for byte (nothing added; control characters shown visibly on a
    terminal), then ``≈ n / limit tokens`` on stderr."""
    store = open_store(args)
    workspace, chat = chat_for(store, args.workspace)
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
