"""``oda-tui history ID``: a memory's kept versions, newest first."""

from __future__ import annotations

import argparse

from ..text.words import source_words
from .access import find_id, open_store
from .errors import OK
from .output import columns, note, to_json, visible, write_data, write_lines
from .records import scope_record, version_record
from .show import add_scope_narrowing, narrowed, search_scopes

NAME = "history"
HELP = "list a memory's versions, newest first: name, source in words, title"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The id (a deleted memory's too), and optionally the one scope to look in."""
    parser.add_argument("id", metavar="ID", help="the memory's eight-character id")
    add_scope_narrowing(parser)


def run(args: argparse.Namespace) -> int:
    """Print one version a line; a memory with no kept version prints a note instead."""
    store = open_store(args)
    scopes = search_scopes(store.workspaces(), args)
    found = find_id(store, args.id, scopes, narrowed=narrowed(args), with_history=True)
    versions = store.versions(found.scope, args.id)
    if args.json:
        document = {
            "root": str(store.root),
            "id": args.id,
            **scope_record(found.scope),
            "versions": [version_record(v) for v in versions],
        }
        write_data(to_json(document))
        return OK
    if not versions:
        note("No version of this memory is kept yet: one is kept when it is next saved.")
    rows = [[v.name, source_words(v.source), visible(v.title)] for v in versions]
    write_lines(columns(rows))
    return OK
