"""Textual's command palette with F1 for help on its keys (``?`` types into its search)."""

from __future__ import annotations

from textual.command import CommandPalette, SearchIcon

from ..text.glyphs import app_words, glyph
from .actions import Place
from .bindings import apply_person_keys, bindings


class OdaCommandPalette(CommandPalette):
    """The command palette; F1 lists its keys, then the ones that work everywhere."""

    BINDINGS = bindings(Place.PALETTE)

    def __init__(self) -> None:
        super().__init__(id="--command-palette", placeholder=app_words("Search for commands…"))
        apply_person_keys(self)

    def on_mount(self) -> None:
        self.query_one(SearchIcon).icon = glyph("search")

    def action_help(self) -> None:
        """Show the palette's keys."""
        from ..screens.help import HelpScreen

        self.app.push_screen(HelpScreen.of(self.app, (Place.PALETTE, Place.APP)))
