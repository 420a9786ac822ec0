"""What every dialog shares: the person's keys, an answer taken once, and help for its keys.

A key and a click, or two clicks, can both reach a dialog before it is gone (a busy app handles
them one after the other); the second answer must not run the caller's callback again or close
the screen under the dialog.
"""

from __future__ import annotations

from typing import ClassVar, TypeVar

from textual.await_complete import AwaitComplete
from textual.screen import ModalScreen

from ..keys.actions import Place
from ..keys.bindings import apply_person_keys

ResultType = TypeVar("ResultType")


class Dialog(ModalScreen[ResultType]):
    """A modal question whose first answer is the only one."""

    #: The registry's places whose keys this dialog takes, the dialog's own first: its help lists them.
    HELP_PLACES: ClassVar[tuple[Place, ...]] = (Place.DIALOG,)

    _answered = False

    def __init__(self) -> None:
        super().__init__()
        apply_person_keys(self)

    def dismiss(self, result: ResultType | None = None) -> AwaitComplete:
        """Close with ``result``; once closed (or while another screen is over it), nothing."""
        if self._answered or not self.is_active:
            nothing: AwaitComplete = AwaitComplete.nothing()  # type: ignore[no-untyped-call]
            return nothing
        self._answered = True
        return super().dismiss(result)

    def action_help(self) -> None:
        """Show this dialog's keys, then the ones that work everywhere."""
        from ..screens.help import HelpScreen

        self.app.push_screen(HelpScreen.of(self.app, (*self.HELP_PLACES, Place.APP)))
