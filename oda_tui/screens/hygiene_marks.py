"""The browse pane's hygiene marks: duplicates flagged in the list, reviews counted in the
summary."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from textual import work
from textual.message import Message
from textual.timer import Timer

from store.model import Scope

from ..session.access import session_of
from ..text.glyphs import glyph
from ..text.safe import clean_line

if TYPE_CHECKING:
    from ..widgets.memory_table import MemoryTable


MARKS_QUIET_S = 0.3


class MarksRead(Message):
    """Which memories are duplicates, by scope, and how many wait for review."""

    def __init__(
        self, duplicates: dict[Scope, frozenset[str]], to_review: int, problem: str | None = None
    ) -> None:
        super().__init__()
        self.duplicates = duplicates
        self.to_review = to_review
        self.problem = problem
        """Why the review marks file was not used, if it was not."""


class HygieneMarks:
    """Mixed into the browse pane: read the marks in a worker after every snapshot."""

    duplicate_marks: Mapping[Scope, frozenset[str]] = MappingProxyType({})
    to_review = 0

    if TYPE_CHECKING:  # provided by the pane
        scope: Scope
        table: MemoryTable

        def update_summary(self) -> None: ...

    _marks_timer: Timer | None = None
    _marks_started = False
    _marks_problem: str | None = None

    def schedule_marks(self) -> None:
        """Read the marks after the frame that shows the list, and while the disk is busy, only
        once it has been quiet for a moment: they are hints, and must never delay a change."""
        if not self._marks_started:
            self._marks_started = True
            self.call_after_refresh(self.load_marks)  # type: ignore[attr-defined]
            return
        if self._marks_timer is not None:
            self._marks_timer.stop()
        self._marks_timer = self.set_timer(MARKS_QUIET_S, self.load_marks)  # type: ignore[attr-defined]

    @work(thread=True, group="marks", exclusive=True, exit_on_error=False)
    def load_marks(self) -> None:
        """Find the duplicate groups (the store caches them) and count the reviews."""
        from ..state.hygiene import duplicate_ids  # not needed for the first frame
        from ..state.review_state import review_with_problem

        session = session_of(self)  # type: ignore[arg-type]
        with session.lock:
            groups = session.store.duplicates()  # quick: the store memoises the normalised texts
        # Reviews read history files only, so the lock (which outside changes wait for) is free.
        problem = None
        try:
            items, problem = review_with_problem(session.store)
            to_review = len(items)
        except OSError:
            to_review = 0
        self.post_message(MarksRead(duplicate_ids(groups), to_review, problem))  # type: ignore[attr-defined]

    def on_marks_read(self, message: MarksRead) -> None:
        if message.problem is not None and message.problem != self._marks_problem:
            self._marks_problem = message.problem  # said once, not after every snapshot
            self.app.notify(  # type: ignore[attr-defined]
                clean_line(f"Review marks: {message.problem}"), severity="warning", markup=False, timeout=10
            )
        self.duplicate_marks = message.duplicates
        self.to_review = message.to_review
        self.show_marks()
        self.update_summary()

    def show_marks(self) -> None:
        """Mark the duplicates of the selected scope in the list."""
        self.table.mark_duplicates(self.duplicate_marks.get(self.scope, frozenset()))

    def marks_subtitle(self) -> list[str]:
        """The summary's hints about reviews and duplicates."""
        parts = []
        if self.to_review:
            parts.append(f"{self.to_review} to review (press r)")
        if self.duplicate_marks:
            parts.append(f"duplicates {glyph('duplicate')} (press D)")
        return parts
