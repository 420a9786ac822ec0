"""Writing the demo's sample store beside the app's start: in a child process, on the other
core, while this process imports Textual (both need the interpreter: threads would take turns).
The child writes the kept sample (``template.write_sample``), its dates moved to now.

Where ``fork`` is missing or fails, the sample is written here, first.
"""

from __future__ import annotations

import os
import signal
import sys
import traceback
from datetime import UTC, datetime
from pathlib import Path

from .template import write_sample


class SampleBuild:
    """The sample store being written at ``root``; ``wait`` for it, ``stop`` to give it up."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._pid: int | None = None
        fork = getattr(os, "fork", None)
        try:
            pid = fork() if fork is not None else -1
        except OSError:
            pid = -1
        if pid == 0:  # the child: write the sample and leave, never returning into the app
            code = 1
            try:
                _plain_signals()
                write_sample(root, datetime.now(UTC))
                code = 0
            except BaseException:  # noqa: BLE001 - said on stderr; the parent reports the failure
                traceback.print_exc(file=sys.stderr)
            finally:
                os._exit(code)
        if pid > 0:
            self._pid = pid
        else:
            write_sample(root, datetime.now(UTC))

    def wait(self) -> Path:
        """The store's root once it is written; ``RuntimeError`` when it could not be."""
        pid = self._pid
        if pid is not None:
            # The child stays known to ``stop`` while this waits: a signal that ends the start
            # meanwhile must end the child before its folder is removed.
            try:
                _, status = os.waitpid(pid, 0)
                failed = os.waitstatus_to_exitcode(status) != 0
            except ChildProcessError:  # reaped by ``stop`` meanwhile: the app is ending
                failed = True
            finally:
                self._pid = None
            if failed:
                raise RuntimeError("The demo's sample store could not be written.")
        return self.root

    def stop(self) -> None:
        """End the child still writing (before its folder is removed), and reap it."""
        pid, self._pid = self._pid, None
        if pid is None:
            return
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass


def _plain_signals() -> None:
    """In the child: a signal ends it plainly (the parent's guard, inherited, would stop the
    parent's start-up, and write to the parent's wake-up pipe)."""
    for signum in (signal.SIGHUP, signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, signal.SIG_DFL)
    signal.set_wakeup_fd(-1)
