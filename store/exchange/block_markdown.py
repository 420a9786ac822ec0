"""Markdown as the tools that read a synced file see it: fenced code, code spans, ``@path``
imports and headings. Pure text work, linear in the text.

Claude Code (and Gemini CLI) expand ``@path`` in their instruction files into the named file's
text; the documented rule is that imports are not evaluated inside Markdown code spans and
code blocks. So a memory's ``@…`` is written inside a code span, where it is text, and an
instruction file's own imports (outside the managed block, outside code) tell that it pulls
in another synced file.

Where this reading of Markdown could differ from a tool's, it errs towards quoting: code is
recognised only where every reader sees it (see ``at_tokens``), and the backtick run a quote
is written with is longer than any in the text, so it pairs only with itself and leaves every
other code span as it was (a quote that lands inside a span is only more of its text).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# An opening fence: up to three spaces, then three or more backticks (with no backtick in the
# info string) or tildes.
_FENCE = re.compile(r"^( {0,3})(`{3,}(?=[^`]*$)|~{3,})")
_ATX = re.compile(r"^( {0,3})(#{1,6})(?=[ \t]|$)")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_RULE = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
# A fence line anywhere: indented, or inside list items and quotes.
_FENCEISH = re.compile(r"^[ \t]*(?:(?:[-+*]|\d{1,9}[.)]|>)[ \t]*)*(?:```|~~~)")
# An HTML block or a link reference definition may hold a fence line of its own.
_HTML_OR_DEFINITION = re.compile(r"^ {0,3}[<\[]")
# A list item or a quote: what follows it is its content (lazy lines too), not a paragraph.
_CONTAINER = re.compile(r" {0,3}(?:[-+*](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|>)")
# What nested markers are made of (one pass of a character class, however deep they go).
_MARKERISH = re.compile(r"[ \t>*+\-0-9.)]*")
_BACKTICKS = re.compile(r"`+")
# ``@`` then a path, whose spaces are escaped as ``\ `` (Claude Code's documented import), the
# ``@`` also written as an HTML character reference (a parser may decode it). The token stops
# at white space, at a backtick and at ``<`` or ``>`` (where inline HTML may begin or end).
_AT = r"(?:@|&#0*64;|&#[xX]0*40;|&commat;)"
_AT_TOKEN = re.compile(_AT + r"(?:[^\s`\\<>]|\\[^\n`<>])*")
# An ``@`` not right after a letter or digit (``ada@example.com`` is an address).
_AT_START = re.compile(r"(?<![^\W_])" + _AT)
#: What ends a sentence after a path without being part of it in practice.
_TRAILING = ".,;:!?)]}>\"'*_"
#: How far below its title a memory's headings are written (the title is ``##``).
HEADING_SHIFT = 2


def fenced_lines(lines: list[str], *, strict: bool = False) -> list[bool]:
    """For each line, whether it is part of a fenced code block (its fence lines included).
    ``strict``: only a fence opened at the line's very start counts."""
    inside: list[bool] = []
    fence = ""
    html = False  # in what may be an HTML block (to its first blank line): no fence opens there
    for line in lines:
        if fence:
            inside.append(True)
            if _closes(line, fence):
                fence = ""
            continue
        html = bool(line.strip()) and (html or line.lstrip(" ").startswith("<"))
        found = None if html else _FENCE.match(line)
        if found is not None and not (strict and found.group(1)):
            fence = found.group(2)
            inside.append(True)
        else:
            inside.append(False)
    return inside


def _closes(line: str, fence: str) -> bool:
    stripped = line.strip()
    return stripped.startswith(fence) and set(stripped) == {fence[0]} and _indent(line) <= 3


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def unclosed_fence(text: str) -> str | None:
    """The fence a text leaves open at its end (its backticks or tildes), if any: text that
    follows it would be read as code."""
    fence = ""
    for line in text.split("\n"):
        if fence:
            if _closes(line, fence):
                fence = ""
            continue
        found = _FENCE.match(line)
        if found is not None:
            fence = found.group(2)
    return fence or None


