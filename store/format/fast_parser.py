"""Reading frontmatter without the YAML parser, for the files whose reading is certain.

Two fast paths, each answering only where it reads exactly as YAML would (tests/store/test_fast_path.py
proves both against the YAML path): ``parse_canonical`` takes a whole file in the store's own
layout in one regular expression; ``parse_fast`` takes plain ``key: value`` lines.
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import cache

from store import messages as msg
from store.format.fields import (
    FIELD_ORDER,
    KNOWN,
    YAML_BOOL,
    YAML_NOT_TEXT,
    YAML_NULL,
    Content,
    Fields,
    FileProblem,
    Parsed,
    normalize_title,
)
from store.format.timestamps import parse_timestamp
from store.limits import Limits

# What the fast path takes as written: printable characters, none that YAML reads as a line
# break (U+0085, U+2028, U+2029), no tab and no BOM (libyaml refuses one inside a stream).
# The classes are written as what they leave out: the same sets as
# [\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff], but
# compiled in a fraction of a millisecond instead of tens (tests/store/test_fast_path.py checks every
# code point).
_UNSAFE = "\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff"
_SAFE = f"[^{_UNSAFE}]"
# A plain scalar the fast path may take as written: no indicator first (": ", " #" and a
# blank or colon last are checked apart).
_FAST_PLAIN = re.compile(f"(?={_SAFE})[^\\s\\-?:,\\[\\]{{}}#&*!|>'\"%@`]{_SAFE}*\\Z")
# A single-quoted scalar on one line ('' stands for one quote).
_SAFE_UNQUOTED = f"[^'{_UNSAFE}]"  # _SAFE without the quote '
_FAST_QUOTED = re.compile(f"'((?:{_SAFE_UNQUOTED}|'')*)'\\Z")
# A canonical timestamp, as the store writes ``created`` and ``updated``.
_FAST_STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,6})?Z\Z")
#: Keys besides the six that a block may have for the fast path to answer.
_MAX_EXTRA = 2
#: An unknown key the fast path takes: a plain word (YAML reads it as that text).
_EXTRA_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
_LETTERS_AND_DIGITS = re.compile(r"[0-9A-Za-z]+\Z")
# YAML's own resolvers for the plain scalars whose construction can fail (a timestamp such as
# 2026-13-40, an int such as 0x_, the merge key <<, the value key =): by first character.
#: The first characters of those scalars (``_risky``'s keys): a value that starts otherwise is
#: read as written without asking YAML, nor importing it.
RISKY_FIRST = frozenset("+-.0123456789<=")
_RISKY_TAGS = {f"tag:yaml.org,2002:{name}" for name in ("int", "float", "timestamp", "merge", "value")}


@cache
def _risky() -> dict[str, list[re.Pattern[str]]]:
    """Those resolvers by first character, gathered on first use: a store whose files are all
    in its own layout (``parse_canonical``) never imports the YAML library to be read."""
    import yaml

    risky: dict[str, list[re.Pattern[str]]] = {}
    for first, resolvers in yaml.resolver.Resolver.yaml_implicit_resolvers.items():
        for tag, regexp in resolvers:
            if tag in _RISKY_TAGS and first:
                risky.setdefault(first, []).append(regexp)
    return risky


_STAMPED = ("created", "updated")

# The frontmatter exactly as the store writes it, matched in one go. A plain value here starts
# with no indicator and no character YAML could read as a number or time, and has no ": " or
# " #" inside and no blank or colon at its end; anything else goes the long way.
_CANON_PLAIN = (
    f"(?={_SAFE})[^\\s\\-?:,\\[\\]{{}}#&*!|>'\"%@`0-9+.<=]"
    f"(?:[^ :{_UNSAFE}]++|:(?=[^ \\n])| (?=[^#\\n]))*+"  # _SAFE without the blank and the colon
)
_CANON_QUOTED = f"'((?:{_SAFE_UNQUOTED}++|'')*+)'"
_CANON_STAMP = r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)"
_CANON = re.compile(
    f"---\\ntitle: (?:({_CANON_PLAIN})|{_CANON_QUOTED})\\n"
    "enabled: (true|false)\\n"
    "source: (user|ai)\\n"
    f"(?:sessionId: (?:({_CANON_PLAIN})|{_CANON_QUOTED})\\n)?"
    f"(?:created: {_CANON_STAMP}\\n)?"
    f"(?:updated: {_CANON_STAMP}\\n)?"
    "---(?:\\n|\\Z)"
)


_fromiso = datetime.fromisoformat


def parse_canonical(content: str, limits: Limits) -> Content | None:
    """A decoded file's fields and text when it is in the store's own layout and within the
    limits; None means "go the long way" (which also gives any problem's message)."""
    m = _CANON.match(content)
    if m is None:
        return None
    title_plain, title_quoted, enabled, source, sess_plain, sess_quoted, c, u = m.groups()
    title = title_plain if title_quoted is None else title_quoted.replace("''", "'")
    session = sess_plain if sess_quoted is None else sess_quoted.replace("''", "'")
    try:  # the pattern took only UTC to the millisecond: no more to do than this
        created = None if c is None else _fromiso(c)
        updated = None if u is None else _fromiso(u)
    except ValueError:  # a day that does not exist: the long way gives its message
        return None
    if title in YAML_NULL or session in YAML_NULL:
        return None
    body = content[m.end() :]
    if "\r" in body:
        body = body.replace("\r\n", "\n")
    text = body.strip()
    if title_quoted is not None or "  " in title or not title.isascii():
        title = normalize_title(title)  # a plain ASCII one has no other blanks
    if title and len(text) <= limits.text_max_chars and len(title) <= limits.title_max_chars:
        return Fields(title, enabled == "true", source, session, created, updated, {}), text
    return None


def parse_fast(lines: list[str]) -> Parsed | FileProblem | None:
    """Plain ``key: value`` frontmatter without the YAML parser; None means "ask YAML".

    It answers only for lines it reads exactly as YAML would (tests/store/test_fast_path.py proves
    it against the YAML path): each key once, then a plain scalar or a one-line single-quoted
    one; a key other than the six (such as a kept version's ``replaced``) only when it is a
    plain word and YAML reads its value as text.
    """
    if not lines or len(lines) > len(FIELD_ORDER) + _MAX_EXTRA:
        return None
    values: dict[str, str] = {}
    extra: dict[str, str] = {}
    spans: dict[str, tuple[int, int]] = {}
    moments: dict[str, datetime] = {}
    for i, line in enumerate(lines):
        key, colon, value = line.partition(":")
        if key in spans or not colon:
            return None
        if key in KNOWN:
            read = _read_value(key, value, moments)
            if read is None:
                return None
            values[key] = read
        else:
            text = _extra_text(key, value)
            if text is None:
                return None
            extra[key] = text
        spans[key] = (i, i)
    fields = _fields(values, moments, extra)
    return fields if isinstance(fields, FileProblem) else (fields, spans)


def _extra_text(key: str, value: str) -> str | None:
    """The text after an unknown ``key:`` when YAML reads both as the text written (YAML
    builds the value, so a number, a time, a boolean or a null is not text); None for "ask YAML"."""
    if _EXTRA_KEY.match(key) is None or key in YAML_NOT_TEXT or value[:1] != " ":
        return None
    value = value[1:]
    if value[:1] == "'":
        return _quoted_value(key, value)
    if not value or value in YAML_NOT_TEXT:
        return None
    if _FAST_PLAIN.match(value) is None or value[-1] in " :" or ": " in value or " #" in value:
        return None
    if value[0] in RISKY_FIRST and (
        # A fingerprint (letters and digits, a letter among them) is text unless it reads as a
        # binary or hexadecimal number; anything else that starts like a number is YAML's to say.
        _LETTERS_AND_DIGITS.match(value) is None or value.isdigit() or value.startswith(("0b", "0x"))
    ):
        return None
    return value


def _read_value(key: str, value: str, moments: dict[str, datetime]) -> str | None:
    """What follows ``key:`` as YAML reads it, or None for "ask YAML" (a time it reads goes
    into ``moments``)."""
    if not value:
        return value
    if value[0] != " ":
        return None
    value = value[1:]
    if value[:1] == "'":
        return _quoted_value(key, value)
    if value and not _plain_as_written(key, value, moments):
        return None
    return value


def _quoted_value(key: str, value: str) -> str | None:
    """A one-line single-quoted scalar's string, or None for "ask YAML"."""
    quoted = _FAST_QUOTED.match(value)
    # A quoted null-like word or a quoted bool is a string to YAML: let it say so.
    if quoted is None or key == "enabled":
        return None
    value = quoted.group(1).replace("''", "'")
    return None if value in YAML_NULL else value


def _plain_as_written(key: str, value: str, moments: dict[str, datetime]) -> bool:
    """Whether YAML reads the plain scalar ``value`` as the string written (or, for a canonical
    time under ``created``/``updated``, as the moment put into ``moments``)."""
    if _FAST_PLAIN.match(value) is None or value[-1] in " :" or ": " in value or " #" in value:
        return False
    if value[0] not in RISKY_FIRST:
        return True
    # YAML builds these as numbers or times, and some of them fail.
    if key in _STAMPED and _FAST_STAMP.match(value):
        moment = parse_timestamp(value)
        if moment is not None:
            moments[key] = moment
        return moment is not None
    if value.isascii() and value.isdigit() and len(value) <= 100:
        return True
    return not any(regexp.match(value) for regexp in _risky()[value[0]])


def _fields(
    values: dict[str, str], moments: dict[str, datetime], extra: dict[str, str]
) -> Fields | FileProblem:
    """The fields the values read as, or the problem naming every field that is not valid."""
    bad: list[str] = []
    raw = values.get("title")
    title = normalize_title(raw) if raw is not None and raw not in YAML_NULL else ""
    if not title:
        bad.append("title")
    enabled = YAML_BOOL.get(values.get("enabled", ""))
    if enabled is None:
        bad.append("enabled")
    source = values.get("source", "")
    if source != "user" and source != "ai":
        bad.append("source")
    session = values.get("sessionId")
    if session in YAML_NULL:
        session = None
    bad += _read_stamps(values, moments)
    if bad:
        return FileProblem(msg.FILE_BAD_FIELDS.format(names=", ".join(bad)))
    return Fields(
        title, bool(enabled), source, session, moments.get("created"), moments.get("updated"), extra
    )


def _read_stamps(values: dict[str, str], moments: dict[str, datetime]) -> list[str]:
    """Read ``created`` and ``updated`` into ``moments`` where the line pass has not; the keys
    whose value is not a time."""
    bad: list[str] = []
    for key in _STAMPED:
        raw = values.get(key)
        if key not in moments and raw is not None and raw not in YAML_NULL:
            moment = parse_timestamp(raw)
            if moment is None:
                bad.append(key)
            else:
                moments[key] = moment
    return bad
