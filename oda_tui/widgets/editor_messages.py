"""What the memory editor tells its screen: save these values, and whether it has unsaved edits."""

from __future__ import annotations

from textual.message import Message

from store.model import Scope


class SaveRequested(Message):
    """Save these values: a change when ``memory_id`` is set, else a new memory."""

    def __init__(self, scope: Scope, memory_id: str | None, title: str, text: str, enabled: bool) -> None:
        super().__init__()
        self.scope = scope
        self.memory_id = memory_id
        self.title = title
        self.text = text
        self.enabled = enabled


class DirtyChanged(Message):
    """The editor gained or lost unsaved edits."""

    def __init__(self, dirty: bool) -> None:
        super().__init__()
        self.dirty = dirty
