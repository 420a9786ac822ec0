"""The README's keys table names every key the registry binds (the help lists them from it)."""

from __future__ import annotations

import re
from pathlib import Path

from oda_tui.keys.actions import ACTIONS, Place

README = Path(__file__).resolve().parents[2] / "README.md"
SPOKEN = {
    "slash": "/",
    "question_mark": "?",
    "exclamation_mark": "!",
    "escape": "Escape",
    "enter": "Enter",
    "delete": "Delete",
    "up": "Up",
    "down": "Down",
    "home": "Home",
    "end": "End",
    "pageup": "PageUp",
    "pagedown": "PageDown",
}
#: Places a person reaches from the main screen; dialogs and pickers explain their own keys.
DOCUMENTED = {
    Place.APP,
    Place.MAIN,
    Place.LIST,
    Place.LISTS,
    Place.FILTER,
    Place.EDITOR,
    Place.HISTORY,
    Place.DELETED,
    Place.PROBLEMS,
    Place.DUPLICATES,
    Place.REVIEW,
    Place.SCREENS,
    Place.QUIT,
    Place.MESSAGES,
}


def spoken(key: str) -> str:
    """A Textual key name as the README writes it: ``ctrl+s`` -> ``Ctrl+S``, ``f2`` -> ``F2``."""
    if key in SPOKEN:
        return SPOKEN[key]
    if key.startswith("ctrl+"):
        return "Ctrl+" + key[5:].upper()
    if re.fullmatch(r"f\d+", key):
        return key.upper()
    return key


def keys_table() -> str:
    """The text of the app's keys table (both columns)."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## The app") : text.index("## The command line")]
    return "\n".join(line for line in section.splitlines() if line.startswith("| "))


def test_every_key_of_the_registry_is_in_the_readme() -> None:
    table = keys_table()
    written = set(re.findall(r"`([^`]+)`", table))
    missing = [
        (action.id, spoken(key))
        for action in ACTIONS
        # Each of its keys; not each sub-screen's way back (Escape everywhere).
        if action.place in DOCUMENTED and action.action != "close"
        for key in action.keys.split(",")
        if spoken(key) not in written
    ]
    assert missing == []
