"""What every dialog shares: the person's keys, and an answer taken once.

A key and a click, or two clicks, can both reach a dialog before it is gone (a busy app handles
them one after the other); the second answer must not run the caller's callback again or close
the screen under the dialog.
"""

from __future__ import annotations

from typing import TypeVar

from textual.await_complete import AwaitComplete
from textual.screen import ModalScreen

from ..keys.bindings import PersonKeys

ResultType = TypeVar("ResultType")


class Dialog(PersonKeys, ModalScreen[ResultType]):
    """A modal question whose first answer is the only one."""

    _answered = False

    def dismiss(self, result: ResultType | None = None) -> AwaitComplete:
        """Close with ``result``; once closed (or while another screen is over it), nothing."""
        if self._answered or not self.is_active:
            return AwaitComplete.nothing()
        self._answered = True
        return super().dismiss(result)
