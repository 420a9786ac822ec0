"""What the registry builds: a place's ``BINDINGS``, a person's keys, and help rows.

The person's keymap is the app's ``person_keymap``, never Textual's own keymap. Textual drops
the keys a focused text field consumes (printable characters) from the binding chain *before*
it applies its keymap, so a binding whose default key is a letter would lose its remapped key
(``memory.new: ctrl+n``) while the filter has the focus; and it applies its keymap again on
every look at the chain, moving each remapped binding to the end (the footer then showed New
last). ``apply_person_keys`` applies the keymap once, to a node's own bindings when the node is
made, in the registry's order: a printable key types into a field, any other key runs its
action, and a remapped action keeps its place in the footer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from textual._context import NoActiveAppError
from textual.binding import Binding, BindingsMap, BindingType
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


_ORDER = {action.id: index for index, action in enumerate(ACTIONS)}


def person_keymap(app: object) -> dict[str, str]:
    """The keymap ``app`` applies (binding id -> normalised keys); {} for an app without one."""
    keymap = getattr(app, "person_keymap", None)
    return keymap if isinstance(keymap, dict) else {}


def apply_keymap(bindings_map: BindingsMap, keymap: Mapping[str, str]) -> None:
    """Apply ``keymap`` to a node's own bindings, keeping them in the registry's order."""
    if not keymap:
        return
    bindings_map.apply_keymap(dict(keymap))
    items = list(bindings_map.key_to_bindings.items())
    first = {key: min(_ORDER.get(b.id or "", len(_ORDER)) for b in found) for key, found in items}
    bindings_map.key_to_bindings = dict(sorted(items, key=lambda item: first[item[0]]))


def apply_person_keys(node: DOMNode) -> None:
    """Apply the person's keymap to the bindings of a screen or widget whose bindings come from
    the registry; called as it is made (see the module's docstring for why)."""
    try:
        app = node.app
    except NoActiveAppError:  # made outside a running app (a unit test): the default keys
        return
    apply_keymap(node._bindings, person_keymap(app))


def current_keys(action: Action, keymap: Mapping[str, str]) -> list[str]:
    """The keys that run ``action`` now: the keymap's, else the defaults."""
    return [key.strip() for key in keymap.get(action.id, action.keys).split(",") if key.strip()]


def spoken_key(app: object, action_id: str) -> str:
    """The first key that runs ``action_id`` now, as a sentence names it (``Ctrl+S``): the
    person's keymap may have moved it."""
    [action] = [a for a in ACTIONS if a.id == action_id]
    first = current_keys(action, person_keymap(app))[0]
    return "+".join(part.capitalize() if len(part) > 1 else part.upper() for part in first.split("+"))


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
