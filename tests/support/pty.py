"""Running the real ``oda-tui`` process on a pseudo-terminal a test owns, and closing it."""

from __future__ import annotations

import fcntl
import os
import select
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

#: Only a guard against a hang: a test waits for evidence, never for a fixed time.
HANG_GUARD_SECONDS = 120.0


def private_env(tmp: Path) -> dict[str, str]:
    """An environment whose home, config, state and temporary folders are all under ``tmp``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ODA_", "XDG_"))}
    for name in ("home", "tmp"):
        (tmp / name).mkdir(parents=True, exist_ok=True)
    env.update(
        HOME=str(tmp / "home"),
        TMPDIR=str(tmp / "tmp"),
        XDG_CONFIG_HOME=str(tmp / "home" / ".config"),
        XDG_STATE_HOME=str(tmp / "home" / ".local" / "state"),
        XDG_DATA_HOME=str(tmp / "home" / ".local" / "share"),
        TERM="xterm-256color",
    )
    return env


class PtyProcess:
    """``python -m oda_tui ARGS`` on a new pseudo-terminal, its output drained into ``output``.

    With ``controlling`` (the default) the terminal is the process's controlling terminal, so
    closing it sends SIGHUP as a closed window or a dropped SSH session does; without it the
    process only finds reads and writes failing with EIO.
    """

    def __init__(
        self,
        args: list[str],
        env: dict[str, str],
        *,
        controlling: bool = True,
        size: tuple[int, int] = (100, 30),
        script: str | None = None,
    ) -> None:
        """``script``, when given, is run with ``python -c`` instead of ``-m oda_tui`` (with
        ``args`` as its ``sys.argv[1:]``): a test's own way in to the real process."""
        self._master, slave = os.openpty()
        columns, lines = size
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
        self.process = subprocess.Popen(
            [sys.executable, *(["-c", script] if script is not None else ["-m", "oda_tui"]), *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,
            preexec_fn=_take_terminal if controlling else None,
        )
        os.close(slave)
        self._output = bytearray()
        self._changed = threading.Condition()
        self._close = threading.Event()
        self._drain = threading.Thread(target=self._drain_output, daemon=True)
        self._drain.start()

    @property
    def output(self) -> bytes:
        with self._changed:
            return bytes(self._output)

    def wait_for_output(self, text: bytes) -> None:
        """Block until ``text`` has been written to the terminal (or the process ended)."""
        deadline = time.monotonic() + HANG_GUARD_SECONDS
        with self._changed:
            while text not in self._output and self.process.poll() is None and time.monotonic() < deadline:
                self._changed.wait(0.5)
        assert text in self.output, (text, self.output[-2000:])

    def send(self, data: bytes) -> None:
        """Type ``data`` on the terminal, as a person at the keyboard does."""
        view = memoryview(data)
        while view:
            view = view[os.write(self._master, view) :]

    def hang_up(self) -> None:
        """Close the terminal, as closing its window does."""
        self._close.set()
        self._drain.join(HANG_GUARD_SECONDS)

    def terminate(self) -> None:
        """SIGTERM, with the terminal still there."""
        self.process.send_signal(signal.SIGTERM)

    def wait(self) -> int | None:
        """The exit code, or None when the process still runs after the hang guard (then killed)."""
        try:
            return self.process.wait(HANG_GUARD_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None
        finally:
            self.hang_up()

    def _drain_output(self) -> None:
        try:
            while not self._close.is_set():
                ready, _, _ = select.select([self._master], [], [], 0.05)
                if not ready:
                    continue
                try:
                    data = os.read(self._master, 65536)
                except OSError:  # EIO: every writer of the terminal is gone
                    data = b""
                if not data:
                    with self._changed:
                        self._changed.notify_all()
                    self._close.wait()
                    break
                with self._changed:
                    self._output += data
                    self._changed.notify_all()
        finally:
            os.close(self._master)


def _take_terminal() -> None:
    # In the child, after setsid: the terminal on stdin becomes the controlling terminal.
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
