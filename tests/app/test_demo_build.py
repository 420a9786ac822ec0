"""The demo's sample is written by a child process; ending the start while the app waits for
it ends the child too, so nothing writes into the folder as it is removed."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from oda_tui.demo import build
from oda_tui.demo.build import SampleBuild


def _slow_build(root: Path, _now: object) -> Path:
    time.sleep(60)  # the child stays in the middle of writing until it is stopped
    return root


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_stop_while_the_app_waits_for_the_sample_ends_the_child(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(build, "write_sample", _slow_build)
    sample = SampleBuild(tmp_path / "memory")
    pid = sample._pid
    assert pid is not None
    outcome: list[BaseException | Path] = []

    def waiting() -> None:
        try:
            outcome.append(sample.wait())
        except BaseException as exc:  # noqa: BLE001 - kept for the assertion below
            outcome.append(exc)

    waiter = threading.Thread(target=waiting)
    waiter.start()
    try:
        while waiter.is_alive() and not os.path.exists(f"/proc/{pid}/stat"):
            time.sleep(0.001)
        time.sleep(0.05)  # the waiter is in waitpid by now (were it not, stop would pass anyway)
        sample.stop()  # what the exit guard's cleanup does on a signal
        assert _gone(pid), "the child still writes the sample after stop"
        waiter.join(10)
        assert len(outcome) == 1 and isinstance(outcome[0], RuntimeError)
    finally:
        if not _gone(pid):
            os.kill(pid, signal.SIGKILL)
            waiter.join(10)
