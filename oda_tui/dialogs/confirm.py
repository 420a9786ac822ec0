"""A yes/no question as a modal screen; dismisses with True for yes."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from ..keys.actions import Place
from ..keys.bindings import bindings
from ..text.glyphs import app_words
from ..text.safe import clean_block
from ..widgets.key_footer import KeyFooter
from .body import DialogBody
from .dialog import Dialog


class ConfirmDialog(Dialog[bool]):
    """Ask before something that loses work; the question may quote user text safely."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS = bindings(Place.DIALOG)
    HELP_PLACES: ClassVar[tuple[Place, ...]] = (Place.DIALOG,)

    def __init__(
        self,
        question: str,
        *,
        yes: str = "Yes",
        no: str = "Cancel",
        danger: bool = True,
        detail: str = "",
    ) -> None:
        super().__init__()
        self.question = question
        self.detail = detail
        self.yes_label = yes
        self.no_label = no
        self.danger = danger
        self.name_keys({"dialog.yes": yes, "dialog.no": no})

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            with DialogBody():
                yield Static(app_words(clean_block(self.question)), markup=False, classes="dialog-question")
                if self.detail:
                    yield Static(app_words(clean_block(self.detail)), markup=False, classes="dialog-detail")
            with Horizontal(classes="dialog-buttons"):
                yield self.button(
                    self.yes_label, "dialog.yes", id="yes", variant="error" if self.danger else "primary"
                )
                yield self.button(self.no_label, "dialog.no", id="no")
        yield KeyFooter()

    def on_mount(self) -> None:
        # The safe choice has the focus, so a stray Enter does not lose anything.
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_confirm(self) -> None:
        """Answer yes."""
        self.dismiss(True)

    def action_cancel(self) -> None:
        """Answer no."""
        self.dismiss(False)
