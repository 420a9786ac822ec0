"""Fault-injection harness: every change, and every other writer, failed at each system call
it makes in turn, with each kind of fault a file system can give there.

For each kind of change (see ``tests.support.fault_cases``), a clean run first counts the
system calls (see ``tests.support.faults``: opening, reading, writing, closing, syncing,
looking at, listing, renaming, linking, removing and making files and folders, their ``at``
forms given a folder's descriptor, and ``renameat2``; in the test's thread and the store's own
threads) and records the tree it leaves. Then the change runs again from the same tree once
per (call, fault): an errno (ENOSPC, EIO, EACCES, EINTR, EPERM, EROFS, EDQUOT, ENAMETOOLONG,
EXDEV, each where a file system can give it), or a short read or write. Afterwards:

- the change completed, or was refused with "The memory could not be changed: <reason>.";
- the tree (the lock file and the parse index included) is byte for byte the clean run's
  (completed) or the one before (refused), apart from the temp files the next change tidies
  away (``tests.support.faults.TIDIED``);
- no id is in two sets, and the store's picture is what a fresh store reads;
- once the fault is gone, the same change (when refused) succeeds with the clean run's result,
  and the next store's first change leaves no temp file anywhere.

The app's own state files (drafts, review marks, settings.json) are held to the same checks by
``check_writer`` (``tests.support.fault_writers``): refused there means an ``OSError`` for the
caller to report, with the tree as before.

By default the first call from each place in the code fails (``distinct_sites``: the same call
from the same three innermost lines, on a file of the same name, after the same call, once;
a place is tried by the first case in ``CASES`` that reaches it), with every kind of fault that
call can meet; ``--stress`` fails every call of every case with every fault.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.fault_cases import CASES, Case
from tests.support.fault_harness import Harness, Writer, case_params, check_writer, tried_before
from tests.support.fault_writers import WRITERS
from tests.support.faults import base_call

#: Among the suite's longest: started first (see ``tests/conftest.py``).
pytestmark = pytest.mark.slow


@pytest.fixture
def scratch(tmp_path: Path) -> Iterator[Path]:
    """Where the trees are built: in memory (``/dev/shm``) when there is one, since each case
    copies and removes a whole tree (the faults are injected, so the file system does not
    change what is tested); the test's temp folder otherwise."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path
        return
    folder = Path(tempfile.mkdtemp(prefix="oda-faults-", dir=shm))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("case", case_params(), ids=[c.name for c in CASES])
def test_every_call_failing_leaves_nothing_behind(
    case: Case, scratch: Path, monkeypatch: pytest.MonkeyPatch, stress: int
) -> None:
    known = None if stress > 1 else tried_before(case, scratch)
    harness = Harness(case, scratch, monkeypatch)
    seen = {base_call(name) for name in harness.calls}
    assert case.expects <= seen, f"the harness saw only {sorted(set(harness.calls))}"
    findings: list[str] = []
    pairs = harness.plan(stress=stress > 1, known=known)
    for at, kind in pairs:
        for problem in harness.fail(at, kind):
            findings.append(f"call {at} ({harness.calls[at - 1]}) failing with {kind.name}: {problem}")
    assert not findings, f"{len(findings)} of {len(pairs)} cases went wrong:\n" + "\n".join(findings[:8])


@pytest.mark.parametrize("writer", WRITERS, ids=[w.name for w in WRITERS])
def test_the_apps_own_files_under_every_fault(
    writer: Writer, scratch: Path, monkeypatch: pytest.MonkeyPatch, stress: int
) -> None:
    tried, findings = check_writer(writer, scratch, monkeypatch, stress=stress > 1)
    assert tried > 0
    assert not findings, f"{len(findings)} of {tried} cases went wrong:\n" + "\n".join(findings[:8])
