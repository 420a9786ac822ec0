"""The part of a dialog above its buttons: as tall as its text, at most the room the buttons
leave, and scrolled when taller (the buttons are docked under it, so they are never cut)."""

from __future__ import annotations

from textual.containers import VerticalScroll


class DialogBody(VerticalScroll):
    """A dialog's question and details; Tab reaches it only when it has more than it shows."""

    def allow_focus(self) -> bool:
        """Focusable (to scroll with the keys) only while part of the text is out of view."""
        return self.max_scroll_y > 0
