"""``oda-tui check``: every problem file, ignored file, settings problem and secret-looking memory,
one a line; ``--review`` also counts what the agent saved that waits for review."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from store import SETTINGS_FILE, MemoryStore

from ..own_files.review_marks import review_with_problem
from .access import open_store
from .errors import FOUND, OK
from .output import note, to_json, visible, write_data, write_lines

NAME = "check"
HELP = (
    "list every problem file, ignored file, settings problem and secret-looking memory; "
    "exit 1 when there is any"
)


@dataclass(frozen=True)
class Finding:
    """One thing ``check`` reports: its kind, the path it concerns and the message."""

    kind: str  # problem, ignored, settings, secret, review
    path: str
    message: str


def problems(store: MemoryStore) -> list[Finding]:
    """Memory files that fail a check: they are never sent."""
    return [Finding("problem", str(p.path), p.message) for p in store.problems()]


def ignored(store: MemoryStore) -> list[Finding]:
    """Things in the memory folders that are not treated as memories."""
    return [Finding("ignored", str(i.path), i.reason) for i in store.ignored()]


def settings(store: MemoryStore) -> list[Finding]:
    """Bad lines of settings.yaml (their keys fall back to the defaults)."""
    path = str(store.root / SETTINGS_FILE)
    # The store's messages already name the file; the line names it once, as its path.
    prefix = f"{SETTINGS_FILE}: "
    return [Finding("settings", path, message.removeprefix(prefix)) for message in store.settings_problems()]


def secrets(store: MemoryStore) -> list[Finding]:
    """Secret-looking memories (a warning: they are still sent)."""
    return [Finding("secret", w.memory.location, w.message) for w in store.secret_warnings()]


#: What ``check`` looks at, in the order it reports; a new kind of finding is one more entry.
CHECKS: tuple[Callable[[MemoryStore], list[Finding]], ...] = (problems, ignored, settings, secrets)


def review(store: MemoryStore) -> list[Finding]:
    """Memories a chat created, changed or deleted since the last review."""
    found = []
    items, problem = review_with_problem(store)
    if problem is not None:
        note(problem)
    for item in items:
        if item.deleted_by_agent:
            found.append(
                Finding(
                    "review", str(item.memory.path), "Deleted by a chat: it waits under Recently deleted."
                )
            )
            continue
        what = "created" if item.created_by_agent else "changed"
        found.append(Finding("review", str(item.memory.path), f"Saved by the agent: {what} by a chat."))
    return found


def review_line(count: int) -> str:
    """The summary line ``--review`` prints."""
    if count == 1:
        return "1 memory the agent saved or changed is waiting for review."
    return f"{count} memories the agent saved or changed are waiting for review."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--review`` also counts what the agent saved that waits for review (as findings)."""
    parser.add_argument(
        "--review",
        action="store_true",
        help="also count memories saved by the agent that wait for review (exit 1 when any)",
    )


def run(args: argparse.Namespace) -> int:
    """Print the findings; exit 0 when there is none, 1 when there is any."""
    store = open_store(args)
    findings = [finding for check in CHECKS for finding in check(store)]
    reviews = review(store) if args.review else []
    if args.json:
        document: dict[str, Any] = {
            "root": str(store.root),
            "ok": not findings and not reviews,
            "findings": [{"kind": f.kind, "path": f.path, "message": f.message} for f in findings + reviews],
        }
        if args.review:
            document["review"] = len(reviews)
        write_data(to_json(document))
    else:
        lines = [visible(f"{f.path}: {f.message}") for f in findings]
        write_lines(lines + ([review_line(len(reviews))] if reviews else []))
    return FOUND if findings or reviews else OK
