"""Every memory as one Markdown document, grouped by scope (like the peer system's Export).

Pure: it builds text and writes nothing, so a chat runtime can offer the same export.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from store.memory_store import MemoryStore
from store.model import Memory, Scope

TITLE = "Oda memories"
EMPTY = "No memories."

# Characters that could start Markdown syntax inside a heading; a backslash makes each literal.
_MARKUP = re.compile(r"([\\`*_\[\]<>#~|&])")
_BACKTICKS = re.compile(r"`+")


def export_markdown(groups: Iterable[tuple[Scope, Sequence[Memory]]], *, title: str = TITLE) -> str:
    """The Markdown for these scopes, in the order given: a section per scope, one per memory.

    Each memory's text sits in a code fence longer than any run of backticks inside it, so
    headings, lists or fences in a memory never break the document's structure.
    """
    parts = [f"# {title}\n"]
    for scope, memories in groups:
        parts.append(f"## {scope_heading(scope)}\n")
        if not memories:
            parts.append(f"{EMPTY}\n")
        parts.extend(memory_section(m) for m in memories)
    return "\n".join(parts)


def export_store(store: MemoryStore, scopes: Iterable[Scope] | None = None) -> str:
    """The Markdown for a store: the given scopes, or Global and then every workspace."""
    chosen: list[Scope] = [None, *store.workspaces()] if scopes is None else list(scopes)
    return export_markdown((scope, store.memories(scope)) for scope in chosen)


def scope_heading(scope: Scope) -> str:
    """A scope's section heading: "Global" or "Workspace `key`"."""
    return "Global" if scope is None else f"Workspace `{scope}`"


def memory_section(memory: Memory) -> str:
    """One memory: its title as a heading, a line of id, on/off and who saved it, then its text."""
    state = "on" if memory.enabled else "off"
    who = "saved by the agent" if memory.source == "ai" else "saved by you"
    heading = escape_inline(memory.title) or "(no title)"
    return f"### {heading}\n\n`{memory.id}` · {state} · {who}\n\n{fenced(memory.text)}"


def escape_inline(text: str) -> str:
    """Text that Markdown shows as written on one line (backslash before each markup character)."""
    return _MARKUP.sub(r"\\\1", text)


def fenced(text: str) -> str:
    """``text`` inside a backtick fence that nothing inside it can close."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    body = text if not text or text.endswith("\n") else text + "\n"
    return f"{fence}\n{body}{fence}\n"


__all__ = ["export_markdown", "export_store", "fenced", "memory_section", "scope_heading"]
