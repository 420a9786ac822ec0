"""What every sub-screen (History, Recently deleted, Problems, Duplicates, Review) shares:
the person's keys, the session, changes run through it, and the way back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.message import Message

from store import MemoryStore
from store.model import Scope

from ..keys.bindings import PersonKeys
from ..session.access import session_of
from ..session.outcomes import Done, Refused, simple
from ..session.session import StoreSession
from ..text.safe import clean_line
from .screen_help import ScreenHelp


class OpenMemory(Message):
    """Open this memory in the main screen's editor (the app takes it there)."""

    def __init__(self, scope: Scope, memory_id: str) -> None:
        super().__init__()
        self.scope = scope
        self.memory_id = memory_id


class SubScreen(PersonKeys, ScreenHelp):
    """A full screen over the main one; ``load`` reads what it shows (again after a change)."""

    @property
    def session(self) -> StoreSession:
        """The app's store session."""
        return session_of(self)

    def load(self) -> None:
        """Read what the screen shows; called again after each change it made."""

    def run_change(self, change: Callable[[MemoryStore], Any], done: str | None = None) -> None:
        """Run a change through the session; ``done`` is said when it went through."""
        self.session.run(simple(change, done), reply_to=self)

    def on_done(self, outcome: Done) -> None:
        if outcome.text:
            self.notify(clean_line(outcome.text), markup=False)
        self.load()

    def on_refused(self, outcome: Refused) -> None:
        self.notify(clean_line(outcome.error), severity="error", markup=False, timeout=8)
        self.load()

    def open_memory(self, scope: Scope, memory_id: str) -> None:
        """Back to the main screen, with this memory open in the editor."""
        self.dismiss(None)
        self.app.post_message(OpenMemory(scope, memory_id))

    def action_close(self) -> None:
        """Back to the main screen."""
        self.dismiss(None)
