"""What every dialog shares: the person's keys, an answer taken once, its own keys in a footer
and on its buttons, and help for them (``?`` / F1).

A key and a click, or two clicks, can both reach a dialog before it is gone (a busy app handles
them one after the other); the second answer must not run the caller's callback again or close
the screen under the dialog.

A dialog that can open by itself while the person types (the conflict prompt) names the choices
that discard text in ``DISCARDING``: no printable key answers them, whatever the keymap says,
so the next letter typed is never taken for one.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar, TypeVar

from rich.text import Text
from textual.await_complete import AwaitComplete
from textual.binding import Binding
from textual.keys import key_to_character
from textual.screen import ModalScreen
from textual.widgets import Button
from textual.widgets.button import ButtonVariant

from ..keys.actions import BY_ID, Place
from ..keys.bindings import apply_person_keys, bindings, current_keys, person_keymap

ResultType = TypeVar("ResultType")


def is_typed(key: str) -> bool:
    """True for a key that types a character into a text field (``r``, ``!``, space)."""
    character = key_to_character(key)
    return character is not None and character.isprintable()


class Dialog(ModalScreen[ResultType]):
    """A modal question whose first answer is the only one, with the person's keys."""

    BINDINGS = bindings(Place.EVERY_DIALOG)
    #: The registry's places whose keys this dialog takes, its own first: its help lists them.
    HELP_PLACES: ClassVar[tuple[Place, ...]] = ()
    #: The binding ids of choices that discard text, which no printable key may answer.
    DISCARDING: ClassVar[frozenset[str]] = frozenset()

    _answered = False

    def __init__(self, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name, id, classes)
        apply_person_keys(self)
        self._unbind_typed_discards()

    def _unbind_typed_discards(self) -> None:
        """No printable key answers a choice in ``DISCARDING`` (a keymap may have put one there)."""
        key_map = self._bindings.key_to_bindings
        for key in list(key_map):
            if is_typed(key):
                kept = [b for b in key_map[key] if b.id not in self.DISCARDING]
                if kept:
                    key_map[key] = kept
                else:
                    del key_map[key]

    def key_of(self, action_id: str) -> str:
        """The first key that runs the registry's action here, as a person reads it (``y``)."""
        keys = current_keys(BY_ID[action_id], person_keymap(self.app))
        if action_id in self.DISCARDING:
            keys = [key for key in keys if not is_typed(key)]
        return self.app.get_key_display(Binding(keys[0], "")) if keys else ""

    def button(self, label: str, action_id: str, *, id: str, variant: ButtonVariant = "default") -> Button:
        """A button whose label starts with the key that presses it too."""
        return Button(Text.assemble((self.key_of(action_id), "bold"), " ", label), variant, id=id)

    def name_keys(self, labels: dict[str, str]) -> None:
        """Show these actions (binding id: label) in the footer under the labels of this dialog's
        buttons, so the footer and the buttons say the same."""
        for key, key_bindings in self._bindings.key_to_bindings.items():
            self._bindings.key_to_bindings[key] = [
                dataclasses.replace(b, description=labels[b.id]) if b.id in labels else b
                for b in key_bindings
            ]

    def dismiss(self, result: ResultType | None = None) -> AwaitComplete:
        """Close with ``result``; once closed (or while another screen is over it), nothing."""
        if self._answered or not self.is_active:
            nothing: AwaitComplete = AwaitComplete.nothing()  # type: ignore[no-untyped-call]
            return nothing
        self._answered = True
        return super().dismiss(result)

    def action_help(self) -> None:
        """Show this dialog's keys, then the ones that work in every dialog and everywhere."""
        from ..screens.help import HelpScreen

        places = (*self.HELP_PLACES, Place.EVERY_DIALOG, Place.APP)
        self.app.push_screen(HelpScreen.of(self.app, places))
