"""The prompt shown when the open memory changed on disk while it has unsaved edits."""

from __future__ import annotations

from typing import Literal

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from ..keys.actions import Place
from ..keys.bindings import bindings
from ..text.diffing import colourless, word_diff
from ..text.glyphs import app_words
from ..text.safe import clean_line
from ..widgets.key_footer import KeyFooter
from .body import DialogBody
from .dialog import Dialog

Choice = Literal["theirs", "mine"]


def side_diff(theirs: tuple[str, str], mine: tuple[str, str]) -> Text:
    """The word diff from the text on disk to the edits, the titles first when they differ."""
    text = Text()
    if theirs[0] != mine[0]:
        text.append("Title: ", style="bold")
        text.append_text(word_diff(theirs[0], mine[0]))
        text.append("\n\n")
    if theirs[1] == mine[1]:
        text.append("(the same text)", style="dim")
    else:
        text.append_text(word_diff(theirs[1], mine[1]))
    return text


class ConflictDialog(Dialog[Choice]):
    """Offer "Reload theirs" or "Keep mine"; dismisses with "theirs" or "mine"."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS = bindings(Place.CONFLICT)
    HELP_PLACES = (Place.CONFLICT,)
    #: It opens by itself while the person may be typing: no letter reloads theirs.
    DISCARDING = frozenset({"conflict.theirs"})

    def __init__(
        self, title: str, *, theirs: tuple[str, str] | None = None, mine: tuple[str, str] | None = None
    ) -> None:
        """``theirs`` and ``mine`` are (title, text) on disk and in the editor: their diff is shown."""
        super().__init__()
        self.memory_title = title
        self.theirs = theirs
        self.mine = mine

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            with DialogBody():
                yield Static(
                    app_words(
                        f"“{clean_line(self.memory_title)}” was changed on disk by another program "
                        "while you have unsaved edits."
                    ),
                    markup=False,
                    classes="dialog-question",
                )
                yield Static(
                    "Reload theirs keeps your edits as a draft and shows theirs. Keep mine leaves your "
                    "edits on screen; saving keeps their text as a version.",
                    markup=False,
                    classes="dialog-detail",
                )
                if self.theirs is not None and self.mine is not None:
                    yield Static(
                        app_words("From theirs to yours ([-…-]: only on disk, {+…+}: only in your edits):")
                        if colourless()
                        else "From theirs to yours (red: only on disk, green: only in your edits):",
                        markup=False,
                        classes="dialog-detail",
                    )
                    # Not a scroll of its own: the whole body scrolls, so a long diff never pushes
                    # the buttons off a small screen.
                    with Vertical(id="conflict-diff"):
                        yield Static(side_diff(self.theirs, self.mine), id="conflict-diff-text", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield self.button("Reload theirs", "conflict.theirs", id="theirs", variant="warning")
                yield self.button("Keep mine", "conflict.mine", id="mine", variant="primary")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#mine", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss("theirs" if event.button.id == "theirs" else "mine")

    def action_choose(self, choice: Choice) -> None:
        """Pick one side."""
        self.dismiss(choice)
