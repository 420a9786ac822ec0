"""Reading frontmatter without the YAML parser, for the files whose reading is certain.

Two fast paths, each answering only where it reads exactly as YAML would (tests/store/test_fast_path.py
proves both against the YAML path): ``parse_canonical`` takes a whole file in the store's own
layout in one regular expression; ``parse_fast`` takes plain ``key: value`` lines.
"""

from __future__ import annotations

import re
from datetime import datetime

import yaml

from . import messages as msg
from .frontmatter_yaml import KNOWN, YAML_BOOL, YAML_NULL
from .limits import Limits
from .memory_fields import FIELD_ORDER, Content, Fields, FileProblem, Parsed, normalize_title
from .timestamps import parse_timestamp

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
# YAML's own resolvers for the plain scalars whose construction can fail (a timestamp such as
# 2026-13-40, an int such as 0x_, the merge key <<, the value key =): by first character.
_RISKY_TAGS = {f"tag:yaml.org,2002:{name}" for name in ("int", "float", "timestamp", "merge", "value")}
_RISKY: dict[str, list[re.Pattern[str]]] = {}
for _first, _resolvers in yaml.resolver.Resolver.yaml_implicit_resolvers.items():
    for _tag, _regexp in _resolvers:
        if _tag in _RISKY_TAGS and _first:
            _RISKY.setdefault(_first, []).append(_regexp)
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
    it against the YAML path): each a known key once, then a plain scalar or a one-line
    single-quoted one.
    """
    if not lines or len(lines) > len(FIELD_ORDER):
        return None
    values: dict[str, str] = {}
    spans: dict[str, tuple[int, int]] = {}
    moments: dict[str, datetime] = {}
    for i, line in enumerate(lines):
        key, colon, value = line.partition(":")
        if key not in KNOWN or key in values or not colon:
            return None
        if value:
            if value[0] != " ":
                return None
            value = value[1:]
            if value[:1] == "'":
                quoted = _FAST_QUOTED.match(value)
                # A quoted null-like word or a quoted bool is a string to YAML: let it say so.
                if quoted is None or key == "enabled":
                    return None
                value = quoted.group(1).replace("''", "'")
                if value in YAML_NULL:
                    return None
            elif value:
                if _FAST_PLAIN.match(value) is None or value[-1] in " :" or ": " in value or " #" in value:
                    return None
                risky = _RISKY.get(value[0])
                if risky:
                    # YAML builds these as numbers or times, and some of them fail.
                    if key in _STAMPED and _FAST_STAMP.match(value):
                        moment = parse_timestamp(value)
                        if moment is None:
                            return None
                        moments[key] = moment
                    elif not (value.isascii() and value.isdigit() and len(value) <= 100):
                        if any(regexp.match(value) for regexp in risky):
                            return None
        values[key] = value
        spans[key] = (i, i)
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
    for key in _STAMPED:
        raw = values.get(key)
        if key not in moments and raw is not None and raw not in YAML_NULL:
            moment = parse_timestamp(raw)
            if moment is None:
                bad.append(key)
            else:
                moments[key] = moment
    if bad:
        return FileProblem(msg.FILE_BAD_FIELDS.format(names=", ".join(bad)))
    fields = Fields(title, bool(enabled), source, session, moments.get("created"), moments.get("updated"), {})
    return fields, spans
