"""The real ``oda-tui`` in tmux, a terminal emulator of its own: what a person sees is what tmux
draws (its own idea of each character's width included), read back with ``capture-pane``."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from .pty import HANG_GUARD_SECONDS, private_env

#: How often the screen is read again while waiting for something to be drawn.
POLL_S = 0.1


class Tmux:
    """One tmux server on a private socket, running one window."""

    def __init__(self, socket: Path) -> None:
        self.socket = socket

    def run(self, *args: str) -> str:
        """A tmux command on this server; its output."""
        done = subprocess.run(
            ["tmux", "-S", str(self.socket), *args], capture_output=True, text=True, check=True
        )
        return done.stdout

    def screen(self) -> list[str]:
        """The window's lines, as drawn."""
        return self.run("capture-pane", "-p", "-t", "app").splitlines()

    def wait_for(self, text: str) -> list[str]:
        """The screen, once ``text`` is on it (a hang guard, never a timed assertion)."""
        deadline = time.monotonic() + HANG_GUARD_SECONDS
        while time.monotonic() < deadline:
            lines = self.screen()
            if any(text in line for line in lines):
                return lines
            time.sleep(POLL_S)
        raise AssertionError(f"never drawn: {text!r}\n" + "\n".join(self.screen()))


@contextmanager
def app_in_tmux(tmp: Path, *args: str, size: tuple[int, int] = (120, 30)) -> Iterator[Tmux]:
    """``python -m oda_tui ARGS`` in a tmux window of ``size``, closed at the end."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    tmux = Tmux(tmp / "tmux.socket")
    env = private_env(tmp)
    command = shlex.join([sys.executable, "-m", "oda_tui", *args])
    exports = " ".join(f"{name}={shlex.quote(value)}" for name, value in env.items() if name.isidentifier())
    width, height = size
    tmux.run("-f", "/dev/null", "new-session", "-d", "-s", "app", "-x", str(width), "-y", str(height),
             f"env -i {exports} {command}")  # fmt: skip
    try:
        yield tmux
    finally:
        subprocess.run(["tmux", "-S", str(tmux.socket), "kill-server"], capture_output=True, check=False)
