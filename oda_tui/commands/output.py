"""Writing a command's results: human lines made safe for a terminal, exact data, JSON."""

from __future__ import annotations

import json
import re
import sys
from typing import Any, TextIO

# C0 controls, DEL, the C1 range (some terminals obey it) and the bidi overrides that can make
# a line read differently from what it holds.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_CONTROL_KEEP_LINES = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """One line for a person: every control character becomes a visible escape such as ``\\x1b``."""
    return _CONTROL.sub(_escape, text)


def visible_block(text: str) -> str:
    """Like ``visible`` but keeps newlines and tabs, for text shown on several lines."""
    return _CONTROL_KEEP_LINES.sub(_escape, text)


def write_data(data: str, stream: TextIO | None = None) -> None:
    """Write ``data`` byte for byte as UTF-8, whatever the locale, adding nothing."""
    stream = stream or sys.stdout
    stream.flush()
    stream.buffer.write(data.encode("utf-8"))
    stream.buffer.flush()


def write_lines(lines: list[str], stream: TextIO | None = None) -> None:
    """Write lines for a person, each ended by a newline (they should already be ``visible``)."""
    stream = stream or sys.stdout
    for line in lines:
        stream.write(line + "\n")
    stream.flush()


def to_json(document: Any) -> str:
    """One JSON document: ASCII only (so no control character reaches a terminal), newline-ended."""
    return json.dumps(document, ensure_ascii=True, indent=2, default=str) + "\n"


def note(message: str) -> None:
    """One line on stderr."""
    sys.stderr.write(visible(message) + "\n")
    sys.stderr.flush()


def columns(rows: list[list[str]], *, right: frozenset[int] = frozenset()) -> list[str]:
    """Rows padded into aligned columns two spaces apart (the last column is never padded)."""
    if not rows:
        return []
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = []
        for i, cell in enumerate(row):
            last = i == len(row) - 1
            if i in right:
                cells.append(cell.rjust(widths[i]))
            elif last:
                cells.append(cell)
            else:
                cells.append(cell.ljust(widths[i]))
        lines.append("  ".join(cells).rstrip())
    return lines
