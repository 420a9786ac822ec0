"""``?`` and F1 on a sub-screen: the help for that screen's keys, from the action registry."""

from __future__ import annotations

from typing import ClassVar

from textual.screen import Screen

from ..keys.actions import Place


class ScreenHelp(Screen[None]):
    """Mixed into a sub-screen: ``?``/F1 lists its own keys first, then the ones that work
    everywhere, each with its binding id."""

    #: The sub-screen's own place in the registry.
    HELP_PLACE: ClassVar[Place]

    def action_help(self) -> None:
        """Show this screen's keys."""
        from .help import HelpScreen

        places = (self.HELP_PLACE, Place.SCREENS, Place.APP, Place.DIALOG)
        self.app.push_screen(HelpScreen.of(self.app, places))
