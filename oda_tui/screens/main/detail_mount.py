"""The detail pane comes in the frame after the list's first one: the list, what a person
looks for first, is on screen sooner, and the pane (a third of the screen's widgets) follows.

Until the pane is mounted, an exit waits for the mount to end (Textual's tabs fail when their
app closes in the middle of mounting them), and nothing that needs the pane may run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from textual.app import App
from textual.css.query import NoMatches
from textual.widget import Widget


@contextmanager
def unless_closing(app: App[object]) -> Iterator[None]:
    """Run the block unless the app is closing: a lost terminal closes it at any moment, even
    between a frame and what waits for that frame, and its widgets go first."""
    try:
        yield
    except NoMatches:
        if app.is_running and not getattr(app, "_exit", False):
            raise


class DetailMount:
    """Mounts the detail pane into ``place`` after the next frame, then calls ``mounted``."""

    def __init__(self, place: Widget, mounted: Callable[[], None]) -> None:
        self._place = place
        self._mounted = mounted
        #: What waits for the mount to end (an exit asked for meanwhile); None once it ended.
        self._after: list[Callable[[], None]] | None = []
        #: What keys pressed before the pane was mounted asked for, done once it is.
        self._keys: list[Callable[[], None]] = []

    def start(self) -> None:
        """Mount the pane after the next frame (call it before anything follows the store)."""
        self._place.screen.call_after_refresh(self._mount)  # in order with the screen's own

    async def _mount(self) -> None:
        from .detail import DetailPane  # the editor's widgets are imported here, after the frame

        try:
            with unless_closing(self._place.app):
                await self._place.mount(DetailPane.with_tabs())
        finally:
            waiting, self._after = self._after or [], None
            for callback in waiting:
                callback()
        if not waiting:
            self._mounted()

    def keep_key(self, run: Callable[[], None]) -> None:
        """Keep what a key asked for until the pane is mounted (``kept_keys``)."""
        self._keys.append(run)

    def kept_keys(self) -> list[Callable[[], None]]:
        """What keys asked for before the pane was mounted, in order, handed over once."""
        kept, self._keys = self._keys, []
        return kept

    def after_mount(self, callback: Callable[[], None]) -> bool:
        """Run ``callback`` once the pane is mounted, if it is being mounted now (True); False
        when it is not (the caller goes on at once)."""
        if self._after is None:
            return False
        self._after.append(callback)
        return True
