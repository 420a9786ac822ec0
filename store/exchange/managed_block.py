"""The managed block: the memories, kept between two marker lines in a file another assistant
reads (``AGENTS.md``, ``CLAUDE.md``…), every other byte of the file left as it was, the bytes
on the marker lines around the markers included (a BOM, an indentation, a note after one).

Pure text work, no disk. The begin marker records which set of memories the block holds and a
SHA-256 of the block's content as last written (line ends counted as LF, so a checkout that
turns LF into CRLF is no edit), so an edit made by hand since is told apart, and a sync of
another workspace into it refused, without any file beside it::

    <!-- oda-memory: begin memories=workspace:web sha256=…; written by oda-tui sync: change the memories, not this block -->
    # Memory
    …
    <!-- oda-memory: end -->

A file the tool owns whole (Cursor's ``.cursor/rules/oda-memory.mdc``) is Cursor's frontmatter
followed by the same block; any change to it outside the block counts as a hand edit too.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Literal

from store.exchange.block_markdown import fenced_lines

BEGIN = "<!-- oda-memory: begin"
END = "<!-- oda-memory: end -->"
NOTE = "written by oda-tui sync: change the memories, not this block"
#: The frontmatter of a rules file the tool owns (Cursor reads ``description`` and
#: ``alwaysApply``; no ``globs``: the memories apply to every file).
OWNED_FRONTMATTER = (
    "---",
    "description: What the person wants every assistant to know (oda-tui memories, written by oda-tui sync)",
    "alwaysApply: true",
    "---",
)

# A marker is a line of its own (spaces before it, a BOM on the file's first line, and
# anything after its ``-->`` allowed: those bytes are the file's, not the block's).
_MARKER = re.compile(r"^\ufeff?[ \t]*(<!-- oda-memory: (begin|end)\b)[^\n]*$", re.MULTILINE)
_DIGEST = re.compile(r"\bsha256=([0-9a-f]{64})\b")
_HOLDS = re.compile(r"\bmemories=([A-Za-z0-9._:+-]+)")
_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")

Status = Literal["in step", "added", "updated", "edited"]


class BlockProblem(ValueError):
    """A file whose markers cannot be read as one block; ``str(err)`` says why, to follow
    the file's name."""


@dataclass(frozen=True, slots=True)
class Block:
    """Where the managed block is in a file's text (offsets into it)."""

    line_start: int  # the begin marker's line (a BOM at the file's start excluded)
    begin_at: int  # the begin marker itself
    begin_end: int  # just after the begin marker's ``-->``
    content_start: int  # just after the begin marker line's line break
    content_end: int  # the end marker's line
    end_at: int  # the end marker itself
    end: int  # just after the end marker's ``-->``
    line_end: int  # just after the end marker line's line break (or the text's end)
    recorded: str | None  # the digest the begin marker holds
    holds: str | None  # the set of memories the begin marker names (``memories=``)

    def content(self, text: str) -> str:
        """The block's lines between its markers, as written."""
        return text[self.content_start : self.content_end]


@dataclass(frozen=True, slots=True)
class BlockPlan:
    """What syncing a file comes to: its new text, and the block's content before and after
    (LF line ends) to show as a diff when the block was edited by hand."""

    text: str
    status: Status
    before: str
    after: str


def digest(content: str) -> str:
    """The SHA-256 (hex) of a block's content with its line ends counted as LF."""
    return hashlib.sha256(content.replace("\r\n", "\n").encode("utf-8")).hexdigest()


def line_ending(text: str) -> str:
    """The file's line ending: that of its first line (LF for a file of one line or none)."""
    first = text.find("\n")
    return "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"


def marker_in(text: str) -> bool:
    """True when ``text`` holds a line that would read as a marker."""
    return _MARKER.search(text) is not None


def _marker_end(text: str, match: re.Match[str]) -> int:
    """Just after a marker's ``-->`` (the end of its line's text when it has none)."""
    line_end = match.end()
    if line_end > match.start(1) and text[line_end - 1] == "\r":
        line_end -= 1
    close = text.find("-->", match.start(1), line_end)
    return line_end if close < 0 else close + 3


