"""The managed block: what a chat receives, kept between two marker lines in a file another
assistant reads (``AGENTS.md``, ``CLAUDE.md``…), every other byte of the file left as it was.

Pure text work, no disk. The begin marker line records a SHA-256 of the block's content as
last written (line ends counted as LF, so a checkout that turns LF into CRLF is no edit), so
an edit made by hand since is told apart without any file beside it::

    <!-- oda-memory: begin sha256=…; written by oda-tui sync: change the memories, not this block -->
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

# A marker is a line of its own (spaces around it, and a BOM on the file's first line, allowed).
_MARKER = re.compile(r"^\ufeff?[ \t]*<!-- oda-memory: (begin|end)\b[^\n]*$", re.MULTILINE)
_DIGEST = re.compile(r"\bsha256=([0-9a-f]{64})\b")

Status = Literal["in step", "added", "updated", "edited"]


class BlockProblem(ValueError):
    """A file whose markers cannot be read as one block; ``str(err)`` says why, to follow
    the file's name."""


@dataclass(frozen=True, slots=True)
class Block:
    """Where the managed block is in a file's text (offsets into it)."""

    start: int  # the begin marker line
    content_start: int  # just after the begin marker line's line break
    content_end: int  # the end marker line
    end: int  # just after the end marker's text (its line break, if any, is not the block's)
    recorded: str | None  # the digest the begin marker holds

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


def find_block(text: str) -> Block | None:
    """The managed block of a file's text, or None when it has none; ``BlockProblem`` when
    its markers are not one begin line followed by one end line."""
    begins: list[re.Match[str]] = []
    ends: list[re.Match[str]] = []
    for match in _MARKER.finditer(text):
        (begins if match.group(1) == "begin" else ends).append(match)
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
    begin_text = begin.group(0)
    found = _DIGEST.search(begin_text)
    content_end = end.start()
    # The end marker's own text stops before a CR of a CRLF line end: that CR is the file's.
    end_at = end.end() - (1 if end.group(0).endswith("\r") else 0)
    return Block(
        start=begin.start(),
        content_start=min(begin.end() + 1, content_end),
        content_end=content_end,
        end=end_at,
        recorded=None if found is None else found.group(1),
    )


def render_block(chat_text: str, eol: str) -> str:
    """The block for ``chat_text`` (LF line ends), from its begin marker to its end marker's
    text, written with ``eol`` line ends."""
    content = chat_text if not chat_text or chat_text.endswith("\n") else chat_text + "\n"
    begin = f"{BEGIN} sha256={digest(content)}; {NOTE} -->"
    return begin + eol + content.replace("\n", eol) + END


def render_owned(chat_text: str, eol: str = "\n") -> str:
    """The whole text of a rules file the tool owns: its frontmatter, then the block."""
    return eol.join(OWNED_FRONTMATTER) + eol + render_block(chat_text, eol) + eol


def _edited(block: Block, text: str, wanted: str) -> bool:
    """True when the block's content is not what sync last wrote (and not what it would
    write now: an edit that already matches the memories loses nothing)."""
    content = block.content(text).replace("\r\n", "\n")
    return content != wanted and (block.recorded is None or digest(content) != block.recorded)


def _wanted(chat_text: str) -> str:
    return chat_text if not chat_text or chat_text.endswith("\n") else chat_text + "\n"


def check_chat_text(chat_text: str) -> None:
    """Refuse a text that holds a marker line: the block could not be found again."""
    if marker_in(chat_text):
        raise BlockProblem(
            "a memory holds a line beginning with <!-- oda-memory:, which would read as a marker; "
            "change that memory"
        )


def plan_block(text: str, chat_text: str, *, force: bool = False) -> BlockPlan:
    """Sync a file's text (a file the managed block goes into): the block put in at the end,
    or replaced where it is; every byte outside it kept. A block edited by hand since it was
    written is left (status ``edited``) unless ``force``."""
    check_chat_text(chat_text)
    wanted = _wanted(chat_text)
    block = find_block(text)
    eol = line_ending(text)
    if block is None:
        new_text = _appended(text, chat_text, eol)
        if line_ending(new_text) != eol:  # the file's first line end is the one added
            new_text = _appended(text, chat_text, line_ending(new_text))
        return BlockPlan(new_text, "added", "", wanted)
    before = block.content(text).replace("\r\n", "\n")
    new_text = text[: block.start] + render_block(chat_text, eol) + text[block.end :]
    if new_text == text:
        return BlockPlan(text, "in step", before, wanted)
    if _edited(block, text, wanted) and not force:
        return BlockPlan(text, "edited", before, wanted)
    return BlockPlan(new_text, "updated", before, wanted)


def _appended(text: str, chat_text: str, eol: str) -> str:
    """The file with the block added at its end, after a blank line."""
    lead = ""
    if text and not text.endswith("\n"):
        lead = eol + eol
    elif text and not text.endswith(eol + eol) and text != eol:
        lead = eol
    return text + lead + render_block(chat_text, eol) + eol


def plan_owned(text: str | None, chat_text: str, *, force: bool = False) -> BlockPlan:
    """Sync a file the tool owns whole (None: it does not exist yet). A file not written by
    sync, or changed anywhere since, is left (status ``edited``) unless ``force``."""
    check_chat_text(chat_text)
    wanted = _wanted(chat_text)
    if text is None:
        return BlockPlan(render_owned(chat_text), "added", "", render_owned(chat_text))
    eol = line_ending(text)
    new_text = render_owned(chat_text, eol)
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
        outside = text[: block.start] + text[block.end :]
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
    return text[: block.start] + text[block.end :]
