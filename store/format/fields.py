"""What a memory file holds: its fields, the parsed document, or the problem it has."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

BOM = b"\xef\xbb\xbf"
FIELD_ORDER = ("title", "enabled", "source", "sessionId", "created", "updated")
KNOWN = frozenset(FIELD_ORDER)
# ``enabled`` is "true or false" (the spec): YAML 1.1's yes/no/on/off are not taken, as YAML
# 1.2's core schema (which current parsers use) reads them as text.
YAML_BOOL = {
    **dict.fromkeys(("true", "True", "TRUE"), True),
    **dict.fromkeys(("false", "False", "FALSE"), False),
}
YAML_NULL = {"", "~", "null", "Null", "NULL"}
#: Plain words YAML 1.1 builds as a boolean or a null, not as text (PyYAML's resolvers): a
#: writer quotes them, and a reader asks YAML what they are.
YAML_NOT_TEXT = frozenset(
    "yes Yes YES no No NO true True TRUE false False FALSE on On ON off Off OFF null Null NULL ~".split()
)


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


#: What loading a file needs of it: its fields and its text (no lines kept for a rewrite).
Content = tuple[Fields, str]

#: The fields of a frontmatter block, and each key's first and last line (None: flow style).
Parsed = tuple[Fields, dict[str, tuple[int, int]] | None]


def normalize_title(title: str) -> str:
    """One line, single spaces: every run of Unicode white space becomes one space."""
    return " ".join(title.split())


def normalize_text(text: str) -> str:
    """The text as a file keeps it: LF line ends, trimmed at both ends."""
    return text.replace("\r\n", "\n").strip()
