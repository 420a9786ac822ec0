"""The editor's raw frontmatter mode (F2): read the block from the file; the screen saves it.

A mixin of ``MemoryEditor``: the block is read in the editor's own worker, under the app's
store lock; a save goes to the screen like the form's (``FrontmatterSaveRequested``), which
runs it through the session and hands the result back (``frontmatter_saved``).
"""

from __future__ import annotations

from typing import Any

from textual import on, work
from textual.message import Message
from textual.widget import Widget

from store import StoreError
from store.model import Memory

from ..session.access import session_of
from ..text.safe import clean_block, clean_line


class FrontmatterEditing(Widget):
    """F2 in the editor: the frontmatter block as written, edited as YAML."""

    def _note_dirty(self) -> None:
        """Tell whether the edits are unsaved now (the editor defines it)."""
        raise NotImplementedError

    class FrontmatterRead(Message):
        """The block of the open memory, read from its file (or why it could not be)."""

        def __init__(self, memory_id: str, block: str | None, error: str | None, drop_edits: bool) -> None:
            super().__init__()
            self.memory_id = memory_id
            self.block = block
            self.error = error
            self.drop_edits = drop_edits

    def action_frontmatter(self) -> None:
        """Switch between the form and the frontmatter block as written (YAML)."""
        if self.raw_mode:
            if self.frontmatter.is_dirty:
                self.notify("Save the frontmatter (Ctrl+S) or revert it (Ctrl+R) first.", markup=False)
                return
            self._leave_raw()
            self.title_input.focus()
            return
        if self.memory is None or self.is_new:
            self.notify("Save the new memory first; then F2 shows its frontmatter.", markup=False)
            return
        if self.is_dirty:
            self.notify("Save your edits (Ctrl+S) or revert them (Ctrl+R) first.", markup=False)
            return
        self.read_frontmatter(self.memory)

    def _leave_raw(self) -> None:
        if self.raw_mode:
            self.set_class(False, "-raw")
            self.frontmatter.forget()
            self.text_area.read_only = False

    def _check_block(self, block: str, text: str) -> str | None:
        return self._store().check_frontmatter(block, text)

    def _store(self) -> Any:
        return session_of(self).store

    @work(thread=True, group="frontmatter", exclusive=True, exit_on_error=False)
    def read_frontmatter(self, memory: Memory, *, drop_edits: bool = False) -> None:
        """Read the open memory's block from its file (``drop_edits``: over unsaved edits to it)."""
        try:
            with session_of(self).lock:
                block = self._store().frontmatter(memory.scope, memory.id)
        except StoreError as exc:
            self.post_message(self.FrontmatterRead(memory.id, None, str(exc), drop_edits))
            return
        self.post_message(self.FrontmatterRead(memory.id, block, None, drop_edits))

    @on(FrontmatterRead)
    def _frontmatter_read(self, message: FrontmatterRead) -> None:
        memory = self.memory
        if memory is None or memory.id != message.memory_id or self.is_new:
            return
        if message.block is None:
            self.notify(clean_line(message.error or ""), severity="error", markup=False)
            return
        if self.raw_mode and self.frontmatter.is_dirty and not message.drop_edits:
            return  # typed while it was read: the edits stay, as with any change on disk
        self.frontmatter.show(message.block, memory.text, self._check_block)
        self.text_area.read_only = True  # the text below the block is kept as it is
        if not self.raw_mode:
            self.set_class(True, "-raw")
            self.frontmatter.area.focus()
        self._note_dirty()

    def frontmatter_saved(self, memory: Memory, block: str) -> None:
        """The block was written (through the session, like every save): show the memory now."""
        self.draft.memory = memory
        self.frontmatter.show(block, memory.text, self._check_block)
        self._fill(clean_line(memory.title), clean_block(memory.text), keep_cursor=True)
        self.set_enabled(memory.enabled)
        self._update_heading()
        self._update_meta()
        self._update_counters()
        self._note_dirty()
