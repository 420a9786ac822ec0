"""Plain-text helpers: user text never reaches the terminal as markup or control codes.

A control character is shown, never dropped and never sent raw: ESC reads ``␛`` (``^[`` on an
ASCII terminal), a C1 code such as 0x9b reads ``\\x9b``, and a bidirectional control or a
zero-width character reads as its escape, such as ``\\u202e`` (see ``invisible``).
"""

from __future__ import annotations

import re

from rich.text import Text

from .glyphs import ascii_only
from .invisible import BIDI_CONTROLS, INVISIBLE_CLASS, ZERO_WIDTH, escape


def _table(pictures: bool, *, keep_layout: bool) -> dict[int, str]:
    table: dict[int, str] = {}
    for code in range(0x20):
        if keep_layout and code in (0x09, 0x0A):
            continue
        table[code] = chr(0x2400 + code) if pictures else "^" + chr(0x40 + code)
    table[0x7F] = "\u2421" if pictures else "^?"
    for code in range(0x80, 0xA0):
        table[code] = escape(chr(code))
    for char in BIDI_CONTROLS + ZERO_WIDTH.replace(JOINER, ""):
        table[ord(char)] = escape(char)
    return table


# A joiner is part of an emoji sequence (a family, a profession) between two pictures: it is
# kept there, and shown as its escape anywhere else (``_joiners``).
JOINER = "\u200d"
_PICTURE = (
    "\u00a9\u00ae\u203c\u2049\u2122\u2139\u2194-\u21aa\u231a-\u23ff\u24c2\u25aa-\u27bf"
    "\u2934\u2935\u2b05-\u2b55\u3030\u303d\u3297\u3299\U0001f000-\U0001faff"
)
#: A joiner that does not stand between a picture (or its variation selector) and a picture.
_LONE_JOINER = re.compile(rf"(?<![{_PICTURE}\ufe0f]){JOINER}|{JOINER}(?![{_PICTURE}])")


def _joiners(text: str) -> str:
    """``text`` with each joiner outside an emoji sequence shown as its escape."""
    return _LONE_JOINER.sub(lambda _m: escape(JOINER), text) if JOINER in text else text


# One line keeps no layout: a newline or tab becomes a space (below) before the table applies.
_BLOCK = {True: _table(True, keep_layout=True), False: _table(False, keep_layout=True)}
_LINE = {True: _table(True, keep_layout=False), False: _table(False, keep_layout=False)}
_CONTROL = re.compile(rf"[\x00-\x08\x0b-\x1f\x7f-\x9f{INVISIBLE_CLASS}]")


def has_controls(text: str) -> bool:
    """True when ``text`` holds a control character a view would show as a picture."""
    return _CONTROL.search(text) is not None


def clean_block(text: str) -> str:
    """Text for a multi-line view: tabs and newlines kept, other controls shown visibly."""
    return _joiners(text.translate(_BLOCK[not ascii_only()]))


def clean_line(text: str) -> str:
    """Text for a one-line view: newlines and tabs become spaces, other controls shown visibly."""
    text = text.replace("\r\n", " ").replace("\n", " ").replace("\t", " ")
    return _joiners(text.translate(_LINE[not ascii_only()]))


def restore_controls(edited: str, original: str) -> str:
    """Edited text with the pictures of ``original``'s control characters turned back into them.

    The editor shows ``␛`` for an ESC; saving an edit must not turn the ESC into ``␛``. A
    picture the original already held as written text is left as it is.
    """
    if not has_controls(original):
        return edited
    table = _BLOCK[not ascii_only()]
    for control in sorted(set(_CONTROL.findall(original)), key=lambda c: -len(table.get(ord(c), ""))):
        shown = table.get(ord(control), escape(control))
        if shown not in original:
            edited = edited.replace(shown, control)
    return edited


def plain(text: str, style: str = "") -> Text:
    """A Rich ``Text`` of one line of user text, never parsed as markup."""
    return Text(clean_line(text), style=style, no_wrap=True, overflow="ellipsis")