def find_block(text: str) -> Block | None:
    """The managed block of a file's text, or None when it has none; ``BlockProblem`` when
    its markers are not one begin line followed by one end line."""
    begins: list[re.Match[str]] = []
    ends: list[re.Match[str]] = []
    for match in _MARKER.finditer(text):
        (begins if match.group(2) == "begin" else ends).append(match)
    if len(begins) > 1:
        raise BlockProblem(f"it holds {len(begins)} begin markers ({BEGIN} …), where one block has one")
    if len(ends) > 1:
        raise BlockProblem(f"it holds {len(ends)} end markers ({END}), where one block has one")
    if not begins and not ends:
        return None
    if not ends:
        raise BlockProblem(f"it has a begin marker but no end marker ({END}) after it")
    if not begins or ends[0].start() < begins[0].start():
        raise BlockProblem(f"it has an end marker ({END}) without a begin marker before it")
    begin, end = begins[0], ends[0]
    begin_end = _marker_end(text, begin)
    marker = text[begin.start(1) : begin_end]
    found = _DIGEST.search(marker)
    holds = _HOLDS.search(marker)
    end_end = _marker_end(text, end)
    return Block(
        line_start=begin.start() + (1 if text.startswith("\ufeff", begin.start()) else 0),
        begin_at=begin.start(1),
        begin_end=begin_end,
        content_start=min(begin.end() + 1, end.start()),
        content_end=end.start(),
        end_at=end.start(1),
        end=end_end,
        line_end=min(end.end() + 1, len(text)),
        recorded=None if found is None else found.group(1),
        holds=None if holds is None else holds.group(1),
    )


def _wanted(content: str) -> str:
    return content if not content or content.endswith("\n") else content + "\n"


def begin_marker(content: str, holds: str | None = None) -> str:
    """The begin marker for a block of ``content`` (LF line ends) holding the set ``holds``."""
    named = "" if holds is None else f" memories={holds}"
    return f"{BEGIN}{named} sha256={digest(_wanted(content))}; {NOTE} -->"


def render_block(content: str, eol: str, holds: str | None = None) -> str:
    """The block for ``content`` (LF line ends), from its begin marker to its end marker's
    text, written with ``eol`` line ends."""
    wanted = _wanted(content)
    return begin_marker(wanted, holds) + eol + wanted.replace("\n", eol) + END


def render_owned(content: str, eol: str = "\n", holds: str | None = None) -> str:
    """The whole text of a rules file the tool owns: its frontmatter, then the block."""
    return eol.join(OWNED_FRONTMATTER) + eol + render_block(content, eol, holds) + eol


def _edited(block: Block, text: str, wanted: str) -> bool:
    """True when the block's content is not what sync last wrote (and not what it would
    write now: an edit that already matches the memories loses nothing)."""
    content = block.content(text).replace("\r\n", "\n")
    return content != wanted and (block.recorded is None or digest(content) != block.recorded)


def _check(content: str) -> None:
    if marker_in(content):
        raise BlockProblem(
            "the memories hold a line beginning with <!-- oda-memory:, which would read as a marker"
        )


def _in_place(text: str, block: Block, content: str, holds: str | None, eol: str) -> str:
    """The text with the block's markers and content rewritten, every other byte kept (those
    on the marker lines too)."""
    wanted = _wanted(content)
    return "".join(
        (
            text[: block.begin_at],
            begin_marker(wanted, holds),
            text[block.begin_end : block.content_start],
            wanted.replace("\n", eol),
            text[block.content_end : block.end_at],
            END,
            text[block.end :],
        )
    )


