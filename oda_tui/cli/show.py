"""``oda-tui show ID``: a memory's file, its frontmatter and its text."""

from __future__ import annotations

import argparse

from store import GLOBAL, read_regular

from .access import find_id, open_store, workspace_key
from .errors import OK, CommandError
from .output import to_json, visible_block, write_data
from .records import memory_record

NAME = "show"
HELP = "show a memory's frontmatter and text (searching every scope unless told which)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The id, and optionally the one scope to look in."""
    parser.add_argument("id", metavar="ID", help="the memory's eight-character id")
    add_scope_narrowing(parser)


def add_scope_narrowing(parser: argparse.ArgumentParser) -> None:
    """``--workspace KEY | --global``: look for an id only there."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--workspace", metavar="KEY", help="look only in this workspace")
    group.add_argument("--global", dest="global_", action="store_true", help="look only in Global")


def search_scopes(store_workspaces: list[str], args: argparse.Namespace) -> list[str | None]:
    """Where to look for an id: the scope named, or Global and then every workspace."""
    if args.global_:
        return [GLOBAL]
    if args.workspace is not None:
        return [workspace_key(args.workspace)]
    return [GLOBAL, *store_workspaces]


def narrowed(args: argparse.Namespace) -> bool:
    """Whether one scope was named (``--global`` or ``--workspace``)."""
    return bool(args.global_) or args.workspace is not None


def run(args: argparse.Namespace) -> int:
    """Print the memory's file; a problem file's id is refused with its path and problem."""
    store = open_store(args)
    found = find_id(store, args.id, search_scopes(store.workspaces(), args), narrowed=narrowed(args))
    if found.problem is not None:
        raise CommandError(f"{found.problem.path}: {found.problem.message}")
    memory = store.get(found.scope, args.id)
    if args.json:
        write_data(to_json({"root": str(store.root), "memory": memory_record(memory)}))
        return OK
    try:
        # As the store reads it: no link followed, no pipe waited on, no more than a memory file.
        content = read_regular(store.root, memory.path, store.limits.file_max_bytes).decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"{memory.path} cannot be read: {getattr(exc, 'strerror', None) or exc}.") from exc
    content = content.replace("\r\n", "\n")
    write_data(visible_block(content if content.endswith("\n") else content + "\n"))
    return OK
