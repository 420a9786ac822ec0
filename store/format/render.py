"""Writing fields back as a memory file's text: a whole new file, or a surgical rewrite.

A rewrite changes only the lines of the fields that changed: comments, quoting, key order and
unknown keys stay as the person wrote them.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime
from typing import Any

from store.format.fields import YAML_NOT_TEXT, Document, Fields
from store.format.timestamps import format_timestamp

_NEEDS_ESCAPES = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\ufeff]")
_ATTR = {
    "title": "title",
    "enabled": "enabled",
    "source": "source",
    "sessionId": "session_id",
    "created": "created",
    "updated": "updated",
}


_PLAIN_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
_LETTERS_AND_DIGITS = re.compile(r"[0-9A-Za-z]+\Z")
_INDICATORS_FIRST = frozenset("#,[]{}&*!|>'\"%@`")


def _plain_allowed(value: str) -> bool:
    """Whether PyYAML's emitter may write this one-line printable ASCII text plain in a block
    mapping (its ``analyze_scalar``: no blank at either end, no indicator first, no ": " or
    " #" inside, no ":" last)."""
    first = value[0]
    return not (
        first == " "
        or value[-1] == " "
        or value.startswith(("---", "..."))
        or first in _INDICATORS_FIRST
        or (first in "?:-" and (len(value) == 1 or value[1] == " "))
        or ": " in value
        or value[-1] == ":"
        or " #" in value
    )


def text_line(key: str, value: str) -> str | None:
    """The line PyYAML writes for a one-line printable ASCII text under a plain key, without
    it; None when only PyYAML can say (tests/store/test_render_fast.py checks it against PyYAML)."""
    if not _PLAIN_KEY.match(key) or key in YAML_NOT_TEXT:
        return None
    if not value or not value.isascii() or not value.isprintable():
        return None
    if not _plain_allowed(value) or value in YAML_NOT_TEXT:
        quoted = value.replace("'", "''")
        return f"{key}: '{quoted}'"
    # A letter first, or letters and digits with a letter among them (a fingerprint) that
    # YAML 1.1 does not read as a binary (0b…) or hexadecimal (0x…) number: a text, as written.
    if value[0].isalpha() or (
        _LETTERS_AND_DIGITS.match(value) and not value.isdigit() and not value.startswith(("0b", "0x"))
    ):
        return f"{key}: {value}"
    return None


def render_field(key: str, value: Any) -> list[str]:
    """The frontmatter line(s) for one field."""
    if isinstance(value, bool):
        return [f"{key}: {'true' if value else 'false'}"]
    if isinstance(value, datetime):
        return [f"{key}: {format_timestamp(value)}"]
    if isinstance(value, str):
        line = text_line(key, value)
        if line is not None:
            return [line]
    import yaml  # only a write needs it, never a read

    if isinstance(value, str) and _NEEDS_ESCAPES.search(value):
        # PyYAML's single quotes fold NEL and friends into spaces; double quotes escape them.
        quoted = yaml.safe_dump(value, default_style='"', allow_unicode=True, width=1_000_000)
        return [f"{key}: {quoted.rstrip(chr(10))}"]
    dumped = yaml.safe_dump(
        {key: value}, allow_unicode=True, width=1_000_000, sort_keys=False, default_flow_style=False
    )
    return dumped.rstrip("\n").split("\n")


def field_values(fields: Fields) -> dict[str, Any]:
    """The known fields in file order, leaving out the optional ones that are unset."""
    values: dict[str, Any] = {
        "title": fields.title,
        "enabled": fields.enabled,
        "source": fields.source,
    }
    if fields.session_id is not None:
        values["sessionId"] = fields.session_id
    if fields.created is not None:
        values["created"] = fields.created
    if fields.updated is not None:
        values["updated"] = fields.updated
    return values


def render_new(fields: Fields, text: str) -> str:
    """A whole new file for these fields and text."""
    return _assemble(_all_lines(fields), _body_for(text))


def render_edit(doc: Document, changes: dict[str, Any], text: str | None) -> str:
    """The file rewritten with only the changed fields' lines replaced (``text`` None: keep)."""
    body = doc.body if text is None or text == doc.text else _body_for(text)
    if doc.spans is None:
        known = {_ATTR[key]: value for key, value in changes.items() if key in _ATTR}
        extra = {**doc.fields.extra, **{k: v for k, v in changes.items() if k not in _ATTR}}
        return _assemble(_all_lines(replace(doc.fields, **known, extra=extra)), body)
    lines = list(doc.fm_lines)
    appended: list[str] = []
    for key, value in sorted(changes.items(), key=lambda kv: -(doc.spans or {}).get(kv[0], (-1, -1))[0]):
        span = doc.spans.get(key)
        new = render_field(key, value) if value is not None else []
        if span is None:
            appended.extend(new)
        else:
            first, last = span
            while last > first and not lines[last].strip():
                last -= 1  # a block scalar's span takes in the blank lines after it: keep them
            lines[first : last + 1] = new
    return _assemble(lines + appended, body)


def _all_lines(fields: Fields) -> list[str]:
    lines: list[str] = []
    for key, value in field_values(fields).items():
        lines.extend(render_field(key, value))
    for key, value in fields.extra.items():
        lines.extend(render_field(key, value))
    return lines


def _body_for(text: str) -> str:
    return f"\n{text}\n" if text else ""


def _assemble(lines: list[str], body: str) -> str:
    return "---\n" + "".join(line + "\n" for line in lines) + "---\n" + body
