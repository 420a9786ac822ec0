"""``oda-tui sync``: write what a chat receives into the files other assistants read
(``AGENTS.md``, ``CLAUDE.md``, ``.github/copilot-instructions.md``, Cursor's ``.mdc`` rules),
as a managed block that leaves every other byte of each file as it was."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from store.exchange import SyncReport, TargetPlan, edited_line, known_targets, sync

from ..text.word_changes import marked
from .access import open_store
from .context import chat_for
from .errors import FOUND, OK, REFUSED, CommandError
from .output import columns, note, to_json, visible, visible_block, write_data, write_lines

NAME = "sync"
HELP = "write what a chat receives into AGENTS.md, CLAUDE.md and the like, as a managed block"

NO_TARGETS = (
    "No target named, and no assistant file in {project} holds a managed block yet: name the files, "
    "e.g. oda-tui sync --workspace KEY AGENTS.md CLAUDE.md"
)

DIFF_KEY = "The word diff: [-in the file now, would be overwritten-] {+what sync would write+}"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The chat, the project folder, the targets and the modes."""
    parser.add_argument("--workspace", metavar="KEY", help="what a chat in this workspace receives")
    parser.add_argument(
        "--project", metavar="DIR", help="the project folder the targets are in (default: the current folder)"
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 when a target is out of step (for a git hook or CI)",
    )
    parser.add_argument("--force", action="store_true", help="overwrite a managed block edited by hand")
    parser.add_argument(
        "targets",
        metavar="TARGET",
        nargs="*",
        help="a file in the project folder (default: the known assistant files already holding a block)",
    )


def status_words(target: TargetPlan, *, written: bool) -> str:
    """A target's state for a person (``written``: whether this run wrote it)."""
    if target.status == "in step":
        return "in step"
    if target.status == "edited":
        return "edited by hand since the last sync"
    if not written:
        return "out of step" if target.old is not None else "missing"
    if target.status == "added":
        return "created" if target.old is None else "block added"
    return "updated"


def run(args: argparse.Namespace) -> int:
    """Sync (or ``--check``) the targets; nothing is written when any is refused."""
    store = open_store(args)
    workspace, chat = chat_for(store, args.workspace)
    project = Path(os.path.abspath(args.project or os.getcwd()))
    if not project.is_dir():
        raise CommandError(f"The project folder {project} is not a folder.")
    names = list(args.targets) or known_targets(project)
    if not names:
        raise CommandError(NO_TARGETS.format(project=project))
    report = sync(project, names, chat.text, force=args.force, check=args.check)
    code = _code(report, check=args.check)
    if args.json:
        write_data(to_json(_document(store.root, workspace, project, report, args.check)))
        return code
    for refusal in report.refusals:
        note(refusal)
    if not report.refusals:
        rows = [[visible(p.name), status_words(p, written=p.name in report.written)] for p in report.plans]
        write_lines(columns(rows))
    if not args.check:
        for target in report.edited:
            note(edited_line(target.name))
            note(DIFF_KEY)
            write_data(visible_block(marked(target.plan.before, target.plan.after)) + "\n")
        if report.edited and not report.refusals:
            note("Nothing was written.")
    return code


def _code(report: SyncReport, *, check: bool) -> int:
    if report.refusals:
        return REFUSED
    if check:
        return FOUND if report.out_of_step else OK
    return REFUSED if report.edited else OK


def _document(
    root: Path, workspace: str | None, project: Path, report: SyncReport, check: bool
) -> dict[str, Any]:
    targets = []
    for target in report.plans:
        edited = target.status == "edited"
        targets.append(
            {
                "target": target.name,
                "path": str(target.path),
                "status": target.status,
                "state": status_words(target, written=target.name in report.written),
                "written": target.name in report.written,
                "diff": marked(target.plan.before, target.plan.after) if edited else None,
            }
        )
    return {
        "root": str(root),
        "workspace": workspace,
        "project": str(project),
        "check": check,
        "in_step": not report.out_of_step and not report.refusals,
        "targets": targets,
        "refusals": report.refusals,
    }
