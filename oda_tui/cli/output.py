"""Writing a command's results: human lines made safe for a terminal, exact data, JSON."""

from __future__ import annotations

import json
import re
import sys
from typing import Any, TextIO

from ..text.invisible import INVISIBLE_CLASS, escape

# C0 controls, DEL, the C1 range (some terminals obey it), the bidi controls and zero-width
# characters that make a line read differently from what it holds, and lone surrogates: the bytes
# of a file name that is not UTF-8 (Python keeps byte 0x9b as U+DC9B), which would go out raw or
# fail to encode.
_UNSAFE = rf"\x7f-\x9f{INVISIBLE_CLASS}\ud800-\udfff"
_CONTROL = re.compile(rf"[\x00-\x1f{_UNSAFE}]")
_CONTROL_KEEP_LINES = re.compile(rf"[\x00-\x08\x0b-\x1f{_UNSAFE}]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte of a file name: shown as that byte
        return f"\\x{code - 0xDC00:02x}"
    return escape(match.group())


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


def write_text(text: str, stream: TextIO | None = None) -> None:
    """Text a person may read or a program may take: byte for byte to a file or a pipe, and
    with every control character shown visibly (as ``visible_block``) on a terminal."""
    stream = stream or sys.stdout
    write_data(visible_block(text) if stream.isatty() else text, stream)


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
    """Rows padded into aligned columns two spaces apart (the last column is never padded),
    by display width: a wide character (CJK, most emoji) takes two columns."""
    if not rows:
        return []
    from rich.cells import cell_len  # the width a terminal gives each character, as the app's

    from ..text.cell_widths import measure_modifiers_as_drawn

    measure_modifiers_as_drawn()

    widths = [max(cell_len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = []
        for i, cell in enumerate(row):
            pad = " " * (widths[i] - cell_len(cell))
            if i in right:
                cells.append(pad + cell)
            elif i == len(row) - 1:
                cells.append(cell)
            else:
                cells.append(cell + pad)
        lines.append("  ".join(cells).rstrip())
    return lines
