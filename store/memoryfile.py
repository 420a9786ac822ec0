"""One memory file: its bytes parsed into fields or a problem, and fields written back as bytes.

The frontmatter is kept as its lines so that a rewrite changes only the lines of the fields
that changed: comments, quoting, key order and unknown keys stay as the person wrote them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

import yaml

from . import messages as msg
from .limits import Limits
from .timestamps import format_timestamp, parse_timestamp
from .yamlload import compose_and_construct

BOM = b"\xef\xbb\xbf"
FIELD_ORDER = ("title", "enabled", "source", "sessionId", "created", "updated")
REQUIRED_WHEN_NOT_A_MAPPING = "title, enabled, source"


@dataclass(slots=True)
class Fields:
    """The frontmatter fields of a valid memory file."""

    title: str
    enabled: bool
    source: str
    session_id: str | None = None
    created: datetime | None = None
    updated: datetime | None = None
    extra: dict[Any, Any] = field(default_factory=dict)


@dataclass(slots=True)
class Document:
    """A parsed file: its fields, its text, and what a surgical rewrite needs."""

    fields: Fields
    text: str
    fm_lines: list[str]
    spans: dict[str, tuple[int, int]] | None  # key -> first, last line; None: not block style
    body: str  # everything after the closing --- line, as written (LF)


@dataclass(frozen=True, slots=True)
class FileProblem:
    """Why a file is not a memory: the message, and the file line it names (if any)."""

    message: str
    line: int | None = None


def normalize_title(title: str) -> str:
    """One line, single spaces: every run of Unicode white space becomes one space."""
    return " ".join(title.split())


def normalize_text(text: str) -> str:
    """The text as a file keeps it: LF line ends, trimmed at both ends."""
    return text.replace("\r\n", "\n").strip()


# --- parsing -------------------------------------------------------------------------------

# What the fast path takes as written: printable characters, none that YAML reads as a line
# break (U+0085, U+2028, U+2029), no tab and no BOM (libyaml refuses one inside a stream).
# The classes are written as what they leave out: the same sets as
# [\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff], but
# compiled in a fraction of a millisecond instead of tens (tests/test_fast_path.py checks every
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
# ``enabled`` is "true or false" (the spec): YAML 1.1's yes/no/on/off are not taken, as YAML
# 1.2's core schema (which current parsers use) reads them as text.
_YAML_BOOL = {
    **dict.fromkeys(("true", "True", "TRUE"), True),
    **dict.fromkeys(("false", "False", "FALSE"), False),
}
_BOOL_TAG = "tag:yaml.org,2002:bool"
_YAML_NULL = {"", "~", "null", "Null", "NULL"}
_KNOWN = frozenset(FIELD_ORDER)


def parse_bytes(raw: bytes, limits: Limits) -> Document | FileProblem:
    """Parse a memory file's bytes into a document, or say which problem it has."""
    if len(raw) > limits.file_max_bytes:
        return FileProblem(msg.FILE_TOO_LARGE.format(n=limits.file_max_bytes))
    if raw.startswith(BOM):
        raw = raw[3:]
    try:
        content = raw.decode("utf-8")
    except UnicodeDecodeError:
        return FileProblem(msg.FILE_NOT_UTF8)
    return parse_text(content, limits)


def split_frontmatter(content: str) -> tuple[list[str], str] | None:
    """The frontmatter lines and the body after the closing line; None without a block."""
    if "\r" in content:
        content = content.replace("\r\n", "\n")
    first_end = content.find("\n")
    if first_end < 0 or content[:first_end].rstrip(" \t") != "---":
        return None
    start = first_end + 1
    newline = first_end  # the line break before the next candidate closing line
    while True:
        newline = content.find("\n---", newline)
        if newline < 0:
            return None
        pos = newline + 1
        end = content.find("\n", pos + 3)
        line = content[pos:] if end < 0 else content[pos:end]
        if line == "---" or line.rstrip(" \t") == "---":
            fm = content[start:pos]
            body = "" if end < 0 else content[end + 1 :]
            return (fm[:-1].split("\n") if fm else []), body
        newline = pos


def parse_text(content: str, limits: Limits) -> Document | FileProblem:
    """Parse decoded file text (the UTF-8 and size checks already passed)."""
    split = split_frontmatter(content)
    if split is None:
        return FileProblem(msg.FILE_NO_FRONTMATTER)
    fm_lines, body = split
    parsed = _parse_fast(fm_lines)
    if parsed is None:
        parsed = _parse_yaml(fm_lines)
    if isinstance(parsed, FileProblem):
        return parsed
    fields, spans = parsed
    text = body.strip()
    if len(text) > limits.text_max_chars or len(fields.title) > limits.title_max_chars:
        return FileProblem(msg.FILE_TOO_LONG.format(n=limits.text_max_chars, m=limits.title_max_chars))
    return Document(fields=fields, text=text, fm_lines=fm_lines, spans=spans, body=body)


