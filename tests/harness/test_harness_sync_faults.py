"""Fault injection over ``sync``'s system calls: a sync of four targets (two files there, one in
a folder to make, one two folders down) run once per call it makes, that call failing with
ENOSPC, EIO or EACCES (``tests.support.faults`` wraps the calls at ``os`` and ``renameat2``).

After each: the sync completed, as a clean run does (every target written, nothing else), or
it was refused, naming a target, with the project byte for byte as before: every target as it
was, no temp file, no folder it made. Then, with the fault gone, the same sync completes as
the clean run. Both with the kernel's swap and without it (the path other systems take).
"""

from __future__ import annotations

import errno
import shutil
from pathlib import Path

import pytest

from store.disk import swap
from store.exchange.managed_block import render_block
from store.exchange.sync_targets import SyncReport
from tests.support.faults import Entry, Faults, base_call, diff, snapshot
from tests.support.sync_project import LATER, WEB, sync_web

ERRNOS = (errno.ENOSPC, errno.EIO, errno.EACCES)
NAMES = ["AGENTS.md", "CLAUDE.md", ".github/copilot-instructions.md", "docs/deep/GEMINI.md"]


def _template(folder: Path) -> None:
    folder.mkdir()
    (folder / "AGENTS.md").write_text("# Agents\n\nmy own notes\n")
    (folder / "CLAUDE.md").write_text(
        "# Claude\n\n" + render_block("# Memory\n\nold\n", "\n", WEB.holds) + "\n"
    )
    (folder / ".github").mkdir()  # there, but empty: the file is new
    (folder / "notes.txt").write_text("not a target\n")


@pytest.mark.parametrize("kernel_swap", [True, False], ids=["renameat2", "fallback"])
def test_every_call_of_a_sync_failing_leaves_the_project_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kernel_swap: bool
) -> None:
    if not kernel_swap:
        monkeypatch.setattr(swap, "_renameat2", None)
    template, project = tmp_path / "template", tmp_path / "project"
    _template(template)
    faults = Faults()
    faults.install(monkeypatch)

    def fresh() -> None:
        shutil.rmtree(project, ignore_errors=True)
        shutil.copytree(template, project, symlinks=True)

    fresh()
    before = snapshot(project)
    with faults.armed_at(None):
        clean_report = sync_web(project, NAMES, LATER)
    assert clean_report.refusals == [] and clean_report.written == NAMES
    calls = list(faults.calls)
    clean = snapshot(project)
    assert {"open", "write", "mkdir"} <= {base_call(call) for call in calls}
    assert ("renameat2" in calls) == kernel_swap
    findings: list[str] = []
    outcomes: list[str] = []
    for at in range(1, len(calls) + 1):
        for err in ERRNOS:
            fresh()
            where = f"call {at} ({calls[at - 1]}) failing with {errno.errorcode[err]}"
            with faults.armed_at(at, err):
                try:
                    report = sync_web(project, NAMES, LATER)
                except Exception as exc:  # noqa: BLE001 (a finding)
                    findings.append(f"{where}: raised {type(exc).__name__}: {exc}")
                    continue
            outcomes.append("refused" if report.refusals else "completed")
            findings += [f"{where}: {problem}" for problem in _problems(report, project, before, clean)]
            again = sync_web(project, NAMES, LATER)  # the fault gone
            if again.refusals or snapshot(project) != clean:
                findings.append(f"{where}: then, without the fault: {again.refusals}")
    tried = len(calls) * len(ERRNOS)
    assert not findings, f"{len(findings)} of {tried} cases went wrong:\n" + "\n".join(findings[:8])
    assert set(outcomes) == {"refused", "completed"}  # some calls matter, some (a folder's fsync) do not


def _problems(
    report: SyncReport, project: Path, before: dict[str, Entry], clean: dict[str, Entry]
) -> list[str]:
    """What is wrong with the project after a sync under a fault (none: fine)."""
    after = snapshot(project)
    if not report.refusals:
        if after != clean or report.written != NAMES:
            return [f"completed, but not as a clean run:\n{diff(after, clean)}"]
        return []
    problems = []
    if after != before:
        problems.append(f"refused, but the project changed:\n{diff(after, before)}")
    if report.written:
        problems.append(f"refused, yet says it wrote {report.written}")
    if not all(r.endswith("nothing was written.") for r in report.refusals):
        problems.append(f"refused in other words: {report.refusals}")
    return problems
