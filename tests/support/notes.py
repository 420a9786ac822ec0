"""A model's side of change notes: what it holds after applying each note it is sent.

The tests apply notes the way a model would, by reading them: the header names what was
added, changed (with its new title when renamed) and removed, each by the title it was sent
with and, when several were sent with that title, by the start of its text; the added and
changed memories follow in the order named. The model keeps no ids and no order.
"""

from __future__ import annotations

import re
from collections import Counter

from store.checks.chat import APPLIES, HEADER

ORDER_ONLY = f"Memory update: the order of memories changed. {APPLIES}"
#: A quoted value: a quote and a backslash inside are escaped (``\\"``, ``\\\\``).
_QUOTED = r'(?:[^"\\]|\\.)*?'
_ITEM = re.compile(rf'"(?P<title>{_QUOTED})"(?: \((?P<notes>.*?)\))?(?=, "|$)', re.S)
_NOTE = re.compile(
    rf'(?P<kind>the one beginning|the one reading|now titled) "(?P<value>{_QUOTED})(?P<cut>…?)"', re.S
)


def _unquoted(value: str) -> str:
    """A quoted value as it was before its quotes and backslashes were escaped."""
    return re.sub(r"\\(.)", r"\1", value, flags=re.S)


Held = list[tuple[str, str]]


def sections(text: str) -> Held:
    """The memories in a chat's complete text (title and text), in order."""
    if not text:
        return []
    assert text.startswith(HEADER)
    chunks = ("\n" + text[len(HEADER) :]).split("\n## ")[1:]
    return [_section(chunk, "\n") for chunk in chunks]


def _section(chunk: str, end: str) -> tuple[str, str]:
    title, gap, rest = chunk.partition("\n\n")
    assert gap and rest.endswith(end), chunk
    return title, rest[: len(rest) - len(end)]


def apply(held: Held, note: str | None) -> Held:
    """What a model holds after reading ``note`` (None: the memory did not change)."""
    if note is None or note == ORDER_ONLY:
        return list(held)
    assert note.startswith("Memory update: ") and note.endswith("\n" + APPLIES), note
    body_at = note.find("\n\n## ")
    header = note[: body_at if body_at >= 0 else len(note) - len(APPLIES) - 1]
    assert header.endswith("."), header
    body = note[len(header) + 1 : len(note) - len(APPLIES)] if body_at >= 0 else ""
    given = [_section(chunk, "\n\n") for chunk in body.split("\n## ")[1:]]
    gone: list[int] = []
    named_new: list[str] = []
    for part in header[len("Memory update: ") : -1].split("; "):
        verb, _, items = part.partition(" ")
        assert verb in ("added", "changed", "removed"), part
        for item in _ITEM.finditer(items):
            if verb == "added":
                named_new.append(_unquoted(item["title"]))
                continue
            gone.append(_find(held, _unquoted(item["title"]), item["notes"] or "", gone))
            if verb == "changed":
                renamed = [
                    _unquoted(n["value"])
                    for n in _NOTE.finditer(item["notes"] or "")
                    if n["kind"] == "now titled"
                ]
                named_new.append(renamed[0] if renamed else _unquoted(item["title"]))
    assert [title for title, _ in given] == named_new, (note, given, named_new)
    return [entry for k, entry in enumerate(held) if k not in gone] + given


def _find(held: Held, title: str, notes: str, taken: list[int]) -> int:
    """The one memory held that a note names; several exact copies are the same to a model."""
    found = [k for k, (t, _) in enumerate(held) if t == title and k not in taken]
    for told in _NOTE.finditer(notes):
        if told["kind"] == "the one beginning":
            assert told["cut"] == "…"
            found = [k for k in found if held[k][1].startswith(_unquoted(told["value"]))]
        elif told["kind"] == "the one reading":
            found = [k for k in found if held[k][1] == _unquoted(told["value"])]
    assert found, (title, notes, held)
    assert len({held[k] for k in found}) == 1, f"the note cannot tell apart {title!r}: {notes!r}"
    return found[0]


def same(held: Held, text: str) -> bool:
    """Whether a model holding ``held`` holds exactly the memories of ``text``."""
    return Counter(held) == Counter(sections(text))
