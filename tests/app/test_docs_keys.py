"""The keys table of the docs' "Using the app" page names every key the registry binds (the help lists
them from it), and the README's short table names only keys the registry binds."""

from __future__ import annotations

import re
from pathlib import Path

from oda_tui.keys.actions import ACTIONS, Place

PROJECT = Path(__file__).resolve().parents[2]
APP_PAGE = PROJECT / "docs" / "app.md"
README = PROJECT / "README.md"
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


def keys_table(page: Path, start: str, end: str) -> str:
    """The text of a page's keys tables between two headings (both columns)."""
    text = page.read_text(encoding="utf-8")
    section = text[text.index(start) : text.index(end)]
    return "\n".join(line for line in section.splitlines() if line.startswith("| "))


def test_every_key_of_the_registry_is_in_the_docs() -> None:
    table = keys_table(APP_PAGE, "## Keys", "## Saving")
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


def test_the_readme_names_only_keys_the_registry_binds() -> None:
    table = keys_table(README, "## What you can do", "## The promise")
    # Ctrl+P is Textual's own: the app's command palette.
    bound = {spoken(key) for action in ACTIONS for key in action.keys.split(",")} | {"Ctrl+P"}
    written = {
        key
        for cell in re.findall(r"^\| ([^|]+) \|", table, flags=re.MULTILINE)
        for key in re.findall(r"`([^`]+)`", cell)
    }
    assert written - bound == set()