def _code_fences(lines: list[str]) -> list[bool]:
    """The lines surely inside fenced code (for every reader): those of fences opened at a
    line's very start, in a text where nothing else could make a reader take them otherwise
    (no fence line indented or inside a list item or quote, no HTML block or link definition
    that a fence line could belong to). Otherwise none: no line is taken for code."""
    fenced = fenced_lines(lines, strict=True)
    for line, is_code in zip(lines, fenced, strict=True):
        if not is_code and (_FENCEISH.match(line) or _HTML_OR_DEFINITION.match(line)):
            return [False] * len(lines)
    return fenced


def _spans_in_line(line: str) -> tuple[list[tuple[int, int]], int | None]:
    """The code spans of one line as CommonMark pairs its backtick runs (each with the next
    run of the same length), and where its first run with no partner is (None: every run
    has one). A run with no partner may pair with one on a later line of its paragraph."""
    runs = [(m.start(), m.end()) for m in _BACKTICKS.finditer(line)]
    later: dict[int, list[int]] = {}
    for index in range(len(runs) - 1, -1, -1):
        later.setdefault(runs[index][1] - runs[index][0], []).append(index)
    spans: list[tuple[int, int]] = []
    index = 0
    unpaired: int | None = None
    while index < len(runs):
        length = runs[index][1] - runs[index][0]
        candidates = later[length]
        while candidates and candidates[-1] <= index:
            candidates.pop()
        if not candidates:
            if unpaired is None:
                unpaired = runs[index][0]
            index += 1
            continue
        closing = candidates[-1]
        spans.append((runs[index][0], runs[closing][1]))
        index = closing + 1
    return spans, unpaired


@dataclass(frozen=True, slots=True)
class AtToken:
    """An ``@…`` outside code: where it starts (a run of backslashes before the ``@``
    included), where its ``@`` is, where its path ends, and the path."""

    start: int
    at: int
    end: int
    path: str


def at_tokens(text: str, *, fences: bool = False) -> list[AtToken]:
    """Every ``@…`` that a tool expanding imports could read as one: not in a code span that
    every reader sees as such (nor, with ``fences``, in fenced code every reader sees as such,
    which depends on the text before: a block inside another file never counts on it), not
    right after a letter or digit
    (``ada@example.com`` is an address). Wider than the documented rule (white space or the
    line's start before the ``@``), since a Markdown parser also starts a run of text after
    emphasis or a bracket.

    A code span is trusted line by line: on a line whose backtick runs all pair up among
    themselves (no ``<``, no escaped backtick), every reader pairs them the same way, whatever
    paragraph the line belongs to. After a run with no partner on its line (it may pair with
    one on a later line), nothing more of that paragraph is taken for code; after a line that
    may begin an HTML block, nothing more of the text. A fence line ends a paragraph (what is
    inside a fence is code or, if the text before left a fence open, text: without
    ``fences`` it is read line by line like any)."""
    lines = text.split("\n")
    fenced = _code_fences(lines) if fences else [False] * len(lines)
    found: list[AtToken] = []
    offset = 0
    trusted = True  # no run so far in this paragraph was left without a partner
    html = False  # an HTML block may have begun: its text is no Markdown
    for line, is_code in zip(lines, fenced, strict=True):
        html = html or bool(not is_code and _HTML_OR_DEFINITION.match(line) and line.lstrip().startswith("<"))
        if not line.strip():
            trusted = True
        elif not is_code and _FENCE.match(line):
            # A fence line always ends a paragraph (it opens or closes code, or is code).
            _tokens_in(text, offset, offset + len(line), found)
            trusted = True
        elif not is_code:
            spans: list[tuple[int, int]] = []
            if trusted and not html and "<" not in line and "\\`" not in line:
                spans, unpaired = _spans_in_line(line)
                trusted = unpaired is None
            else:
                trusted = False
            at = 0
            for span_start, span_end in [*spans, (len(line), len(line))]:
                _tokens_in(text, offset + at, offset + span_start, found)
                at = span_end
        offset += len(line) + 1
    return found


def _tokens_in(text: str, start: int, end: int, found: list[AtToken]) -> None:
    at = start
    while (match := _AT_START.search(text, at, end)) is not None:
        at = match.start()
        token = _AT_TOKEN.match(text, at, end)
        assert token is not None
        begin = at
        while begin > max(start, found[-1].end if found else 0) and text[begin - 1] == "\\":
            begin -= 1
        path_start = match.end()
        path_end = token.end()
        while path_end > path_start and text[path_end - 1] in _TRAILING and text[path_end - 2] != "\\":
            path_end -= 1
        found.append(AtToken(begin, at, path_end, text[path_start:path_end]))
        at = max(path_end, at + 1)


