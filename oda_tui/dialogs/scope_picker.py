"""Pick a target scope (Global or a workspace), for copying or moving a memory there."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from store import scope_label
from store.model import Scope

from ..keys.actions import Place
from ..keys.bindings import PersonKeys, bindings
from ..text.safe import clean_line

# Not a valid workspace key, so it cannot clash with one.
GLOBAL_ID = ":global"


class ScopePicker(PersonKeys, ModalScreen[tuple[Scope] | None]):
    """Dismisses with ``(scope,)`` for the chosen scope, or None when cancelled."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS = bindings(Place.PICKER)

    def __init__(self, question: str, scopes: list[Scope]) -> None:
        super().__init__()
        self.question = question
        self.scopes = scopes

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(clean_line(self.question), markup=False, classes="dialog-question")
            yield OptionList(
                *(Option(Text(scope_label(s)), id=GLOBAL_ID if s is None else s) for s in self.scopes),
                id="scope-choices",
                markup=False,
            )

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        option_id = event.option.id
        self.dismiss((None if option_id == GLOBAL_ID else option_id,))

    def action_cancel(self) -> None:
        """Choose nothing."""
        self.dismiss(None)
