"""The hygiene marks: which memories are duplicates (flagged in the list) and how many wait for
review (counted in the summary). The session reads them in a worker after each new picture of
the store and publishes them on ``read`` (a Textual ``Signal``)."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from textual.app import App
from textual.signal import Signal
from textual.timer import Timer

from store import MemoryStore, Scope

from ..text.safe import clean_line

#: While the disk is busy, the marks are read once it has been quiet this long.
MARKS_QUIET_S = 0.3


@dataclass(frozen=True)
class Marks:
    """Which memories are duplicates, by scope, and how many wait for review."""

    duplicates: Mapping[Scope, frozenset[str]] = field(default_factory=lambda: MappingProxyType({}))
    to_review: int = 0
    problem: str | None = None
    """Why the review marks file was not used, if it was not."""


class HygieneMarks:
    """Reads the marks of ``store`` for the session of ``app`` (holding its ``call_lock`` for the
    store's duplicates); ``latest`` holds the last ones read (None before the first reading)."""

    def __init__(self, app: App[Any], store: MemoryStore, call_lock: threading.RLock) -> None:
        self._app = app
        self._store = store
        self._call_lock = call_lock
        #: Every new reading of the marks, on the UI thread.
        self.read: Signal[Marks] = Signal(app, "marks-read")
        self.latest: Marks | None = None
        self._timer: Timer | None = None
        self._started = False
        self._problem: str | None = None

    def schedule(self) -> None:
        """Read the marks after the frame that shows the list, and while the disk is busy, only
        once it has been quiet for a moment: they are hints, and must never delay a change."""
        app = self._app
        if not self._started:
            self._started = True
            app.call_after_refresh(self._start)
            return
        if self._timer is not None:
            self._timer.stop()
        self._timer = app.set_timer(MARKS_QUIET_S, self._start)

    def _start(self) -> None:
        self._app.run_worker(self._read, thread=True, group="marks", exclusive=True, exit_on_error=False)

    def _read(self) -> None:
        """Find the duplicate groups (the store caches them) and count the reviews."""
        from ..own_files.hygiene import duplicate_ids  # not needed for the first frame
        from ..own_files.review_marks import review_with_problem

        with self._call_lock:
            groups = self._store.duplicates()  # quick: the store memoises the normalised texts
        # Reviews read history files only, so the call lock (which outside changes wait for) is free.
        problem = None
        try:
            items, problem = review_with_problem(self._store)
            to_review = len(items)
        except OSError:
            to_review = 0
        self._app.call_later(self._publish, Marks(duplicate_ids(groups), to_review, problem))

    def _publish(self, marks: Marks) -> None:
        if marks.problem is not None and marks.problem != self._problem:
            self._problem = marks.problem  # said once, not after every snapshot
            self._app.notify(
                clean_line(f"Review marks: {marks.problem}"), severity="warning", markup=False, timeout=10
            )
        self.latest = marks
        self.read.publish(marks)
