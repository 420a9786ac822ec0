"""``oda-tui import``: bring in the memories a person already keeps elsewhere (Markdown files
such as ``CLAUDE.md``, Cursor rules, basic-memory notes, server-memory's JSONL): a dry run by
default, which opens the store only to look (nothing in it is written, not even a cache)."""

from __future__ import annotations

import argparse

from store import GLOBAL, Scope, TooLong, scope_label
from store.exchange import (
    BadSource,
    Outcome,
    Step,
    apply_import,
    counts,
    plan_import,
    read_sources,
    split_long,
)

from .access import open_store, workspace_key
from .errors import FOUND, OK, CommandError
from .output import columns, note, to_json, visible, write_data, write_lines
from .records import scope_record

NAME = "import"
HELP = (
    "import memories from Markdown, Cursor rules, basic-memory notes or server-memory JSONL "
    "(a dry run unless --apply)"
)

_WORDS: dict[bool, dict[Outcome, str]] = {
    False: {
        "create": "would create",
        "change": "would change",
        "unchanged": "would skip",
        "duplicate": "would skip",
        "refused": "would refuse",
    },
    True: {
        "create": "created",
        "change": "changed",
        "unchanged": "skipped",
        "duplicate": "skipped",
        "refused": "refused",
    },
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
        "--split",
        action="store_true",
        help="cut a section over the text limit at paragraph (then line) boundaries into numbered memories",
    )
    parser.add_argument(
        "sources",
        metavar="SOURCE",
        nargs="+",
        help="a Markdown file, a Cursor rule (.mdc), a folder of basic-memory notes or Cursor rules, "
        "or a server-memory .jsonl file",
    )


def summary(steps: list[Step], *, applied: bool) -> str:
    """The counts line."""
    found = counts(steps)
    created, changed, refused = found["create"], found["change"], found["refused"]
    unchanged, duplicates = found["unchanged"], found["duplicate"]
    if applied:
        return (
            f"Created {created}, changed {changed}, skipped {unchanged} unchanged since the last "
            f"import and {duplicates} as duplicates, refused {refused}."
        )
    return (
        f"Would create {created}, change {changed}, skip {unchanged} unchanged since the last import "
        f"and {duplicates} as duplicates, refuse {refused} (a dry run: nothing was written; --apply does it)."
    )


def run(args: argparse.Namespace) -> int:
    """Read every source first (bad input stops all), then show or apply the import."""
    store = open_store(args, read_only=not args.apply)
    scope: Scope = GLOBAL if args.workspace is None else workspace_key(args.workspace)
    try:
        found = read_sources(list(args.sources))
    except BadSource as exc:
        raise CommandError(str(exc)) from None
    candidates = split_long(found.candidates, store.limits.text_max_chars) if args.split else found.candidates
    if scope is not None and scope not in store.workspaces():
        note(f'Note: there is no workspace "{scope}" in {store.root} yet; importing creates it.')
    if args.apply:
        steps = apply_import(store, scope, candidates)
    else:
        steps = plan_import(store, scope, candidates)
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
    too_long = sum(1 for s in steps if isinstance(s.refusal, TooLong) and s.refusal.field == "text")
    if too_long:
        what = "memory is" if too_long == 1 else "memories are"
        note(
            f"Note: {too_long} {what} over the text limit; --split cuts each into numbered memories within it."
        )
    into = scope_label(scope) if scope is None else f'workspace "{scope}"'
    note(f"{summary(steps, applied=bool(args.apply))} Into {into}.")
    return code


def _record(step: Step) -> dict[str, object]:
    return {
        "outcome": step.outcome,
        "title": step.candidate.title,
        "text": step.candidate.text,
        "origin": step.candidate.origin,
        "from": step.candidate.key or None,
        "reason": step.reason or None,
        "id": step.memory_id,
    }