def plan_block(
    text: str, content: str, *, holds: str | None = None, force: bool = False, at_top: bool = False
) -> BlockPlan:
    """Sync a file's text (a file the managed block goes into): the block put in (at the end,
    or with ``at_top`` after the first heading) or replaced where it is (moved with its
    marker lines, with ``at_top``); every byte outside it kept. A block edited by hand since
    it was written is left (status ``edited``) unless ``force``."""
    _check(content)
    wanted = _wanted(content)
    block = find_block(text)
    eol = line_ending(text)
    if block is None:
        if at_top:
            return BlockPlan(_at_top(text, render_block(content, eol, holds), eol), "added", "", wanted)
        new_text = _appended(text, content, holds, eol)
        if line_ending(new_text) != eol:  # the file's first line end is the one added
            new_text = _appended(text, content, holds, line_ending(new_text))
        return BlockPlan(new_text, "added", "", wanted)
    before = block.content(text).replace("\r\n", "\n")
    # The block keeps the line ends it has (those of its begin marker's line).
    eol = "\r\n" if text[block.begin_end : block.content_start].endswith("\r\n") else "\n"
    new_text = _in_place(text, block, content, holds, eol)
    if at_top and not _is_at_top(text, block):
        moved = find_block(new_text)
        assert moved is not None
        lines = new_text[moved.line_start : moved.line_end].rstrip("\r\n")
        new_text = _at_top(new_text[: moved.line_start] + new_text[moved.line_end :], lines, eol)
    if new_text == text:
        return BlockPlan(text, "in step", before, wanted)
    if _edited(block, text, wanted) and not force:
        return BlockPlan(text, "edited", before, wanted)
    return BlockPlan(new_text, "updated", before, wanted)


def _appended(text: str, content: str, holds: str | None, eol: str) -> str:
    """The file with the block added at its end, after a blank line."""
    lead = ""
    if text and not text.endswith("\n"):
        lead = eol + eol
    elif text and not text.endswith(eol + eol) and text != eol:
        lead = eol
    return text + lead + render_block(content, eol, holds) + eol


def _top(text: str) -> int:
    """Where ``--at top`` puts the block: after the first heading's line (outside code), or
    at the start (after a BOM) when there is none."""
    lines = text.split("\n")
    offset = 0
    for line, is_code in zip(lines, fenced_lines(lines), strict=True):
        if not is_code and _HEADING.match(line.lstrip("\ufeff")):
            return min(offset + len(line) + 1, len(text))
        offset += len(line) + 1
    return 1 if text.startswith("\ufeff") else 0


def _is_at_top(text: str, block: Block) -> bool:
    rest = text[: block.line_start] + text[block.line_end :]
    top = _top(rest)
    return block.line_start >= top and not text[top : block.line_start].strip()


def _at_top(text: str, lines: str, eol: str) -> str:
    """``text`` with the block's ``lines`` put at its top, a blank line on either side."""
    top = _top(text)
    head, tail = text[:top], text[top:]
    if head and not head.endswith("\n"):
        head += eol
    gap_before = eol if head.lstrip("\ufeff") else ""
    gap_after = eol if tail and not tail.startswith(("\n", "\r\n")) else ""
    return head + gap_before + lines + eol + gap_after + tail


def plan_owned(text: str | None, content: str, *, holds: str | None = None, force: bool = False) -> BlockPlan:
    """Sync a file the tool owns whole (None: it does not exist yet). A file not written by
    sync, or changed anywhere since, is left (status ``edited``) unless ``force``."""
    _check(content)
    wanted = _wanted(content)
    if text is None:
        new = render_owned(content, holds=holds)
        return BlockPlan(new, "added", "", new)
    eol = line_ending(text)
    new_text = render_owned(content, eol, holds)
    if new_text == text:
        return BlockPlan(text, "in step", text, new_text)
    try:
        block = find_block(text)
    except BlockProblem:
        block = None
    before = text.replace("\r\n", "\n")
    after = new_text.replace("\r\n", "\n")
    if block is None:
        edited = True
    else:
        outside = text[: block.begin_at] + text[block.end :]
        expected_outside = eol.join(OWNED_FRONTMATTER) + eol + eol
        edited = outside != expected_outside or _edited(block, text, wanted)
    if edited and not force:
        return BlockPlan(text, "edited", before, after)
    return BlockPlan(new_text, "updated", before, after)


def without_block(text: str) -> str:
    """The text with its managed block (markers included) taken out; ``BlockProblem`` when
    its markers are not one block."""
    block = find_block(text)
    if block is None:
        return text
    return text[: block.begin_at] + text[block.end :]


def block_end_byte(text: str) -> int | None:
    """How many bytes of the file come up to the end of its block (UTF-8)."""
    try:
        block = find_block(text)
    except BlockProblem:
        return None
    return None if block is None else len(text[: block.end].encode("utf-8"))
