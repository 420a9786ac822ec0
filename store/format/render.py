"""Writing fields back as a memory file's text: a whole new file, or a surgical rewrite.

A rewrite changes only the lines of the fields that changed: comments, quoting, key order and
unknown keys stay as the person wrote them.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime
from typing import Any

from store.format.fields import Document, Fields
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


def render_field(key: str, value: Any) -> list[str]:
    """The frontmatter line(s) for one field."""
    if isinstance(value, bool):
        return [f"{key}: {'true' if value else 'false'}"]
    if isinstance(value, datetime):
        return [f"{key}: {format_timestamp(value)}"]
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
