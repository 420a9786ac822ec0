"""The plain records the store hands out: memories, problems, versions, chat memory."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

#: A scope is the global set (``GLOBAL``, which is ``None``) or a workspace key.
Scope = str | None
GLOBAL: Scope = None


def scope_label(scope: Scope) -> str:
    """How a scope is named to a person: "Global" or the workspace key."""
    return "Global" if scope is None else scope


class Memory(NamedTuple):
    """One problem-free memory file, as read.

    An immutable record. It is a named tuple rather than a frozen dataclass because a start
    builds one per file: this is the cheapest immutable record Python can build.
    """

    id: str
    scope: Scope
    title: str
    text: str
    enabled: bool
    source: str  # "user" or "ai"
    session_id: str | None
    created: datetime | None
    updated: datetime | None
    location: str  # the file's path, as a string (``path`` gives it as a Path)
    extra: dict[str, Any] = {}  # unknown frontmatter keys, as read; never changed in place

    @property
    def path(self) -> Path:
        """The memory's file."""
        return Path(self.location)

    @property
    def saved_by_agent(self) -> bool:
        """True for a memory Oda saved itself (``source: ai``)."""
        return self.source == "ai"

    def __hash__(self) -> int:
        # ``extra`` is a dict: leave it out, as equal records still hash alike.
        return hash(self[:10])


@dataclass(frozen=True, slots=True)
class Problem:
    """A memory file that fails a check; it is listed and never sent."""

    path: Path
    scope: Scope
    id: str
    message: str
    line: int | None = None  # 1-based file line a YAML error names, if any


@dataclass(frozen=True, slots=True)
class Ignored:
    """Something in the store that is not treated as a memory, and why."""

    path: Path
    reason: str


@dataclass(frozen=True, slots=True)
class UnreadableFolder(Ignored):
    """A folder of the store that could not be read (a set's, or the workspaces folder): what
    is in it is not shown, and it is not empty. ``error`` is why, in the system's words
    ("Permission denied")."""

    error: str


@dataclass(frozen=True, slots=True)
class Deleted:
    """A memory (or problem file) waiting under Recently deleted."""

    id: str
    scope: Scope
    title: str
    deleted_at: datetime
    text: str = ""
    problem: bool = False
    #: Removed by another program (``rm``): no deletion record, so ``deleted_at`` is the moment
    #: of its newest version and a restore writes that version back.
    outside: bool = False
    #: Where the deletion came from, as a version's source: ``chat`` for an agent's.
    via: str = "settings"


@dataclass(frozen=True, slots=True)
class Version:
    """One kept version of a memory's title and text."""

    name: str
    moment: datetime
    source: str  # chat settings restore undo external found
    title: str
    text: str
    #: For a chat's change: ``history.text_key`` of the title and text it replaced (None for
    #: other changes, a chat that created the memory, and versions kept before this was noted).
    replaced: str | None = None


@dataclass(frozen=True, slots=True)
class Change:
    """What ``MemoryStore.change`` did: the memory, whether it changed, and a note."""

    memory: Memory
    changed: bool
    note: str | None = None


@dataclass(frozen=True, slots=True)
class ChatEntry:
    """One memory as a chat receives it."""

    id: str
    scope: Scope
    title: str
    text: str


@dataclass(frozen=True, slots=True)
class ChatMemory:
    """Exactly what a chat receives: the text, its token estimate and its entries."""

    text: str
    tokens: int
    entries: tuple[ChatEntry, ...]


@dataclass(frozen=True, slots=True)
class ReviewItem:
    """One memory waiting for review, with what the agent (a chat) changed
    (``MemoryStore.agent_changes``)."""

    memory: Memory
    newest: Version  # the newest chat version: what the memory is now
    before: Version | None  # the version before it; None when the chat created the memory
    reviewed: str | None  # the version name the person last reviewed, if any
    #: The chat deleted the memory: ``memory`` is what it was (under Recently deleted now),
    #: ``before`` its text and ``newest`` stands for the deletion (its name is the review mark).
    deleted: Deleted | None = None

    @property
    def created_by_agent(self) -> bool:
        return self.before is None

    @property
    def deleted_by_agent(self) -> bool:
        return self.deleted is not None

    @property
    def before_title(self) -> str:
        return self.before.title if self.before is not None else ""

    @property
    def before_text(self) -> str:
        return self.before.text if self.before is not None else ""

    @property
    def after_title(self) -> str:
        return self.newest.title

    @property
    def after_text(self) -> str:
        return self.newest.text
