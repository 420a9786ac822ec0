"""Busy loops for measuring on a loaded machine: ``--busy N`` keeps N processes spinning on the
CPU while the measurements run, as two busy loops did when the MCP targets were set."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

SPIN = "while True: pass"


@contextmanager
def busy_loops(count: int) -> Iterator[None]:
    """``count`` processes spinning until the block ends (each ended by its own handle)."""
    loops = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(count)]
    try:
        yield
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
