"""``oda-tui list``: one memory a line with its id, on/off, who saved it, title and the tokens it
adds to a chat."""

from __future__ import annotations

import argparse

from store import MemoryStore, Scope, UnreadableFolder, entry_tokens, scope_label

from ..text.words import on_off, saver
from .access import chosen_scopes, open_store
from .errors import FOUND, OK
from .output import columns, note, to_json, visible, write_data, write_lines
from .records import memory_record

NAME = "list"
HELP = "list memories: scope, id, on/off, who saved it, title, tokens"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Which scopes to list (every scope by default)."""
    add_scope_choice(parser, all_help="every scope: Global, then each workspace (the default)")


def add_scope_choice(parser: argparse.ArgumentParser, *, all_help: str) -> None:
    """``--workspace KEY | --global | --all``, for the commands that read several scopes."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--workspace", metavar="KEY", help="only this workspace's memories")
    group.add_argument("--global", dest="global_", action="store_true", help="only the global memories")
    group.add_argument("--all", action="store_true", help=all_help)


def run(args: argparse.Namespace) -> int:
    """Print the memories of the chosen scopes, Global first, each in (created, id) order; a
    folder of theirs that could not be read is said on stderr, and the command ends with 1."""
    store = open_store(args)
    scopes = chosen_scopes(store, args)
    memories = [m for scope in scopes for m in store.memories(scope)]
    shut = unread_folders(store, scopes, every=not (args.global_ or args.workspace))
    for folder in shut:
        note(f"{folder.path}: {folder.reason} Its memories are not listed.")
    code = FOUND if shut else OK
    if args.json:
        write_data(to_json({"root": str(store.root), "memories": [memory_record(m) for m in memories]}))
        return code
    rows = [
        [
            scope_label(m.scope),
            m.id,
            on_off(m.enabled),
            saver(m.source),
            visible(m.title),
            f"+{entry_tokens(m.title, m.text):,} tokens",
        ]
        for m in memories
    ]
    write_lines(columns(rows, right=frozenset({5})))
    return code


def unread_folders(store: MemoryStore, scopes: list[Scope], *, every: bool) -> list[UnreadableFolder]:
    """The folders that could not be read and hide memories of ``scopes`` (``every``: all of
    them, the workspaces folder too, whose workspaces could not even be named)."""
    folders = [store.memory_path(scope, "00000000").parent for scope in scopes]
    return [
        shut
        for shut in store.unreadable_folders()
        if every or any(folder == shut.path or shut.path in folder.parents for folder in folders)
    ]
