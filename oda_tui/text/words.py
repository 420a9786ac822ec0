"""How the store's codes are said to a person: version sources, who saved a memory, on/off.

Pure Python with no UI import, so the command line and the full-screen app say the same words.
"""

from __future__ import annotations

#: How saving the edits of a memory deleted on disk ends: the store gives a new memory a new id.
CREATES_AGAIN = (
    "creates it again, as a new memory with a new id (the deleted one stays under Recently deleted)."
)

#: A version's source (the end of its name) in words, as the spec describes each one.
SOURCE_WORDS: dict[str, str] = {
    "chat": "from a chat",
    "settings": "in Settings",
    "restore": "restored",
    "undo": "undone",
    "external": "edited outside the app",
    "found": "found",
}


def source_words(source: str) -> str:
    """A version's source in words: "from a chat", "in Settings", "restored"…"""
    return SOURCE_WORDS.get(source, source)


def saved_by(source: str) -> str:
    """Who saved a memory, as a phrase: "saved by the agent" or "saved by you"."""
    return "saved by the agent" if source == "ai" else "saved by you"


def saver(source: str) -> str:
    """Who saved a memory, in one or two words for a column: "the agent" or "you"."""
    return "the agent" if source == "ai" else "you"


def on_off(enabled: bool) -> str:
    """A memory's state in a word: "on" or "off"."""
    return "on" if enabled else "off"