def imports(text: str) -> list[str]:
    """The paths a tool that expands ``@path`` imports reads from ``text`` (as the documented
    rule takes them: after white space or at a line's start, outside code)."""
    paths = []
    for token in at_tokens(text, fences=True):
        if token.path and (token.at == 0 or text[token.at - 1].isspace()):
            paths.append(token.path.replace("\\ ", " "))
    return paths


def quote_imports(text: str) -> str:
    """``text`` with every ``@…`` a tool could expand as an import put in a code span, where
    it is read as text; everything else as it was."""
    tokens = at_tokens(text)
    if not tokens:
        return text
    # Longer than any run in the text: a quote pairs only with itself, and inside a code span
    # (one this reading did not trust) it is only more of that span's text.
    fence = "`" * (max((len(m.group(0)) for m in _BACKTICKS.finditer(text)), default=0) + 1)
    parts: list[str] = []
    at = 0
    for token in tokens:
        # A space keeps the quote's run apart from a backtick beside it (runs side by side
        # are one run).
        before = " " if token.start > 0 and text[token.start - 1] == "`" else ""
        after = " " if text[token.end : token.end + 1] == "`" else ""
        parts += [text[at : token.start], before, fence, text[token.start : token.end], fence, after]
        at = token.end
    parts.append(text[at:])
    return "".join(parts)


def _lazy_item(line: str, start: re.Match[str]) -> bool:
    """A list item that cannot interrupt a paragraph (an empty one, or numbered other than 1):
    after a paragraph's line it is more of that paragraph."""
    marker = line[: start.end()].strip()
    if marker.startswith(">"):
        return False
    return not line[start.end() :].strip() or (marker[0].isdigit() and marker[:-1].lstrip("0") != "1")


def _opens_paragraph(content: str) -> bool:
    """Whether a list item's or a quote's first line (after its marker) starts a paragraph,
    which lazy lines after it continue (an empty one, a heading, a fence or a rule does not)."""
    if content.startswith((" " * 4, "\t")):  # indented code
        return False
    stripped = content[_MARKERISH.match(content).end() :]  # type: ignore[union-attr]
    return bool(stripped) and not (
        stripped.startswith("<") or _ATX.match(stripped) or _FENCE.match(stripped) or _RULE.match(stripped)
    )


def lower_headings(text: str, shift: int = HEADING_SHIFT) -> str:
    """``text`` with each of its headings written ``shift`` levels lower (at most level 6), so
    none reads as a sibling of the title it sits under. An underlined (setext) heading is
    written as a ``#`` heading of the level it had, lowered."""
    lines = text.split("\n")
    fenced = fenced_lines(lines, strict=True)  # an indented fence may sit in a list item
    out: list[str] = []
    paragraph = 0  # how many of the last lines in ``out`` form a paragraph
    contained = False  # in a list item or a quote, whose lazy lines are no paragraph of their own
    for line, is_code in zip(lines, fenced, strict=True):
        atx = None if is_code else _ATX.match(line)
        setext = None if is_code else _SETEXT.match(line)
        if is_code or not line.strip():
            out.append(line)
            paragraph, contained = 0, False
        elif atx is not None:
            out.append(atx.group(1) + "#" * min(len(atx.group(2)) + shift, 6) + line[atx.end() :])
            paragraph, contained = 0, False
        elif setext is not None and paragraph:
            level = (1 if setext.group(1)[0] == "=" else 2) + shift
            words = " ".join(part.strip() for part in out[-paragraph:])
            del out[-paragraph:]
            out.append("#" * min(level, 6) + " " + words)
            paragraph = 0
        elif _RULE.match(line):  # a rule: no paragraph goes on across it
            out.append(line)
            paragraph, contained = 0, False
        elif (start := _CONTAINER.match(line)) is not None and not (paragraph and _lazy_item(line, start)):
            out.append(line)
            paragraph, contained = 0, _opens_paragraph(line[start.end() :])
        else:
            out.append(line)
            # An indented line after a blank one is code; after a paragraph line it continues it.
            if not contained and (paragraph or not line.startswith("    ")):
                paragraph += 1
    return "\n".join(out)
