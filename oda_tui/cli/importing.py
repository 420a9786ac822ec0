"""``oda-tui import``: bring in the memories a person already keeps elsewhere (Markdown files
such as ``CLAUDE.md``, basic-memory notes, server-memory's JSONL): a dry run by default."""

from __future__ import annotations

import argparse

from store import GLOBAL, Scope, scope_label
from store.exchange import BadSource, Step, apply_import, counts, plan_import, read_sources

from .access import open_store, workspace_key
from .errors import FOUND, OK, CommandError
from .output import columns, note, to_json, visible, write_data, write_lines
from .records import scope_record

NAME = "import"
HELP = "import memories from Markdown, basic-memory notes or server-memory JSONL (a dry run unless --apply)"

_WORDS = {
    False: {"create": "would create", "duplicate": "would skip", "refused": "would refuse"},
    True: {"create": "created", "duplicate": "skipped", "refused": "refused"},
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Where the memories go, whether to create them, and the sources."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--workspace", metavar="KEY", help="import into this workspace")
    group.add_argument(
        "--global", dest="global_", action="store_true", help="import into Global (the default)"
    )
    parser.add_argument(
        "--apply", action="store_true", help="create the memories (default: only show what would be done)"
    )
    parser.add_argument(
        "sources",
        metavar="SOURCE",
        nargs="+",
        help="a Markdown file, a folder of basic-memory notes, or a server-memory .jsonl file",
    )


def summary(steps: list[Step], *, applied: bool) -> str:
    """The counts line."""
    found = counts(steps)
    created, skipped, refused = found["create"], found["duplicate"], found["refused"]
    if applied:
        return f"Created {created}, skipped {skipped} as duplicates, refused {refused}."
    return (
        f"Would create {created}, skip {skipped} as duplicates, refuse {refused} "
        "(a dry run: nothing was written; --apply creates them)."
    )


def run(args: argparse.Namespace) -> int:
    """Read every source first (bad input stops all), then show or apply the import."""
    store = open_store(args)
    scope: Scope = GLOBAL if args.workspace is None else workspace_key(args.workspace)
    try:
        found = read_sources(list(args.sources))
    except BadSource as exc:
        raise CommandError(str(exc)) from None
    if scope is not None and scope not in store.workspaces():
        note(f'Note: there is no workspace "{scope}" in {store.root} yet; importing creates it.')
    if args.apply:
        steps = apply_import(store, scope, found.candidates)
    else:
        steps = plan_import(store, scope, found.candidates)
    code = FOUND if counts(steps)["refused"] else OK
    if args.json:
        document = {
            "root": str(store.root),
            **scope_record(scope),
            "applied": bool(args.apply),
            "counts": counts(steps),
            "memories": [_record(step) for step in steps],
            "notes": found.notes,
        }
        write_data(to_json(document))
        return code
    for line in found.notes:
        note(line)
    words = _WORDS[bool(args.apply)]
    rows = [
        [words[s.outcome], visible(s.candidate.title), visible(s.candidate.origin), visible(s.reason)]
        for s in steps
    ]
    write_lines(columns(rows))
    into = scope_label(scope) if scope is None else f'workspace "{scope}"'
    note(f"{summary(steps, applied=bool(args.apply))} Into {into}.")
    return code


def _record(step: Step) -> dict[str, object]:
    return {
        "outcome": step.outcome,
        "title": step.candidate.title,
        "text": step.candidate.text,
        "origin": step.candidate.origin,
        "reason": step.reason or None,
        "id": step.memory_id,
    }
