"""``oda-tui sync``: write the memories a person would share into the files other assistants
read: a workspace's into its project's ``AGENTS.md``, ``CLAUDE.md``,
``.github/copilot-instructions.md``, Cursor's ``.mdc`` rules; Global's, with ``--global``, into
the user-level files (``~/.claude/CLAUDE.md``, ``~/.codex/AGENTS.md``…), as a managed block that
leaves every other byte of each file as it was."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from store import MemoryStore
from store.exchange import (
    MemorySet,
    SyncOptions,
    SyncReport,
    TargetPlan,
    blocks_hold,
    edited_line,
    known_targets,
    sync,
    workspace_of,
)

from ..own_files.sync_hold import held_back_line, unreviewed
from ..text.word_changes import marked
from .access import open_store, workspace_key
from .errors import FOUND, OK, REFUSED, CommandError
from .output import columns, note, to_json, visible, visible_block, write_data, write_lines

NAME = "sync"
HELP = "write the memories you would share into AGENTS.md, CLAUDE.md and the like, as a managed block"

NO_TARGETS = (
    "No target named, and no assistant file in {project} holds a managed block yet: name the files, "
    "e.g. oda-tui sync --workspace KEY AGENTS.md CLAUDE.md"
)
NO_USER_TARGETS = (
    "No target named, and none of your user-level assistant files holds a managed block yet: name "
    "them, e.g. oda-tui sync --global ~/.claude/CLAUDE.md ~/.codex/AGENTS.md"
)
NO_WORKSPACE = (
    "Name the workspace whose memories go into these files: oda-tui sync --workspace KEY (Global "
    "memories go into your own user-level files, with oda-tui sync --global)."
)
SEVERAL = (
    "The files' blocks hold the memories of different workspaces ({keys}): name the one to sync with "
    "--workspace KEY."
)

DIFF_KEY = "The word diff: [-in the file now, would be overwritten-] {+what sync would write+}"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The memories, the folder, the targets and the modes."""
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--workspace",
        metavar="KEY",
        help="the workspace whose memories go into the project's files (default: the one their blocks record)",
    )
    which.add_argument(
        "--global",
        dest="global_",
        action="store_true",
        help="Global's memories into your user-level files (~/.claude/CLAUDE.md, ~/.codex/AGENTS.md…)",
    )
    parser.add_argument(
        "--with-global", action="store_true", help="write Global's memories into the project's files too"
    )
    parser.add_argument(
        "--project", metavar="DIR", help="the project folder the targets are in (default: the current folder)"
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 when a target is out of step (for a git hook or CI)",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="overwrite a managed block edited by hand, or one holding another workspace's memories",
    )
    parser.add_argument(
        "--allow-secrets", action="store_true", help="write memories that look like they hold a secret"
    )
    parser.add_argument(
        "--include-unreviewed",
        action="store_true",
        help="write the memories an agent saved or changed that you have not reviewed yet",
    )
    parser.add_argument(
        "--at",
        choices=["top"],
        help="put the block after the file's first heading (default: where it is, or at the end)",
    )
    parser.add_argument(
        "targets",
        metavar="TARGET",
        nargs="*",
        help="a file in the project folder (default: the known assistant files already holding a block)",
    )


def status_words(target: TargetPlan, *, written: bool) -> str:
    """A target's state for a person (``written``: whether this run wrote it)."""
    if target.status == "left out":
        return f"left out: its memories are in {target.once_in}"
    if target.status == "in step":
        return "in step"
    if target.status == "edited":
        return "edited by hand since the last sync"
    if not written:
        return "out of step" if target.old is not None else "missing"
    if target.status == "added":
        return "created" if target.old is None else "block added"
    return "updated"


def _folder(args: argparse.Namespace) -> tuple[Path, Path | None]:
    """The folder synced, and the home folder when it is the user-level files'."""
    if args.global_:
        if args.with_global or args.project:
            raise CommandError(
                "--global syncs your user-level files; --with-global and --project are for a project."
            )
        home = Path(os.path.abspath(Path.home()))
        return home, home
    project = Path(os.path.abspath(args.project or os.getcwd()))
    if not project.is_dir():
        raise CommandError(f"The project folder {project} is not a folder.")
    return project, None


def _memory_set(store: MemoryStore, args: argparse.Namespace, base: Path, names: list[str]) -> MemorySet:
    if args.global_:
        return MemorySet(None)
    if args.workspace is not None:
        key = workspace_key(args.workspace)
        if key not in store.workspaces():
            note(f'Note: there is no workspace "{key}" in {store.root}; its files get no memories.')
        return MemorySet(key, with_global=args.with_global)
    recorded = sorted({w for h in blocks_hold(base, names).values() if h and (w := workspace_of(h))})
    if not recorded:
        raise CommandError(NO_WORKSPACE)
    if len(recorded) > 1:
        raise CommandError(SEVERAL.format(keys=", ".join(recorded)))
    return MemorySet(recorded[0], with_global=args.with_global)


def run(args: argparse.Namespace) -> int:
    """Sync (or ``--check``) the targets; nothing is written when any is refused."""
    store = open_store(args)
    base, home = _folder(args)
    names = list(args.targets) or known_targets(base, home=home)
    if not names:
        raise CommandError(NO_USER_TARGETS if home else NO_TARGETS.format(project=base))
    memories = _memory_set(store, args, base, names)
    options = SyncOptions(
        force=args.force,
        check=args.check,
        allow_secrets=args.allow_secrets,
        held_back=frozenset() if args.include_unreviewed else unreviewed(store),
        at_top=args.at == "top",
    )
    report = sync(store, base, names, memories, options)
    code = _code(report, check=args.check)
    if args.json:
        write_data(to_json(_document(store.root, base, report, args.check)))
        return code
    _write_report(report, check=args.check)
    return code


def _write_report(report: SyncReport, *, check: bool) -> None:
    for refusal in report.refusals:
        note(refusal)
    rows = [[visible(p.name), status_words(p, written=p.name in report.written)] for p in report.plans]
    write_lines(columns(rows))
    for line in report.notes + report.warnings:
        note(line)
    if report.held_back:
        note(held_back_line(report.held_back))
    if not check:
        for target in report.edited:
            note(edited_line(target.name))
            note(DIFF_KEY)
            assert target.plan is not None
            write_data(visible_block(marked(target.plan.before, target.plan.after)) + "\n")
        if report.refusals or report.edited:
            note("Nothing was written.")


def _code(report: SyncReport, *, check: bool) -> int:
    if report.refusals:
        return REFUSED
    if check:
        return FOUND if report.out_of_step else OK
    return REFUSED if report.edited else OK


def _document(root: Path, base: Path, report: SyncReport, check: bool) -> dict[str, Any]:
    targets = []
    for target in report.plans:
        edited = target.status == "edited" and target.plan is not None
        targets.append(
            {
                "target": target.name,
                "path": str(base / target.path),
                "status": target.status,
                "state": status_words(target, written=target.name in report.written),
                "written": target.name in report.written,
                "once_in": target.once_in,
                "diff": marked(target.plan.before, target.plan.after) if edited and target.plan else None,
            }
        )
    return {
        "root": str(root),
        "workspace": report.memories.workspace,
        "memories": report.memories.holds,
        "project": str(base),
        "check": check,
        "in_step": not report.out_of_step and not report.refusals,
        "targets": targets,
        "refusals": report.refusals,
        "notes": report.notes,
        "warnings": report.warnings,
        "held_back": report.held_back,
    }
