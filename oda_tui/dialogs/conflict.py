"""The prompt shown when the open memory changed on disk while it has unsaved edits."""

from __future__ import annotations

from typing import Literal

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ..keys.actions import Place
from ..keys.bindings import PersonKeys, bindings
from ..text.safe import clean_line

Choice = Literal["theirs", "mine"]


class ConflictDialog(PersonKeys, ModalScreen[Choice]):
    """Offer "Reload theirs" or "Keep mine"; dismisses with "theirs" or "mine"."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS = bindings(Place.CONFLICT)

    def __init__(self, title: str) -> None:
        super().__init__()
        self.memory_title = title

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(
                f"“{clean_line(self.memory_title)}” was changed on disk by another program "
                "while you have unsaved edits.",
                markup=False,
                classes="dialog-question",
            )
            yield Static(
                "Reload theirs drops your edits. Keep mine leaves your edits on screen; "
                "when you save, their text is kept as a version, so nothing is lost.",
                markup=False,
                classes="dialog-detail",
            )
            with Horizontal(classes="dialog-buttons"):
                yield Button("Reload theirs", id="theirs", variant="warning")
                yield Button("Keep mine", id="mine", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#mine", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss("theirs" if event.button.id == "theirs" else "mine")

    def action_choose(self, choice: Choice) -> None:
        """Pick one side."""
        self.dismiss(choice)
