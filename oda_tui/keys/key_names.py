"""Key names as a keymap writes them: which ones a terminal can send, in Textual's spelling.

A keymap key that is no key (``ctlr+n``) would be accepted by Textual and never fire, so the
action would be left with no working key: it is refused here instead, and the default stays.
"""

from __future__ import annotations

import unicodedata

from textual.keys import KEY_NAME_REPLACEMENTS, KEY_TO_UNICODE_NAME, Keys

#: Modifiers in the order Textual writes them in a key name (sorted).
MODIFIERS = ("alt", "ctrl", "hyper", "meta", "shift", "super")
#: Named keys: Textual's own (``escape``, ``f2``, ``pageup``…) without their modifiers.
_NAMED = frozenset(k.value.rpartition("+")[2] for k in Keys if not k.value.startswith("<")) | frozenset(
    {"newline", "at", "slash", "backslash", "minus", "plus", "underscore"}
)
_REPLACED = {value: key for key, value in KEY_NAME_REPLACEMENTS.items()}


def character_key(character: str) -> str:
    """Textual's name for the key that types ``character`` (``?`` -> ``question_mark``)."""
    if character.isalnum():
        return character
    try:
        name = unicodedata.name(character).lower().replace("-", "_").replace(" ", "_")
    except ValueError:
        return character
    return KEY_NAME_REPLACEMENTS.get(name, name)


def _is_named_character(name: str) -> bool:
    unicode_name = KEY_TO_UNICODE_NAME.get(_REPLACED.get(name, name), name.replace("_", " ").upper())
    try:
        return len(unicodedata.lookup(unicode_name)) == 1
    except KeyError:
        return False


def normal_key(key: str) -> str | None:
    """``key`` as Textual names it (modifiers in its order, a typed character by its name), or
    None when no terminal sends it (a misspelled modifier or key name)."""
    key = key.strip()
    if key == "+" or key.endswith("++"):  # the plus key itself, alone or with modifiers
        modifiers, name = (key[:-2].split("+") if len(key) > 1 else []), "+"
    else:
        *modifiers, name = key.split("+")
    if not name or any(m not in MODIFIERS for m in modifiers) or len(set(modifiers)) != len(modifiers):
        return None
    if len(name) == 1:
        if not name.isprintable() or name.isspace():
            return None
        name = character_key(name)
    elif name not in _NAMED and not _is_named_character(name):
        return None
    return "+".join([*sorted(modifiers), name])
