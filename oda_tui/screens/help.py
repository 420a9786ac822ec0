"""The help screen (? and F1): the keys of where it was opened, as currently bound (remaps
included), each with its binding id; the tables come from the action registry."""

from __future__ import annotations

from collections.abc import Iterable

from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..keys.actions import Place
from ..keys.bindings import HelpRow, apply_person_keys, bindings, help_sections, person_keymap
from ..text.glyphs import app_words
from ..widgets.key_footer import KeyFooter


class HelpScreen(ModalScreen[None]):
    """Lists every key, grouped by where it works."""

    CSS_PATH = "help.tcss"
    BINDINGS = bindings(Place.HELP)

    def __init__(self, sections: list[tuple[str, list[HelpRow]]]) -> None:
        super().__init__()
        apply_person_keys(self)
        self.sections = sections

    @classmethod
    def of(cls, app: App[object], places: Iterable[Place]) -> HelpScreen:
        """The help for these places, with the keys as the app binds them now."""

        def display(key: str) -> str:
            return app.get_key_display(Binding(key, ""))

        # The keymap as the app applies it (normalised key names).
        return cls(help_sections(places, person_keymap(app), display))

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Static(Text("Keys", style="bold"), id="help-title")
            for title, rows in self.sections:
                table = Table(title=title, title_justify="left", expand=True, box=None)
                table.add_column("Key", style="bold", no_wrap=True)
                table.add_column("What it does", ratio=1)
                table.add_column("Binding id (for a keymap)", style="dim", no_wrap=True)
                for keys, description, ident in rows:
                    table.add_row(Text(keys), Text(app_words(description)), Text(ident))
                yield Static(table, classes="help-section")
        yield KeyFooter()

    async def action_dismiss(self, result: None = None) -> None:
        """Close the help."""
        self.dismiss(None)
