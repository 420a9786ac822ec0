"""The question before quitting with unsaved edits: save and quit, quit without saving, or stay."""

from __future__ import annotations

from textual.widgets import Button

from ..keys.actions import Place
from ..keys.bindings import bindings
from .confirm import ConfirmDialog

#: What the dialog answers: "save" (save, then quit), True (quit, edits dropped), False (stay).
QuitAnswer = str | bool


class QuitDialog(ConfirmDialog):
    """A confirmation with a third, first button: "Save and quit" (``s``)."""

    BINDINGS = bindings(Place.QUIT)
    HELP_PLACES = (Place.QUIT, Place.DIALOG)

    def on_mount(self) -> None:
        buttons = self.query_one(".dialog-buttons")
        buttons.mount(self.button("Save and quit", "quit.save", id="save", variant="primary"), before=0)
        super().on_mount()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            event.stop()
            self.dismiss("save")  # type: ignore[arg-type]
            return
        super().on_button_pressed(event)

    def action_save_and_quit(self) -> None:
        """Save the edits, then quit."""
        self.dismiss("save")  # type: ignore[arg-type]
