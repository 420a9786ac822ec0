"""What a managed block holds: which set of memories (``MemorySet``, recorded in the begin
marker) and the block's text (``block_content``). Pure.

The block reads as what a chat receives (``# Memory``, then each memory under its ``##``
title), written for a file other tools read: a memory's own headings are lowered below its
title's level (they would read as memories of their own), a fence it leaves open is closed
(the next memory would read as code), and every ``@…`` is quoted in a code span (Claude Code
and Gemini CLI would read it as an import of that file).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from store.checks.chat import HEADER
from store.exchange.block_markdown import lower_headings, quote_imports, unclosed_fence
from store.exchange.managed_block import BlockProblem, marker_in
from store.model import ChatEntry

GLOBAL_HOLDS = "global"


@dataclass(frozen=True, slots=True)
class MemorySet:
    """The memories a block holds: a workspace's (with Global's too, when asked), or Global's
    alone (the user-level files, ``workspace`` None)."""

    workspace: str | None
    with_global: bool = False

    @property
    def user_level(self) -> bool:
        """Global alone: what the user-level files get."""
        return self.workspace is None

    @property
    def holds(self) -> str:
        """How the begin marker names this set: ``global``, ``workspace:KEY``,
        ``workspace:KEY+global``."""
        if self.workspace is None:
            return GLOBAL_HOLDS
        return f"workspace:{self.workspace}" + ("+global" if self.with_global else "")

    @property
    def words(self) -> str:
        """The set for a person: ``Global``, ``workspace web``, ``workspace web and Global``."""
        return holds_words(self.holds)


def workspace_of(holds: str) -> str | None:
    """The workspace a recorded set names (None: Global alone, or a record not understood)."""
    if not holds.startswith("workspace:"):
        return None
    return holds[len("workspace:") :].removesuffix("+global") or None


def holds_words(holds: str) -> str:
    """A recorded set (``workspace:web+global``) for a person."""
    workspace = workspace_of(holds)
    if workspace is None:
        return "Global" if holds == GLOBAL_HOLDS else f'"{holds}"'
    return f"workspace {workspace}" + (" and Global" if holds.endswith("+global") else "")


def _where(entry: ChatEntry) -> str:
    return "Global" if entry.scope is None else f"workspace {entry.scope}"


def entry_text(entry: ChatEntry) -> str:
    """A memory's text as the block holds it: its headings below its title, its fences closed."""
    text = lower_headings(entry.text)
    fence = unclosed_fence(text)
    return text if fence is None else f"{text}\n{fence}"


def block_content(entries: Iterable[ChatEntry]) -> str:
    """The block's text for these memories (empty for none); ``BlockProblem`` naming a memory
    that holds a line that would read as a marker."""
    parts = []
    for entry in entries:
        if marker_in(entry.text):
            raise BlockProblem(
                f'The memory "{entry.title}" ({_where(entry)}, id {entry.id}) holds a line beginning with '
                "<!-- oda-memory:, which would read as a marker of the block; change that memory"
            )
        parts.append(f"## {entry.title}\n\n{entry_text(entry)}\n")
    if not parts:
        return ""
    return quote_imports(HEADER + "\n".join(parts))
