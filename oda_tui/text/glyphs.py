"""The symbols the app draws, with a plain ASCII stand-in for terminals that cannot show them.

The Linux console (``TERM=linux``) and non-UTF-8 locales show ``⭘ ⚠ ≡ ≈ ⏎ ▊`` as boxes or
nothing; there the app draws ``* ! = ~ Enter |`` instead. ``ODA_TUI_ASCII=1`` forces the ASCII
set, ``ODA_TUI_ASCII=0`` the Unicode one.
"""

from __future__ import annotations

import locale
import os
from collections.abc import Mapping

UNICODE: Mapping[str, str] = {
    "app": "⭘",
    "problem": "⚠",
    "duplicate": "≡",
    "about": "≈",
    "enter": "⏎",
    "settings": "⚙",
    "secret": "✱",
    "draft": "●",
    "ignored": "·",
    "dot": "·",
    "dash": "—",
    "more": "…",
    "search": "🔎",
}

ASCII: Mapping[str, str] = {
    "app": "*",
    "problem": "!",
    "duplicate": "=",
    "about": "~",
    "enter": "Enter",
    "settings": "#",
    "secret": "$",
    "draft": "*",
    "ignored": "-",
    "dot": "-",
    "dash": "-",
    "more": "...",
    "search": ">",
}

#: What the marks drawn in the app's lists and lines mean, for the help's legend, by name above.
LEGEND: tuple[tuple[str, str], ...] = (
    ("problem", "a problem file, not used as a memory (press ! to see it); beside a scope, how many it has"),
    ("duplicate", "a duplicate: a chat receives the same memory twice (press D)"),
    ("draft", "unsaved edits in the editor (Ctrl+S saves them)"),
    ("secret", "text that looks like a secret (a warning under !: such a memory is still sent)"),
    ("settings", "a problem in settings.yaml (under !)"),
    (
        "ignored",
        "under !, a file that is not a memory and is ignored; elsewhere it separates the parts of a line",
    ),
    ("about", "about: an estimate of tokens, four characters to a token"),
)

# Terminals known to lack the symbols above whatever the locale says.
_ASCII_TERMS = ("linux", "vt100", "vt102", "vt220", "dumb", "cons25")


def terminal_is_ascii(environ: Mapping[str, str] | None = None) -> bool:
    """True when the terminal is not expected to show the app's Unicode symbols."""
    env = os.environ if environ is None else environ
    forced = env.get("ODA_TUI_ASCII", "").strip().lower()
    if forced in ("1", "yes", "true", "on"):
        return True
    if forced in ("0", "no", "false", "off"):
        return False
    if env.get("TERM", "").lower().startswith(_ASCII_TERMS):
        return True
    # The locale the person set, in POSIX order: Python's UTF-8 mode reports UTF-8 under
    # LC_ALL=C whatever the terminal can show, so the variables are read themselves.
    for name in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = env.get(name, "")
        if value:
            return not _names_utf8(value.rpartition(".")[2]) or value in ("C", "POSIX")
    return not _names_utf8(locale.getpreferredencoding(False))


def _names_utf8(encoding: str) -> bool:
    return encoding.split("@")[0].lower().replace("-", "").replace("_", "") in ("utf8", "utf16", "utf32")


_ascii = terminal_is_ascii()


def use_ascii(on: bool) -> None:
    """Switch between the ASCII and the Unicode set (start-up decides; tests switch)."""
    global _ascii
    _ascii = on


def ascii_only() -> bool:
    """True when the ASCII set is in use."""
    return _ascii


def glyph(name: str) -> str:
    """The symbol called ``name`` in the set in use."""
    return (ASCII if _ascii else UNICODE)[name]


#: The punctuation of the app's own sentences, with its ASCII stand-in: the quotation marks
#: around a quoted title, the ``·``, ``—`` and ``…`` of the set above, arrows and marks.
_PUNCTUATION = str.maketrans(
    {
        "\u201c": '"',  # “
        "\u201d": '"',  # ”
        "\u2018": "'",  # ‘
        "\u2019": "'",  # ’
        **{UNICODE[name]: ASCII[name] for name in ("dot", "dash", "more", "about")},
        "\u2192": "->",  # →
        "\u25b6": ">",  # ▶
    }
)


def app_words(text: str) -> str:
    """A sentence of the app's, as drawn in the set in use: in ASCII, its quotation marks,
    ``·``, ``—``, ``…``, ``≈``, ``→`` and ``▶`` become ``" ' - - ... ~ -> >``. A title it quotes is
    drawn with the sentence (the list, the editor and the views show a person's text as is)."""
    return text.translate(_PUNCTUATION) if _ascii else text


# Textual's key symbols, in words.
_KEY_WORDS = {"⏎": "Enter", "↑": "Up", "↓": "Down", "←": "Left", "→": "Right", "⌫": "Backspace"}


def ascii_key(shown: str) -> str:
    """A key as Textual displays it, with its symbols spelled out (``⏎`` -> ``Enter``)."""
    for symbol, word in _KEY_WORDS.items():
        shown = shown.replace(symbol, word)
    return shown
