"""The editor's text area: a paste far over the text's limit is held, not put in.

Textual lays out a soft-wrapped line again from its start for each screen line it draws, so tens
of thousands of characters on one line make every key after the paste take a visible while, for
a text the store refuses anyway. Such a paste is held and handed to the editor (``PasteHeld``),
which says so at once and offers the part that fits.
"""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.widgets import TextArea


class MemoryText(TextArea):
    """A text area that holds a paste that would take its text past ``hold_over`` characters."""

    class PasteHeld(Message):
        """A paste was held: ``text`` was not put in; ``room`` characters more fit the limit."""

        def __init__(self, text: str, kept: int) -> None:
            super().__init__()
            self.text = text
            #: The characters the text keeps once the paste replaces the selection.
            self.kept = kept

    #: A paste that would make the text longer than this is held (0: none is).
    hold_over = 0

    async def _on_paste(self, event: events.Paste) -> None:
        if self.read_only or not self.hold_over:
            return  # TextArea's own handler pastes
        start, end = sorted(self.selection)
        kept = len(self.text) - len(self.get_text_range(start, end))
        if kept + len(event.text) > self.hold_over:
            event.prevent_default()  # not TextArea's handler
            event.stop()
            self.post_message(self.PasteHeld(event.text, kept))
