"""The message log (``M``): every notice the app showed while it runs, newest first, with the
time it came; a list, so the keys of every list move in it."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static
from textual.widgets.option_list import Option

from ..keys.actions import Place
from ..keys.bindings import apply_person_keys, bindings
from ..session.message_log import Notice
from ..text.glyphs import app_words, glyph
from ..text.safe import clean_block
from ..widgets.key_footer import KeyFooter
from ..widgets.wrapping_option_list import WrappingOptionList

#: How each severity is marked, and its style.
MARKS = {"warning": ("warning", "bold yellow"), "error": ("error", "bold red")}


def notice_line(notice: Notice) -> Text:
    """One notice as the log lists it: its time, how serious it was, its title and its words."""
    line = Text(notice.at.strftime("%H:%M:%S"), style="dim")
    mark = MARKS.get(notice.severity)
    if mark is not None:
        line.append(f" {glyph('problem')} {mark[0]}", style=mark[1])
    line.append("  ")
    if notice.title:
        line.append(clean_block(notice.title) + ": ", style="bold")
    line.append(clean_block(notice.message))
    return line


class MessagesScreen(ModalScreen[None]):
    """The notices so far, newest first."""

    CSS_PATH = "messages.tcss"
    BINDINGS = bindings(Place.MESSAGES)

    def __init__(self, notices: Iterable[Notice]) -> None:
        super().__init__()
        apply_person_keys(self)
        self.notices = list(notices)

    def compose(self) -> ComposeResult:
        with Vertical(id="messages-body"):
            if self.notices:
                yield WrappingOptionList(
                    *(Option(notice_line(notice)) for notice in self.notices),
                    id="messages-list",
                    markup=False,
                )
            else:
                yield Static(
                    app_words("No messages yet: each notice the app shows is kept here."),
                    id="messages-empty",
                    markup=False,
                )
        yield KeyFooter()

    def on_mount(self) -> None:
        body = self.query_one("#messages-body")
        body.border_title = app_words(f"Messages, newest first {glyph('dot')} {len(self.notices)}")

    async def action_dismiss(self, result: None = None) -> None:
        """Close the messages."""
        self.dismiss(None)
