"""A nearly full disk for real: every kind of change on a small tmpfs, with a little less room
left each time, held to the fault harness's checks (``tests.support.fault_harness``): the
change completed as a clean run or was refused leaving the tree as it was, apart from what the
next change tidies; no id in two sets; the next change succeeds once there is room again.

It needs a tmpfs of its own (``mount``, as root): skipped, saying why, where mounting is not
allowed. The injected faults of ``test_harness_faults`` always run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

import pytest

from tests.support.fault_cases import CASES, Case
from tests.support.fault_harness import Harness, case_params

#: How much room is left, from none up, one page at a time.
PAGE = 4096
ROOMS = range(0, 10 * PAGE, PAGE)


@pytest.fixture(scope="module")
def small_disk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A 1 MiB tmpfs mounted for this module (skipped where mounting is not allowed)."""
    mount_point = tmp_path_factory.mktemp("small-disk")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", str(mount_point)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"a small tmpfs cannot be mounted here: {done.stderr.strip() or done.returncode}")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", str(mount_point)], check=True)


def _free(path: Path) -> int:
    st = os.statvfs(path)
    return st.f_bavail * st.f_frsize


@contextmanager
def nearly_full(disk: Path, room: int) -> Iterator[None]:
    """The disk filled but for ``room`` bytes while the block runs (a file beside the store)."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.posix_fallocate(fd, 0, max(_free(disk) - room, 1))
    finally:
        os.close(fd)
    try:
        yield
    finally:
        filler.unlink()


@pytest.mark.parametrize("case", case_params(), ids=[c.name for c in CASES])
def test_a_nearly_full_disk(case: Case, small_disk: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scratch = small_disk / case.name
    scratch.mkdir()
    findings: list[str] = []
    refused = 0
    try:
        harness = Harness(case, scratch, monkeypatch)
        for room in ROOMS:
            outcome = harness.attempt(partial(nearly_full, small_disk, room))
            findings += [f"with {room} bytes left: {problem}" for problem in outcome]
            refused += harness.last_refused is not None
    finally:
        shutil.rmtree(scratch)
    assert not findings, "\n".join(findings[:8])
    if case.name == "create":  # (a restore or a purge may need no new block at all)
        assert refused > 0, "the disk never filled up: the test tried nothing"
