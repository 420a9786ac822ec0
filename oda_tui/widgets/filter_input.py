"""The filter above the memory list: typing filters it, Down (or Enter) goes into the list."""

from __future__ import annotations

from textual.message import Message
from textual.widgets import Input

from ..keys.actions import Place
from ..keys.bindings import apply_person_keys, bindings


class FilterInput(Input):
    """A text field whose keys from the registry (``filter.to_list``) lead into the list."""

    BINDINGS = bindings(Place.FILTER)

    class ToList(Message):
        """The person asked to go from the filter into the list below it."""

    def __init__(self, *, id: str | None = None, placeholder: str = "") -> None:
        super().__init__(id=id, placeholder=placeholder)
        apply_person_keys(self)

    def action_to_list(self) -> None:
        """Into the list, the filter kept."""
        self.post_message(self.ToList())
