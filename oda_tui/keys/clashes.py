"""Keys live together: which places share a screen, and a keymap's clashes on one.

A key given to two actions on one screen runs only one of them, and which one depends on the
focus; the help would list it twice. A clash is named and the person's keys of every action
in it are dropped, so the defaults (which never clash) stay for what clashes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .actions import ACTIONS, BUILT_IN_KEYS, Action, Place

#: The places whose keys are live at the same time, by the screen a person is on. The list, the
#: scopes, the filter and the editor are never focused together, so each shares the main
#: screen's keys on its own.
SCREENS: tuple[tuple[str, tuple[Place, ...]], ...] = (
    ("the main screen's list", (Place.APP, Place.MAIN, Place.LIST, Place.LISTS)),
    ("the main screen's scopes", (Place.APP, Place.MAIN, Place.LISTS)),
    ("the main screen's filter", (Place.APP, Place.MAIN, Place.FILTER)),
    ("the main screen's editor", (Place.APP, Place.MAIN, Place.EDITOR)),
    ("History", (Place.APP, Place.HISTORY, Place.SCREENS, Place.LISTS)),
    ("Recently deleted", (Place.APP, Place.DELETED, Place.SCREENS, Place.LISTS)),
    ("Problems", (Place.APP, Place.PROBLEMS, Place.SCREENS, Place.LISTS)),
    ("Duplicates", (Place.APP, Place.DUPLICATES, Place.SCREENS, Place.LISTS)),
    ("Review", (Place.APP, Place.REVIEW, Place.SCREENS, Place.LISTS)),
    ("the help", (Place.APP, Place.HELP)),
    # Over a modal screen only the app's priority keys (Ctrl+Q) work: M closes the messages.
    ("the messages", (Place.MESSAGES, Place.LISTS)),
    ("a dialog", (Place.APP, Place.DIALOG)),
    ("the quit dialog", (Place.APP, Place.DIALOG, Place.QUIT)),
    ("the conflict dialog", (Place.APP, Place.CONFLICT)),
    ("the scope picker", (Place.APP, Place.PICKER, Place.LISTS)),
)


@dataclass(frozen=True)
class Clash:
    """One key given to more than one thing on one screen."""

    key: str
    screen: str
    owners: tuple[str, ...]
    """What the key runs there: binding ids, or a built-in key's description."""
    dropped: tuple[str, ...]
    """The binding ids whose keymap entries were dropped for it."""


def keys_of(action: Action, keymap: Mapping[str, str]) -> list[str]:
    """The keys of ``action`` with ``keymap`` applied (normalised key names)."""
    return [k.strip() for k in keymap.get(action.id, action.keys).split(",") if k.strip()]


def _owners(places: tuple[Place, ...], keymap: Mapping[str, str]) -> dict[str, list[str]]:
    owners: dict[str, list[str]] = {}
    for place in places:
        # The editor's built-in keys belong to its fields: while one has the focus its own keys
        # win, as a printable key types into it, and elsewhere the action runs.
        for keys, what in BUILT_IN_KEYS.get(place, ()) if place is not Place.EDITOR else ():
            for key in keys.split(","):
                owners.setdefault(key, []).append(what)
        for action in ACTIONS:
            if action.place is place:
                for key in keys_of(action, keymap):
                    owners.setdefault(key, []).append(action.id)
    return owners


def first_clash(keymap: Mapping[str, str]) -> tuple[str, str, tuple[str, ...]] | None:
    """The first key ``keymap`` gives to two things on one screen: (key, screen, owners)."""
    for screen, places in SCREENS:
        for key, found in _owners(places, keymap).items():
            owners = tuple(dict.fromkeys(found))
            if len(owners) > 1 and any(owner in keymap for owner in owners):
                return key, screen, owners
    return None


def without_clashes(keymap: Mapping[str, str]) -> tuple[dict[str, str], list[Clash]]:
    """``keymap`` less every entry that clashes, and the clashes found. Dropping an entry
    brings its defaults back, which may clash in turn, so it repeats until none is left."""
    if not keymap:  # the defaults never clash: nothing to look for (most starts)
        return {}, []
    kept = dict(keymap)
    clashes: list[Clash] = []
    while (found := first_clash(kept)) is not None:
        key, screen, owners = found
        dropped = tuple(owner for owner in owners if owner in kept)
        for binding_id in dropped:
            del kept[binding_id]
        clashes.append(Clash(key, screen, owners, dropped))
    return kept, clashes
