"""What every sub-screen (History, Recently deleted, Problems, Duplicates, Review) shares:
the person's keys, the session, one loader that reads what the screen shows in a worker,
changes run through the session, the help for its keys, and the way back."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Generic, TypeVar

from textual import on
from textual.message import Message
from textual.reactive import var
from textual.screen import Screen

from store import MemoryStore, Scope

from ..keys.actions import Place
from ..keys.bindings import apply_person_keys
from ..session.access import session_of
from ..session.outcomes import Done, Refused, simple
from ..session.session import StoreSession
from ..text.safe import clean_line

ContentT = TypeVar("ContentT")


class OpenMemory(Message):
    """Open this memory in the main screen's editor (the app takes it there)."""

    def __init__(self, scope: Scope, memory_id: str) -> None:
        super().__init__()
        self.scope = scope
        self.memory_id = memory_id


class Loaded(Message, Generic[ContentT], bubble=False):
    """What a sub-screen's loader read from the store, for the screen to show."""

    def __init__(self, content: ContentT) -> None:
        super().__init__()
        self.content = content


class SubScreen(Screen[None], Generic[ContentT]):
    """A full screen over the main one. ``read`` reads what it shows (in a worker, under the
    session's call lock), ``show_loaded`` shows it; ``load`` does both again after each change."""

    #: The sub-screen's own place in the registry: ``?``/F1 lists its keys first.
    HELP_PLACE: ClassVar[Place]

    #: The row under the list's cursor: the keys offered follow it (``check_action``).
    highlighted: var[int | None] = var(None, always_update=True, init=False, bindings=True)

    def __init__(self) -> None:
        super().__init__()
        apply_person_keys(self)

    @property
    def session(self) -> StoreSession:
        """The app's store session."""
        return session_of(self)

    def read(self, store: MemoryStore) -> ContentT:
        """Read what the screen shows; runs in a worker thread holding the session's call lock."""
        raise NotImplementedError

    def show_loaded(self, content: ContentT) -> None:
        """Show what ``read`` returned (on the UI thread)."""
        raise NotImplementedError

    def load(self) -> None:
        """Read what the screen shows, then show it; called again after each change it made."""
        self.run_worker(self._read_in_worker, thread=True, group="load", exclusive=True, exit_on_error=False)

    def _read_in_worker(self) -> None:
        session = self.session
        with session.call_lock:
            content = self.read(session.store)
        self.post_message(Loaded(content))

    @on(Loaded)
    def _loaded(self, message: Loaded[ContentT]) -> None:
        self.show_loaded(message.content)
        self.refresh_bindings()  # what is shown now decides the keys offered (``check_action``)

    def run_change(self, change: Callable[[MemoryStore], object], done: str | None = None) -> None:
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

    def action_help(self) -> None:
        """Show this screen's keys first, then the ones that work everywhere, each with its
        binding id."""
        from .help import HelpScreen

        places = (self.HELP_PLACE, Place.SCREENS, Place.LISTS, Place.APP, Place.DIALOG)
        self.app.push_screen(HelpScreen.of(self.app, places))
