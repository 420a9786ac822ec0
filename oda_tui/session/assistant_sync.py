"""The palette's "sync assistant files": ``oda-tui sync`` for the project folder (the folder the
app was started in), on its assistant files that already hold a managed block, with the
memories of the workspace those blocks record; when they record none, the app asks which
(offering the workspace named like the folder, or the one selected). The same refusals, and
the same holding back of what an agent wrote that the person has not reviewed, said in a
notice."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from store import Scope
from store.exchange import (
    MemorySet,
    SyncOptions,
    SyncReport,
    blocks_hold,
    edited_line,
    known_targets,
    sync,
    workspace_of,
)

from ..dialogs.confirm import ConfirmDialog
from ..own_files.sync_hold import held_back_line, unreviewed
from ..text.safe import clean_block
from ..text.word_changes import marked

if TYPE_CHECKING:
    from .session import StoreSession

NO_TARGETS = (
    "No assistant file in {project} holds a managed block yet: run oda-tui sync --workspace KEY "
    "AGENTS.md CLAUDE.md (or the files you want) there once to choose them."
)
NO_RECORD = (
    "The assistant files in {project} ({names}) do not say which workspace's memories they hold: select "
    "the workspace whose folder this is and sync again, or run oda-tui sync --workspace KEY there."
)
SEVERAL = (
    "The assistant files in {project} hold the memories of different workspaces ({keys}): run "
    "oda-tui sync --workspace KEY there to choose one."
)
ASK = (
    "Write the memories of workspace {key} into {names} in {project}? These files do not say yet whose "
    "memories they hold; from now on they will, and a later sync keeps to that workspace."
)
#: The most of a hand edit's word diff a notice shows (the command line shows it whole).
DIFF_SHOWN = 400


def report_text(report: SyncReport, project: Path) -> tuple[str, bool]:
    """What the notice says (control characters of memories and file names shown visibly, as
    everywhere user text is drawn), and whether it is a refusal (nothing written)."""
    text, refused = _report_words(report, project)
    return clean_block(text), refused


def _report_words(report: SyncReport, project: Path) -> tuple[str, bool]:
    held = [held_back_line(report.held_back, in_app=True)] if report.held_back else []
    if report.refusals:
        return "\n".join([*report.refusals, *held]), True
    if report.edited:
        lines = []
        for target in report.edited:
            assert target.plan is not None
            diff = marked(target.plan.before, target.plan.after)
            shown = diff if len(diff) <= DIFF_SHOWN else diff[:DIFF_SHOWN] + "…"
            lines += [edited_line(target.name), shown]
        return "\n".join([*lines, "Nothing was written."]), True
    words = report.memories.words
    if report.written:
        head = f"Synced {', '.join(report.written)} in {project} with the memories of {words}."
    else:
        names = ", ".join(p.name for p in report.plans)
        head = f"{names}: in step with the memories of {words}; nothing was written."
    return "\n".join([head, *report.notes, *report.warnings, *held]), False


def _guess(session: StoreSession, folder: Path, scope: Scope) -> str | None:
    """The workspace to offer for a folder whose files record none: the one named like the
    folder, else the one selected."""
    workspaces = session.store.workspaces()
    if folder.name in workspaces:
        return folder.name
    return scope


class _Run:
    """One "sync assistant files", from the palette to its notice."""

    def __init__(self, session: StoreSession, scope: Scope, folder: Path) -> None:
        self.session = session
        self.scope = scope
        self.folder = folder
        self.app = session.app

    def tell(self, message: str, refused: bool) -> None:
        self.app.call_from_thread(
            self.app.notify,
            message,
            markup=False,
            severity="warning" if refused else "information",
            timeout=10,
        )

    def start(self, work: Callable[[], None]) -> None:
        self.app.run_worker(work, thread=True, group="assistant-sync", exit_on_error=False)

    def sync(self, names: list[str], workspace: str) -> None:
        """Sync ``names`` with ``workspace``'s memories (in a worker) and say how it went."""
        with self.session.call_lock:
            options = SyncOptions(held_back=unreviewed(self.session.store))
            report = sync(self.session.store, self.folder, names, MemorySet(workspace), options)
        self.tell(*report_text(report, self.folder))

    def answered(self, names: list[str], workspace: str) -> Callable[[bool | None], None]:
        def then(yes: bool | None) -> None:
            if yes:
                self.start(lambda: self.sync(names, workspace))

        return then

    def find(self) -> None:
        """Find the files and the workspace they record (in a worker); sync, or ask."""
        names = known_targets(self.folder)
        if not names:
            self.tell(NO_TARGETS.format(project=self.folder), True)
            return
        held = blocks_hold(self.folder, names).values()
        recorded = sorted({w for h in held if h and (w := workspace_of(h))})
        if len(recorded) == 1:
            self.sync(names, recorded[0])
            return
        shown = ", ".join(names)
        if recorded:
            self.tell(clean_block(SEVERAL.format(project=self.folder, keys=", ".join(recorded))), True)
            return
        with self.session.call_lock:
            key = _guess(self.session, self.folder, self.scope)
        if key is None:
            self.tell(clean_block(NO_RECORD.format(project=self.folder, names=shown)), True)
            return
        dialog = ConfirmDialog(
            ASK.format(key=key, names=shown, project=self.folder), yes="Sync", danger=False
        )
        self.app.call_from_thread(self.app.push_screen, dialog, self.answered(names, key))


def sync_assistant_files(session: StoreSession, scope: Scope, project: Path | None = None) -> None:
    """Sync, in a worker, the project folder's assistant files with the memories of the
    workspace they record (asking when they record none); the outcome is a notice (plain
    text, never markup)."""
    run = _Run(session, scope, Path(os.path.abspath(project or Path.cwd())))
    run.start(run.find)
