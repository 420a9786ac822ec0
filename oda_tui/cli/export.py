"""``oda-tui export``: every memory as one Markdown file, grouped by scope."""

from __future__ import annotations

import argparse
from pathlib import Path

from store import MemoryStore, Scope
from store.exchange import export_markdown

from .access import chosen_scopes, open_store
from .errors import OK
from .listing import add_scope_choice
from .output import note, to_json, write_data, write_text
from .output_file import write_file
from .records import memory_record, scope_record

NAME = "export"
HELP = "write every memory as one Markdown file (to stdout, or -o FILE), grouped by scope"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Which scopes to export (every scope by default) and where to."""
    add_scope_choice(parser, all_help="Global, then every workspace (the default)")
    parser.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write to FILE, a regular file: an existing one in place as cp does (same file, same mode; a "
        "read-only one refused), a new one with the umask's mode; a link is written through",
    )


def run(args: argparse.Namespace) -> int:
    """Export the chosen scopes; problem files are left out, with a note saying how many."""
    store = open_store(args)
    scopes = chosen_scopes(store, args)
    text = _json(store, scopes) if args.json else export_markdown((s, store.memories(s)) for s in scopes)
    left_out = [p for p in store.problems() if p.scope in scopes]
    if args.output and args.output != "-":
        write_file(Path(args.output), text)
    elif args.json:
        write_data(text)
    else:
        write_text(text)
    if left_out:
        files = "file has a problem and is" if len(left_out) == 1 else "files have a problem and are"
        note(f"Note: {len(left_out)} memory {files} not exported; see oda-tui check.")
    return OK


def _json(store: MemoryStore, scopes: list[Scope]) -> str:
    groups = [
        {**scope_record(scope), "memories": [memory_record(m) for m in store.memories(scope)]}
        for scope in scopes
    ]
    return to_json({"root": str(store.root), "scopes": groups})
