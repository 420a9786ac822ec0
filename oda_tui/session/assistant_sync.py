"""The palette's "sync assistant files": ``oda-tui sync`` for the selected scope's chat, on the
assistant files of the project folder (the folder the app was started in) that already hold a
managed block, with the same refusals, said in a notice."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from store import Scope
from store.exchange import SyncReport, edited_line, known_targets, sync

from ..text.safe import clean_block
from ..text.word_changes import marked

if TYPE_CHECKING:
    from .session import StoreSession

NO_TARGETS = (
    "No assistant file in {project} holds a managed block yet: run oda-tui sync --workspace KEY "
    "AGENTS.md CLAUDE.md (or the files you want) there once to choose them."
)
#: The most of a hand edit's word diff a notice shows (the command line shows it whole).
DIFF_SHOWN = 400


def report_text(report: SyncReport, project: Path) -> tuple[str, bool]:
    """What the notice says (control characters of memories and file names shown visibly, as
    everywhere user text is drawn), and whether it is a refusal (nothing written)."""
    text, refused = _report_words(report, project)
    return clean_block(text), refused


def _report_words(report: SyncReport, project: Path) -> tuple[str, bool]:
    if report.refusals:
        return "\n".join(report.refusals), True
    if report.edited:
        lines = []
        for target in report.edited:
            diff = marked(target.plan.before, target.plan.after)
            shown = diff if len(diff) <= DIFF_SHOWN else diff[:DIFF_SHOWN] + "…"
            lines += [edited_line(target.name), shown]
        return "\n".join([*lines, "Nothing was written."]), True
    if report.written:
        return f"Synced {', '.join(report.written)} in {project}.", False
    names = ", ".join(p.name for p in report.plans)
    return f"{names}: in step with the memories; nothing was written.", False


def sync_assistant_files(session: StoreSession, scope: Scope, project: Path | None = None) -> None:
    """Sync, in a worker, the project folder's assistant files with what a chat in ``scope``
    receives; the outcome is a notice (plain text, never markup)."""
    folder = Path(os.path.abspath(project or Path.cwd()))
    app = session.app

    def work() -> None:
        names = known_targets(folder)
        if not names:
            message, refused = NO_TARGETS.format(project=folder), True
        else:
            with session.call_lock:
                text = session.store.chat_memory(scope).text
            message, refused = report_text(sync(folder, names, text), folder)
        app.call_from_thread(
            app.notify, message, markup=False, severity="warning" if refused else "information", timeout=10
        )

    app.run_worker(work, thread=True, group="assistant-sync", exit_on_error=False)
