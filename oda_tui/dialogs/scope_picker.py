"""Pick a target scope (Global or a workspace), for copying or moving a memory there."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from store import Scope, is_valid_key, scope_label

from ..keys.actions import Place
from ..keys.bindings import bindings
from ..text.glyphs import app_words, glyph
from ..text.safe import clean_line
from ..widgets.key_footer import KeyFooter
from ..widgets.keyed_option_list import KeyedOptionList
from .body import DialogBody
from .dialog import Dialog

# Not valid workspace keys, so they cannot clash with one.
GLOBAL_ID = ":global"
NEW_ID = ":new"
KEY_RULE = (
    "A workspace key is letters, digits, dots, underscores and hyphens, beginning with a letter "
    "or digit, at most 255 characters."
)


class ScopePicker(Dialog[tuple[Scope] | None]):
    """Dismisses with ``(scope,)`` for the chosen scope, or None when cancelled; the last choice,
    "New workspace…", asks for a key (its folder is made by the store when the memory arrives)."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS = bindings(Place.PICKER)
    HELP_PLACES = (Place.PICKER, Place.LISTS)
    #: The choices, not the question above them (focusable too, when it is long enough to scroll).
    AUTO_FOCUS = "#scope-choices"

    def __init__(self, question: str, scopes: list[Scope]) -> None:
        super().__init__()
        self.question = question
        self.scopes = scopes

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            with DialogBody():
                yield Static(app_words(clean_line(self.question)), markup=False, classes="dialog-question")
            # Docked under the question like a dialog's buttons: a long question scrolls, the
            # choices stay in view.
            with Vertical(id="scope-answer"):
                yield KeyedOptionList(
                    *(Option(Text(scope_label(s)), id=GLOBAL_ID if s is None else s) for s in self.scopes),
                    Option(Text(f"New workspace{glyph('more')}", style="italic"), id=NEW_ID),
                    id="scope-choices",
                    markup=False,
                )
                yield Input(id="new-key", placeholder="the new workspace's key, then Enter")
                yield Static("", id="new-key-problem", markup=False)
        yield KeyFooter()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        option_id = event.option.id
        if option_id == NEW_ID:
            self.add_class("-new")
            self.query_one("#new-key", Input).focus()
            return
        self.dismiss((None if option_id == GLOBAL_ID else option_id,))

    def action_pick(self) -> None:
        """Take the highlighted scope, or the new workspace's key typed (Enter, in the footer:
        before the list's and the field's own Enter, which it does for them)."""
        new_key = self.query_one("#new-key", Input)
        if new_key.has_focus:
            self._take_key(new_key.value)
        else:
            self.query_one("#scope-choices", OptionList).action_select()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._take_key(event.value)

    def _take_key(self, typed: str) -> None:
        key = typed.strip()
        if not is_valid_key(key):
            self.query_one("#new-key-problem", Static).update(KEY_RULE)
            return
        self.dismiss((key,))

    def action_cancel(self) -> None:
        """Choose nothing."""
        self.dismiss(None)
