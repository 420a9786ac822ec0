"""The store's first read, started in a thread as soon as the root is known.

The command line starts it before it imports Textual and gives it a head start: a thread that
makes thousands of small reads gets the interpreter's lock back only slowly while another
thread imports, so the read goes fastest while the main thread waits. A store read within the
head start is in the app's first frame; a larger one goes on beside the app, which opens
meanwhile and shows the list when it is read. No Textual import here.
"""

from __future__ import annotations

import gc
import threading
from pathlib import Path

from store import MemoryStore, Scope

from .snapshot import Snapshot, take_snapshot


class FirstRead:
    """Reads ``root`` once in a thread, holding ``call_lock`` (the session's) meanwhile."""

    def __init__(self, root: Path, workspace: Scope = None) -> None:
        # The parse index (a cache for the next start) is written after the first frame.
        self.store = MemoryStore(Path(root), hold_index=True)
        #: Held around the app's calls to the store (see ``oda_tui.session``); the session takes it over.
        self.call_lock = threading.RLock()
        self.workspace = workspace
        self.snapshot: Snapshot | None = None
        #: Why the read failed (None when it did not).
        self.error: str | None = None
        self._done = threading.Event()
        threading.Thread(target=self._read, name="oda-first-read", daemon=True).start()

    def _read(self) -> None:
        # The read makes tens of thousands of objects and no garbage cycles: the collector
        # would only walk them again and again while they are made.
        collecting = gc.isenabled()
        gc.disable()
        try:
            with self.call_lock:
                self.snapshot = take_snapshot(self.store, self.workspace)
        except Exception as exc:  # a broken store must still show a message, not a trace
            self.error = str(exc)
        finally:
            # What was read lives as long as the app: out of the collector's sight at once, or
            # each collection while Textual is imported and the first frame is built walks
            # it all again (a tenth of a second and more at 10,000 memories; more after a warm
            # read, whose parse index leaves more young objects behind).
            gc.freeze()
            if collecting:
                gc.enable()
            self._done.set()

    @property
    def done(self) -> bool:
        """True once the read has ended (read, or failed with ``error``)."""
        return self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the read has ended (or ``timeout`` seconds passed); True when it has."""
        return self._done.wait(timeout)
