"""Fault-injection harness: every change, failed at each system call it makes in turn.

For each kind of change (see ``tests.support.fault_cases``), a clean run first counts the store's system
calls (see ``tests.support.faults``) and records the tree it leaves. Then the change runs again
from the same tree once per call, that call failing with ENOSPC, EIO or EACCES. Afterwards:

- the change completed, or was refused with "The memory could not be changed: <reason>.";
- the tree is byte for byte the clean run's (completed) or the one before (refused), apart
  from the temp files the next change tidies away (``tests.support.faults.TIDIED``);
- no id is in two sets, and the store's picture is what a fresh store reads;
- once the fault is gone, the same change (when refused) succeeds with the clean run's result,
  and the next store's first change leaves no temp file anywhere.

By default the first call from each place in the store fails (``distinct_sites``: the same
call from the same three innermost lines of the store, on a file of the same name, after the
same call, once), with ENOSPC, EIO and EACCES taking turns; ``--stress`` fails every call with
each of the three.
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.fault_cases import CASES, Case
from tests.support.fault_harness import Harness, case_params

#: Among the suite's longest: started first (see ``tests/conftest.py``).
pytestmark = pytest.mark.slow

ERRNOS = (errno.ENOSPC, errno.EIO, errno.EACCES)


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
    harness = Harness(case, scratch, monkeypatch)
    assert case.expects <= set(harness.calls), f"the harness saw only {sorted(set(harness.calls))}"
    findings: list[str] = []
    tried = 0
    chosen = range(1, len(harness.calls) + 1) if stress > 1 else harness.sampled
    for turn, at in enumerate(chosen):
        errnos = ERRNOS if stress > 1 else (ERRNOS[turn % len(ERRNOS)],)
        for err in errnos:
            tried += 1
            for problem in harness.fail(at, err):
                name = harness.calls[at - 1]
                findings.append(f"call {at} ({name}) failing with {errno.errorcode[err]}: {problem}")
    assert not findings, f"{len(findings)} of {tried} cases went wrong:\n" + "\n".join(findings[:8])
