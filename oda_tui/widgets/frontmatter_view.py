"""The frontmatter block of one memory as written in its file, edited as YAML.

Validated as the person types with the store's own problem messages; the editor saves it
through ``MemoryStore.change_frontmatter``, which keeps the text below the block byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static, TextArea

from ..text.safe import clean_block, restore_controls

#: The store's check of a block over the memory's text: its message, or None.
BlockCheck = Callable[[str, str], str | None]


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

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        #: The block as last read from the file (None until one is read).
        self.loaded: str | None = None
        self._text = ""
        self._check: BlockCheck = lambda _block, _text: None

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

    def show(self, block: str, text: str, check: BlockCheck) -> None:
        """Show a block read from the file; ``check`` is the store's check of a block."""
        self.loaded = block
        self._text = text
        self._check = check
        with self.prevent(TextArea.Changed):
            self.area.load_text(clean_block(block))
        self._validate()

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
        self.problem = self._check(self.block, self._text)

    @on(TextArea.Changed, "#frontmatter-raw")
    def _changed(self, event: TextArea.Changed) -> None:
        self._validate()
