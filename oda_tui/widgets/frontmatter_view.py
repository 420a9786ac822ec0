"""The frontmatter block of one memory as written in its file, edited as YAML (F2 in the editor).

The view reads the block from the file in its own worker under the session's call lock, and
validates it as the person types with the store's own problem messages. A save goes like the form's: the
editor asks the detail pane (``FrontmatterSaveRequested``), which runs one
``MemoryStore.change_frontmatter`` through the session (the text below the block kept byte for
byte, secret-looking text a question) and hands the result back (``saved``).
"""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Static, TextArea

from store import Memory, StoreError

from ..session.access import session_of
from ..text.safe import clean_block, restore_controls


class FrontmatterView(Vertical):
    """A YAML text area for the block, with the store's message for what is wrong with it."""

    DEFAULT_CSS = """
    FrontmatterView {
        height: auto;
        max-height: 50%;
    }
    FrontmatterView #frontmatter-raw {
        height: auto;
        min-height: 4;
        max-height: 16;
    }
    FrontmatterView #frontmatter-problem {
        height: auto;
        color: $error;
        text-style: bold;
    }
    """

    class Read(Message):
        """The block of ``memory``, read from its file (or why it could not be); the editor
        shows it unless another memory is open by now."""

        def __init__(self, memory: Memory, block: str | None, error: str | None, drop_edits: bool) -> None:
            super().__init__()
            self.memory = memory
            self.block = block
            self.error = error
            self.drop_edits = drop_edits

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        #: The block as last read from the file (None until one is read).
        self.loaded: str | None = None
        self._text = ""

    def compose(self) -> ComposeResult:
        yield Static(
            "Frontmatter, as written in the file (YAML). F2: back to the form.",
            id="frontmatter-head",
            markup=False,
        )
        # Numbered as in the file (the block starts on line 2), so a YAML message's line matches.
        yield TextArea(
            id="frontmatter-raw",
            soft_wrap=True,
            tab_behavior="indent",
            show_line_numbers=True,
            line_number_start=2,
        )
        yield Static("", id="frontmatter-problem", markup=False)

    @property
    def area(self) -> TextArea:
        return self.query_one("#frontmatter-raw", TextArea)

    # -- reading and writing ------------------------------------------------------------------

    @work(thread=True, group="frontmatter", exclusive=True, exit_on_error=False)
    def read(self, memory: Memory, *, drop_edits: bool = False) -> None:
        """Read ``memory``'s block from its file (``drop_edits``: over unsaved edits to it)."""
        session = session_of(self)
        try:
            with session.call_lock:
                block = session.store.frontmatter(memory.scope, memory.id)
        except StoreError as exc:
            self.post_message(self.Read(memory, None, str(exc), drop_edits))
            return
        self.post_message(self.Read(memory, block, None, drop_edits))

    # -- what is shown --------------------------------------------------------------------------

    def show(self, block: str, text: str) -> None:
        """Show a block read from the file over the memory's ``text``."""
        self.loaded = block
        self._text = text
        with self.prevent(TextArea.Changed):
            self.area.load_text(clean_block(block))
        self._validate()

    def saved(self, block: str, memory: Memory) -> None:
        """The block was written (by the detail pane, through the session): show it over the
        memory's text as the store has it now."""
        self.show(block, memory.text)

    def revert(self) -> None:
        """Back to the block as last read."""
        if self.loaded is not None:
            self.show(self.loaded, self._text)

    def forget(self) -> None:
        """No block shown (another memory was opened)."""
        self.loaded = None
        with self.prevent(TextArea.Changed):
            self.area.load_text("")
        self.problem = None

    @property
    def block(self) -> str:
        """The block as typed, control characters of the file kept as they were."""
        return restore_controls(self.area.text, self.loaded or "")

    @property
    def is_dirty(self) -> bool:
        """True when the typed block differs from the one read."""
        return self.loaded is not None and self.area.text != clean_block(self.loaded)

    @property
    def problem(self) -> str | None:
        """The message shown under the block, if any."""
        text = str(self.query_one("#frontmatter-problem", Static).content)
        return text or None

    @problem.setter
    def problem(self, message: str | None) -> None:
        self.query_one("#frontmatter-problem", Static).update(message or "")

    def _validate(self) -> None:
        self.problem = session_of(self).store.check_frontmatter(self.block, self._text)

    @on(TextArea.Changed, "#frontmatter-raw")
    def _changed(self, event: TextArea.Changed) -> None:
        self._validate()