#: What loading a file needs of it: its fields and its text (no lines kept for a rewrite).
Content = tuple[Fields, str]

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


def parse_content(raw: bytes, limits: Limits) -> Content | FileProblem:
    """A file's fields and text, or its problem: ``parse_bytes`` without the rewrite data.

    Files in the store's own layout take one regular expression; any other goes through
    ``parse_bytes`` (tests/test_fast_path.py proves both give the same).
    """
    if len(raw) <= limits.file_max_bytes:
        try:
            content = raw.decode("utf-8")
        except UnicodeDecodeError:
            content = ""
        m = _CANON.match(content)
        if m is not None:
            title_plain, title_quoted, enabled, source, sess_plain, sess_quoted, c, u = m.groups()
            title = title_plain if title_quoted is None else title_quoted.replace("''", "'")
            session = sess_plain if sess_quoted is None else sess_quoted.replace("''", "'")
            try:  # the pattern took only UTC to the millisecond: no more to do than this
                created = None if c is None else _fromiso(c)
                updated = None if u is None else _fromiso(u)
            except ValueError:  # a day that does not exist: the long way gives its message
                title = ""
            if title not in _YAML_NULL and session not in _YAML_NULL:
                body = content[m.end() :]
                if "\r" in body:
                    body = body.replace("\r\n", "\n")
                text = body.strip()
                if title_quoted is not None or "  " in title or not title.isascii():
                    title = normalize_title(title)  # a plain ASCII one has no other blanks
                if title and len(text) <= limits.text_max_chars and len(title) <= limits.title_max_chars:
                    fields = Fields(title, enabled == "true", source, session, created, updated, {})
                    return fields, text
    doc = parse_bytes(raw, limits)
    return doc if isinstance(doc, FileProblem) else (doc.fields, doc.text)


_Parsed = tuple[Fields, dict[str, tuple[int, int]] | None]


