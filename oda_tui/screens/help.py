"""The help screen (? and F1): the keys of where it was opened, as currently bound (remaps
included), each with its binding id; the tables come from the action registry. Under them: what
the symbols the app draws mean, where the app's own files are, and how to pick a theme."""

from __future__ import annotations

import re
from collections.abc import Iterable

from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..config.keymap import keymap_path
from ..config.paths import config_dir, state_dir
from ..config.theming import SETTINGS_FILE, user_theme_dir
from ..keys.actions import Place
from ..keys.bindings import HelpRow, apply_person_keys, bindings, help_sections, person_keymap
from ..text.glyphs import ASCII, LEGEND, UNICODE, app_words, ascii_only
from ..text.safe import clean_line
from ..widgets.key_footer import KeyFooter


def legend() -> Table:
    """The symbols the app draws, in the set in use (and their ASCII forms beside the Unicode
    ones), and what each marks."""
    table = Table(title="Symbols", title_justify="left", expand=True, box=None)
    table.add_column("Mark", style="bold", no_wrap=True)
    if not ascii_only():  # a terminal in ASCII mode cannot draw the other set
        table.add_column("In ASCII", style="bold", no_wrap=True)
    table.add_column("What it marks", ratio=1)
    for name, meaning in LEGEND:
        marks = (ASCII[name],) if ascii_only() else (UNICODE[name], ASCII[name])
        table.add_row(*(Text(mark) for mark in marks), Text(app_words(meaning)))
    return table


def own_files() -> Table:
    """Where the app keeps what is yours apart from the memories: keys, themes and state."""
    table = Table(title="The app's own files", title_justify="left", expand=True, box=None)
    table.add_column("What", no_wrap=True)
    table.add_column("Where", ratio=1, overflow="fold")
    rows = (
        ("Your keys (keymap.yaml)", keymap_path()),
        ("Your themes (*.yaml)", user_theme_dir()),
        ("The theme you chose", config_dir() / SETTINGS_FILE),
        ("Drafts, review marks, crash.log", state_dir()),
    )
    for what, path in rows:
        table.add_row(Text(what), Text(clean_line(str(path))))
    return table


#: How to change the theme (Textual's own palette command), under the files.
THEME_LINE = (
    "Themes: press Ctrl+P and type “theme”, then pick one; the app remembers it. A theme of your "
    "own is a *.yaml file in the themes folder above, with a name and its colours."
)


#: The section of the documentation's "Using the app" page (``docs/app.md``) on what a help shows:
#: the first of its places that has one names it.
DOCS_SECTIONS: dict[Place, str] = {
    Place.MAIN: "The main screen",
    Place.HISTORY: "History",
    Place.DELETED: "Recently deleted",
    Place.PROBLEMS: "Problems",
    Place.DUPLICATES: "Duplicates",
    Place.REVIEW: "Review",
    Place.MESSAGES: "The message log",
    Place.PALETTE: "The command palette",
    Place.QUIT: "Dialogs",
    Place.CONFLICT: "Dialogs",
    Place.PICKER: "Dialogs",
    Place.DIALOG: "Dialogs",
}


def docs_anchor(section: str) -> str:
    """The anchor MkDocs gives a heading (``The main screen`` -> ``the-main-screen``), as
    Python-Markdown's ``toc.slugify`` makes it."""
    kept = re.sub(r"[^\w\s-]", "", section).strip().lower()
    return re.sub(r"[-\s]+", "-", kept)


def docs_line(places: Iterable[Place]) -> str:
    """Where the documentation says more about what this help covers."""
    section = next((DOCS_SECTIONS[place] for place in places if place in DOCS_SECTIONS), "Keys")
    return (
        f"More in the documentation: Using the app, “{section}” "
        f"(docs/app.md#{docs_anchor(section)} in the source)."
    )


class HelpScreen(ModalScreen[None]):
    """Lists every key, grouped by where it works."""

    CSS_PATH = "help.tcss"
    BINDINGS = bindings(Place.HELP)

    def __init__(self, sections: list[tuple[str, list[HelpRow]]], docs: str = docs_line(())) -> None:
        super().__init__()
        apply_person_keys(self)
        self.sections = sections
        self.docs = docs

    @classmethod
    def of(cls, app: App[object], places: Iterable[Place]) -> HelpScreen:
        """The help for these places, with the keys as the app binds them now."""

        def display(key: str) -> str:
            return app.get_key_display(Binding(key, ""))

        # The keymap as the app applies it (normalised key names).
        places = tuple(places)
        return cls(help_sections(places, person_keymap(app), display), docs_line(places))

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Static(Text("Keys", style="bold"), id="help-title")
            yield Static(app_words(self.docs), classes="help-section", markup=False)
            for title, rows in self.sections:
                table = Table(title=title, title_justify="left", expand=True, box=None)
                table.add_column("Key", style="bold", no_wrap=True)
                table.add_column("What it does", ratio=1)
                table.add_column("Binding id (for a keymap)", style="dim", no_wrap=True)
                for keys, description, ident in rows:
                    table.add_row(Text(keys), Text(app_words(description)), Text(ident))
                yield Static(table, classes="help-section")
            yield Static(legend(), classes="help-section")
            yield Static(own_files(), classes="help-section")
            yield Static(app_words(THEME_LINE), classes="help-section", markup=False)
        yield KeyFooter()

    async def action_dismiss(self, result: None = None) -> None:
        """Close the help."""
        self.dismiss(None)
