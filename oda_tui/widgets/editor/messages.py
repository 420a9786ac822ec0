"""What the memory editor tells its screen: save these values (or this frontmatter block), and
whether it has unsaved edits."""

from __future__ import annotations

from textual.message import Message

from store import Scope


class SaveRequested(Message):
    """Save these values: a change when ``memory_id`` is set, else a new memory."""

    def __init__(self, scope: Scope, memory_id: str | None, title: str, text: str, enabled: bool) -> None:
        super().__init__()
        self.scope = scope
        self.memory_id = memory_id
        self.title = title
        self.text = text
        self.enabled = enabled

    @property
    def sent(self) -> tuple[str, str]:
        """The title and text sent, which the editor compares with what it shows after the save."""
        return self.title, self.text


class FrontmatterSaveRequested(Message):
    """Save this frontmatter block over the memory's text, kept byte for byte (F2)."""

    def __init__(self, scope: Scope, memory_id: str, block: str) -> None:
        super().__init__()
        self.scope = scope
        self.memory_id = memory_id
        self.block = block


class DirtyChanged(Message):
    """The editor gained or lost unsaved edits."""

    def __init__(self, dirty: bool) -> None:
        super().__init__()
        self.dirty = dirty
