"""Ending the app's process when its terminal is lost or it is told to stop, whatever the
app's own shutdown does.

A hang-up (SIGHUP: the terminal window closed, tmux killed the session, SSH dropped), a
SIGTERM, or a terminal that answers EIO asks the app to quit the normal way. Textual's
shutdown can then hang on the dead terminal (its writer queue full, its reader spinning on
EOF), so a watchdog thread cleans up and ends the process hard after a short grace period.
"""

from __future__ import annotations

import errno
import os
import select
import signal
import termios
import threading
import time
from collections.abc import Callable
from typing import Any

#: The signals that end the app.
SIGNALS = (signal.SIGHUP, signal.SIGTERM)
#: How long the app's own shutdown may take once asked, before the process ends hard.
GRACE_SECONDS = 1.0
#: How often the watchdog checks that the terminal is still there.
POLL_SECONDS = 0.5
#: What puts a terminal back after an app that was stopped hard: the keyboard protocol, mouse
#: reports, focus reports, bracketed paste and the alternate screen off, line wrap and the
#: cursor back on.
_TERMINAL_RESET = (
    "\x1b[<u\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?1004l\x1b[?2004l\x1b[?7h\x1b[?1049l\x1b[?25h"
)
# A terminal that is gone answers these; anything else (e.g. a stopped job) is not a loss.
_LOST = frozenset({errno.EIO, errno.ENXIO, errno.EBADF, errno.ENOTTY})


def _nothing() -> None:
    return None


class ExitGuard:
    """Watch for SIGHUP, SIGTERM and a lost terminal; then quit, clean up, and end the process.

    ``request_exit`` is called (from a thread of its own) to ask the app to quit; ``cleanup``
    runs exactly once, either by ``cleanup_now()`` on the normal way out or by the watchdog
    before it ends the process. Install it from the main thread before the app runs; it stays
    on until the process ends, so a hang-up while cleaning up is covered too.
    """

    def __init__(
        self,
        request_exit: Callable[[], None],
        cleanup: Callable[[], None] = _nothing,
        *,
        grace: float = GRACE_SECONDS,
        poll: float = POLL_SECONDS,
    ) -> None:
        self._request_exit = request_exit
        self._cleanup = cleanup
        self._grace = grace
        self._poll = poll
        self._cleanup_lock = threading.Lock()
        self._cleaned = False
        self._read_fd = -1
        self._write_fd = -1
        self._tty_fd: int | None = None
        self._tty_attrs: list[Any] | None = None
        #: The signal that ended the app (SIGHUP for a lost terminal), else None.
        self.signum: int | None = None

    def install(self) -> None:
        """Catch the signals and start the watchdog (call from the main thread)."""
        self._read_fd, self._write_fd = os.pipe()
        os.set_blocking(self._write_fd, False)
        self._tty_fd, self._tty_attrs = _terminal()
        for signum in SIGNALS:
            signal.signal(signum, self._on_signal)
        # The C-level handler writes the signal's number to the pipe at once, even while the
        # main thread is stuck where a Python handler would not run.
        try:
            signal.set_wakeup_fd(self._write_fd, warn_on_full_buffer=False)
        except ValueError:  # not the main thread: the Python handler below still writes
            pass
        threading.Thread(target=self._watch, name="oda-exit-guard", daemon=True).start()

    def exit_code(self) -> int:
        """128 + the signal that ended the app (SIGHUP when its terminal is gone), else 0."""
        if self.signum is None and self._terminal_lost():
            self.signum = signal.SIGHUP
        return 0 if self.signum is None else 128 + self.signum

    def cleanup_now(self) -> None:
        """Run the cleanup (once), on the normal way out."""
        with self._cleanup_lock:
            self._run_cleanup()

    def _run_cleanup(self) -> None:
        if not self._cleaned:
            self._cleaned = True
            try:
                self._cleanup()
            except Exception:  # the process is ending: nothing may stop it
                pass

    def _on_signal(self, signum: int, _frame: object) -> None:
        # Only async-signal-safe work here: the main thread may be anywhere in Textual.
        self.signum = self.signum or signum
        try:
            os.write(self._write_fd, bytes([signum]))
        except OSError:
            pass

    def _watch(self) -> None:
        signum = self._wait_for_the_end()
        self.signum = self.signum or signum
        threading.Thread(target=self._ask_to_quit, name="oda-exit-request", daemon=True).start()
        time.sleep(self._grace)
        # Still here: the app's shutdown hangs (or is slow). Clean up and end the process.
        if self._cleanup_lock.acquire(timeout=self._grace):
            self._run_cleanup()
        else:  # the main thread is stuck inside the cleanup: finish it from here
            self._run_cleanup_anyway()
        if signum == signal.SIGTERM:
            self._restore_terminal()
        os._exit(128 + signum)

    def _run_cleanup_anyway(self) -> None:
        try:
            self._cleanup()
        except Exception:
            pass

    def _wait_for_the_end(self) -> int:
        """Block until SIGHUP or SIGTERM arrives or the terminal is gone; the signal's number."""
        while True:
            ready, _, _ = select.select([self._read_fd], [], [], self._poll)
            if ready:
                for byte in os.read(self._read_fd, 64):
                    if byte in SIGNALS:
                        return byte
            elif self._terminal_lost():
                return signal.SIGHUP

    def _terminal_lost(self) -> bool:
        if self._tty_fd is None:
            return False
        try:
            termios.tcgetattr(self._tty_fd)
        except termios.error as exc:
            return bool(exc.args) and exc.args[0] in _LOST
        return False

    def _ask_to_quit(self) -> None:
        try:
            self._request_exit()
        except Exception:  # the app is not running (any more): the watchdog ends it
            pass

    def _restore_terminal(self) -> None:
        """Put a terminal that is still there back as it was (best effort, never blocking long)."""
        if self._tty_fd is None:
            return
        fd = self._tty_fd

        def restore() -> None:
            # A job in the background may still reset its terminal: SIGTTOU is blocked here.
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTTOU, signal.SIGTTIN})
            try:
                if self._tty_attrs is not None:
                    termios.tcsetattr(fd, termios.TCSANOW, self._tty_attrs)
                os.write(fd, _TERMINAL_RESET.encode())
            except OSError:
                pass

        writer = threading.Thread(target=restore, name="oda-exit-restore", daemon=True)
        writer.start()
        writer.join(timeout=0.5)


def _terminal() -> tuple[int | None, list[Any] | None]:
    """The terminal the app draws on (stdin's, as Textual reads keys there) and its settings."""
    for fd in (0, 1, 2):
        try:
            if os.isatty(fd):
                return fd, termios.tcgetattr(fd)
        except (OSError, termios.error):
            continue
    return None, None
