"""What the memory editor has open and what its edits are measured against, without its widgets:
the editor shows a draft and hands it what was typed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from store import Memory, Scope, scope_label

from ...text.format import full_moment
from ...text.glyphs import glyph
from ...text.safe import clean_block, clean_line, restore_controls
from ...text.words import saved_by
from .counts import extra_text


def _outgoing(typed: str, stored: str, shown: Callable[[str], str]) -> str:
    """What to save of a field: as typed, with the stored value's control characters kept."""
    return stored if typed == shown(stored) else restore_controls(typed, stored)


@dataclass(frozen=True)
class Draft:
    """The open memory (or a new one) and the store's last refusal of it. A draft never changes:
    each change makes a new one, so the editor reacts to every change in one place."""

    scope: Scope = None
    memory: Memory | None = None
    """The memory as last read from the store; edits are measured against it."""
    is_new: bool = False
    orphan: bool = False
    """The open memory was deleted on disk while it had edits; saving creates it again."""
    save_error: str | None = None
    """The store's refusal of the last save, while the edits are unchanged since."""

    @classmethod
    def of(cls, memory: Memory) -> Draft:
        """A saved memory, as the store has it now."""
        return cls(memory.scope, memory)

    @classmethod
    def new(cls, scope: Scope) -> Draft:
        """An empty draft for a new memory in ``scope``."""
        return cls(scope, None, is_new=True)

    def orphaned(self) -> Draft:
        """The open memory was deleted on disk; its edits are saved as a new memory."""
        return replace(self, memory=None, is_new=True, orphan=True)

    def based_on(self, memory: Memory) -> Draft:
        """The same edits, measured against ``memory`` (the version on disk now)."""
        return replace(self, memory=memory)

    def refused(self, error: str | None) -> Draft:
        """The store refused the last save (None: the edits changed since)."""
        return replace(self, save_error=error)

    @property
    def memory_id(self) -> str | None:
        """The id of the open memory (None when empty or new)."""
        return None if self.is_new or self.memory is None else self.memory.id

    @property
    def has_memory(self) -> bool:
        """True when a memory (or a new one) is open."""
        return self.memory is not None or self.is_new

    # -- measured against what was typed -------------------------------------------------

    def differs(self, title: str, enabled: bool, text: str) -> bool:
        """True when the form's values differ from what was last read (a new draft: not empty)."""
        if self.is_new:
            return bool(title.strip() or text.strip())
        if self.memory is None:
            return False
        return (
            title != clean_line(self.memory.title)
            or enabled != self.memory.enabled
            or text != clean_block(self.memory.text)
        )

    def outgoing_title(self, typed: str) -> str:
        """The title to save: as typed, with the file's control characters kept."""
        return _outgoing(typed, self.memory.title if self.memory else "", clean_line)

    def outgoing_text(self, typed: str) -> str:
        """The text to save: as typed, with the file's control characters kept."""
        return _outgoing(typed, self.memory.text if self.memory else "", clean_block)

    def display_title(self, typed: str) -> str:
        """The title to quote in messages about the open memory."""
        if self.memory is not None:
            return self.memory.title
        return typed or "New memory"

    # -- what the editor says about it ---------------------------------------------------

    def heading(self) -> str:
        """The line above the form: where the memory lives and which it is."""
        where = scope_label(self.scope)
        if self.orphan:
            return f"{where} {glyph('dot')} deleted on disk; saving creates it again"
        if self.is_new:
            return f"New memory in {where}"
        if self.memory is not None:
            return f"{where} {glyph('dot')} {clean_line(self.memory.title)}"
        return ""

    def meta(self) -> str:
        """Who saved the memory, its session, when, and any other fields of its frontmatter."""
        memory = self.memory
        if memory is None:
            return f"new {glyph('dot')} saved by you"
        session = clean_line(memory.session_id) if memory.session_id else glyph("dash")
        meta = (
            f"{saved_by(memory.source)} {glyph('dot')} sessionId {session} {glyph('dot')} "
            f"created {full_moment(memory.created)} {glyph('dot')} updated {full_moment(memory.updated)}"
        )
        if memory.extra:
            meta += f"\nOther fields: {extra_text(memory.extra)}"
        return meta