def _parse_fast(lines: list[str]) -> _Parsed | FileProblem | None:
    """Plain ``key: value`` frontmatter without the YAML parser; None means "ask YAML".

    It answers only for lines it reads exactly as YAML would (tests/test_fast_path.py proves
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
        if key not in _KNOWN or key in values or not colon:
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
                if value in _YAML_NULL:
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
    title = normalize_title(raw) if raw is not None and raw not in _YAML_NULL else ""
    if not title:
        bad.append("title")
    enabled = _YAML_BOOL.get(values.get("enabled", ""))
    if enabled is None:
        bad.append("enabled")
    source = values.get("source", "")
    if source != "user" and source != "ai":
        bad.append("source")
    session = values.get("sessionId")
    if session in _YAML_NULL:
        session = None
    for key in _STAMPED:
        raw = values.get(key)
        if key not in moments and raw is not None and raw not in _YAML_NULL:
            moment = parse_timestamp(raw)
            if moment is None:
                bad.append(key)
            else:
                moments[key] = moment
    if bad:
        return FileProblem(msg.FILE_BAD_FIELDS.format(names=", ".join(bad)))
    fields = Fields(title, bool(enabled), source, session, moments.get("created"), moments.get("updated"), {})
    return fields, spans


_STAMPED = ("created", "updated")


def _parse_yaml(lines: list[str]) -> _Parsed | FileProblem:
    # One blank line stands for the opening ---, so YAML's line numbers are the file's.
    source = "\n" + "\n".join(lines) + ("\n" if lines else "")
    try:
        node, data = compose_and_construct(source)
    except yaml.MarkedYAMLError as exc:
        return _yaml_problem(exc)
    except (yaml.YAMLError, RecursionError, ValueError, TypeError, OverflowError) as exc:
        return FileProblem(msg.FILE_BAD_YAML.format(message=_oneline(str(exc)) or type(exc).__name__))
    if not isinstance(node, yaml.MappingNode) or not isinstance(data, dict):
        return FileProblem(msg.FILE_BAD_FIELDS.format(names=REQUIRED_WHEN_NOT_A_MAPPING))
    nodes: dict[str, yaml.Node] = {}
    spans: dict[str, tuple[int, int]] | None = {} if not node.flow_style else None
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            continue
        key = key_node.value
        if key in _KNOWN:
            nodes[key] = value_node
        if spans is not None:
            first = key_node.start_mark.line - 1
            end = value_node.end_mark
            last = end.line - 2 if end.column == 0 and end.line - 1 > first else end.line - 1
            spans[str(key)] = (first, max(first, last))

    def written(key: str) -> Any:
        value_node = nodes.get(key)
        if value_node is None:
            return None
        if not isinstance(value_node, yaml.ScalarNode):
            return _INVALID
        if value_node.tag == "tag:yaml.org,2002:null":
            return None
        if key == "enabled":
            if value_node.tag != _BOOL_TAG or value_node.value not in _YAML_BOOL:
                return _INVALID
            return data.get("enabled")
        if key == "source":
            value = data.get("source")
            return value if isinstance(value, str) else _INVALID
        return value_node.value

    extra = {k: v for k, v in data.items() if k not in _KNOWN}
    return _validate(written, spans, written=False, extra=extra)


class _Invalid:
    pass


_INVALID = _Invalid()


def _validate(
    get: Any,
    spans: dict[str, tuple[int, int]] | None,
    *,
    written: bool,
    extra: dict[Any, Any] | None = None,
) -> _Parsed | FileProblem:
    """Check the six fields. ``get(key)`` gives the written text (fast path), or for the YAML
    path: None when absent or null, the bool for enabled, and _INVALID for a non-scalar."""
    bad: list[str] = []

    def text_of(key: str) -> str | None | _Invalid:
        value = get(key)
        if written and value is not None and value in _YAML_NULL:
            return None
        return value  # type: ignore[no-any-return]

    title_raw = text_of("title")
    title = normalize_title(title_raw) if isinstance(title_raw, str) else ""
    if not title:
        bad.append("title")
    enabled_raw = get("enabled")
    enabled = _YAML_BOOL.get(enabled_raw) if written and isinstance(enabled_raw, str) else enabled_raw
    if not isinstance(enabled, bool):
        bad.append("enabled")
    source = text_of("source")
    if source not in ("user", "ai"):
        bad.append("source")
    session = text_of("sessionId")
    if isinstance(session, _Invalid):
        bad.append("sessionId")
        session = None
    moments: dict[str, datetime | None] = {}
    for key in ("created", "updated"):
        raw = text_of(key)
        moment = parse_timestamp(raw) if isinstance(raw, str) else None
        if isinstance(raw, _Invalid) or (isinstance(raw, str) and moment is None):
            bad.append(key)
        moments[key] = moment
    if bad:
        return FileProblem(msg.FILE_BAD_FIELDS.format(names=", ".join(bad)))
    fields = Fields(
        title=title,
        enabled=bool(enabled),
        source=str(source),
        session_id=session,
        created=moments["created"],
        updated=moments["updated"],
        extra=extra or {},
    )
    return fields, spans


def _yaml_problem(exc: yaml.MarkedYAMLError) -> FileProblem:
    mark = exc.problem_mark or exc.context_mark
    what = exc.problem or exc.context or _oneline(str(exc))
    if exc.context and exc.problem:
        what = f"{exc.context}: {exc.problem}"
    if mark is None:
        return FileProblem(msg.FILE_BAD_YAML.format(message=_oneline(what)))
    line = mark.line + 1
    where = f"line {line}, column {mark.column + 1}"
    return FileProblem(msg.FILE_BAD_YAML.format(message=f"{_oneline(what)} ({where})"), line)


def _oneline(text: str) -> str:
    return " ".join(text.split())


# --- writing -------------------------------------------------------------------------------


def render_field(key: str, value: Any) -> list[str]:
    """The frontmatter line(s) for one field."""
    if isinstance(value, bool):
        return [f"{key}: {'true' if value else 'false'}"]
    if isinstance(value, datetime):
        return [f"{key}: {format_timestamp(value)}"]
    if isinstance(value, str) and _NEEDS_ESCAPES.search(value):
        # PyYAML's single quotes fold NEL and friends into spaces; double quotes escape them.
        quoted = yaml.safe_dump(value, default_style='"', allow_unicode=True, width=1_000_000)
        return [f"{key}: {quoted.rstrip(chr(10))}"]
    dumped = yaml.safe_dump(
        {key: value}, allow_unicode=True, width=1_000_000, sort_keys=False, default_flow_style=False
    )
    return dumped.rstrip("\n").split("\n")


_NEEDS_ESCAPES = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\ufeff]")


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
        merged = replace(doc.fields, **{_ATTR[key]: value for key, value in changes.items()})
        return _assemble(_all_lines(merged), body)
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


_ATTR = {
    "title": "title",
    "enabled": "enabled",
    "source": "source",
    "sessionId": "session_id",
    "created": "created",
    "updated": "updated",
}


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
