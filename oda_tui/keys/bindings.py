"""What the registry builds: a place's ``BINDINGS``, a person's keys, and help rows.

Textual drops the keys a focused text field consumes (printable characters) from the binding
chain *before* it applies the app's keymap, so a binding whose default key is a letter loses
its remapped key (``memory.new: ctrl+n``) while the filter has the focus. ``apply_person_keys``
applies the keymap to a node's own bindings when the node is made, so Textual filters the keys a
person actually uses: a printable key types into the field, any other key runs its action.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from textual._context import NoActiveAppError
from textual.binding import Binding, BindingType
from textual.dom import DOMNode

from .actions import ACTIONS, BUILT_IN_KEYS, Action, Place

#: A help row: (keys as bound, what it does, binding id).
HelpRow = tuple[str, str, str]


def actions_in(place: Place) -> tuple[Action, ...]:
    """The actions of one place, in registry order."""
    return tuple(action for action in ACTIONS if action.place is place)


def bindings(place: Place) -> list[BindingType]:
    """The ``BINDINGS`` of the node that serves ``place``, with the default keys."""
    return [
        Binding(a.keys, a.action, a.label, show=a.show, priority=a.priority, id=a.id)
        for a in actions_in(place)
    ]


def palette_actions() -> tuple[Action, ...]:
    """The actions the command palette offers, in registry order."""
    return tuple(action for action in ACTIONS if action.palette)


def apply_person_keys(node: DOMNode) -> None:
    """Apply the person's keymap to the bindings of a screen or widget whose bindings come from
    the registry; called as it is made (see the module's docstring for why)."""
    try:
        keymap = node.app._keymap
    except NoActiveAppError:  # made outside a running app (a unit test): the default keys
        return
    if keymap:
        node._bindings.apply_keymap(keymap)


def current_keys(action: Action, keymap: Mapping[str, str]) -> list[str]:
    """The keys that run ``action`` now: the keymap's, else the defaults."""
    return [key.strip() for key in keymap.get(action.id, action.keys).split(",") if key.strip()]


def help_rows(place: Place, keymap: Mapping[str, str], display: Callable[[str], str]) -> list[HelpRow]:
    """A place's rows for the help screen, with the keys as currently bound.

    ``display`` turns a key name into what a person reads (``question_mark`` -> ``?``).
    """

    def shown(keys: Iterable[str]) -> str:
        return " / ".join(dict.fromkeys(display(key.strip()) for key in keys))

    rows: list[HelpRow] = [(shown(keys.split(",")), what, "") for keys, what in BUILT_IN_KEYS.get(place, ())]
    for action in actions_in(place):
        rows.append((shown(current_keys(action, keymap)), action.label, action.id))
    return rows


def help_sections(
    places: Iterable[Place], keymap: Mapping[str, str], display: Callable[[str], str]
) -> list[tuple[str, list[HelpRow]]]:
    """One titled table of rows per place."""
    return [(place.value, help_rows(place, keymap, display)) for place in places]
