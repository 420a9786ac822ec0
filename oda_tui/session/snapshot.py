"""A consistent picture of the store, taken in a worker thread and painted by the UI."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from store import GLOBAL, StoreError, scope_label

if TYPE_CHECKING:
    from store import Limits, Memory, MemoryStore, Problem, Scope, UnreadableFolder


@dataclass(frozen=True)
class ScopeSummary:
    """One row of the scopes list: a scope and its counts."""

    scope: Scope
    count: int
    enabled: int
    problems: int

    @property
    def label(self) -> str:
        """The name a person sees: "Global" or the workspace key."""
        return scope_label(self.scope)


@dataclass(frozen=True)
class Snapshot:
    """Everything the main screen shows, read in one go under the session's call lock."""

    limits: Limits
    scopes: tuple[ScopeSummary, ...]
    memories: Mapping[Scope, tuple[Memory, ...]]
    problems: tuple[Problem, ...]
    chat_tokens: Mapping[Scope, int]
    settings_problems: tuple[str, ...] = ()
    #: A workspace listed before its folder exists (``--workspace``), else None.
    not_yet: Scope = None
    #: The store's folder, and whether it is missing (nothing written yet, or a typo).
    root: Path = Path()
    root_missing: bool = False
    #: The folders that could not be read, and the scopes whose memories each one hides.
    unreadable: tuple[UnreadableFolder, ...] = ()
    hidden: Mapping[Scope, UnreadableFolder] = field(default_factory=dict)

    def workspaces(self) -> list[str]:
        """The workspace keys, sorted."""
        return [s.scope for s in self.scopes if s.scope is not None]

    def meter(self, scope: Scope) -> tuple[int, Scope]:
        """Tokens a chat receives for ``scope``, and which chat that is.

        A workspace counts its own chat; Global counts the workspace where the memory is
        largest (or the Global-only chat when there is no workspace).
        """
        if scope is not None:
            return self.chat_tokens.get(scope, 0), scope
        best_scope: Scope = GLOBAL
        best = self.chat_tokens.get(GLOBAL, 0)
        for key in self.workspaces():
            tokens = self.chat_tokens.get(key, 0)
            if tokens > best:
                best, best_scope = tokens, key
        return best, best_scope

    def find(self, scope: Scope, memory_id: str) -> Memory | None:
        """The memory with this id in this scope, or None."""
        for memory in self.memories.get(scope, ()):
            if memory.id == memory_id:
                return memory
        return None


def take_snapshot(store: MemoryStore, include: Scope = None) -> Snapshot:
    """Read the store as it is now; call it in a worker thread, under the session's call lock.

    ``include`` names a workspace to list even before its folder exists (``--workspace``).
    """
    keys = list(store.workspaces())
    not_yet: Scope = None
    if include is not None and include not in keys and _valid_workspace(store, include):
        keys.append(include)
        not_yet = include
    problems = tuple(store.problems())
    for problem in problems:
        if problem.scope is not None and problem.scope not in keys:
            keys.append(problem.scope)
    scopes: list[Scope] = [GLOBAL, *sorted(keys)]
    memories: dict[Scope, tuple[Memory, ...]] = {}
    summaries = []
    for scope in scopes:
        listed = tuple(store.memories(scope))
        memories[scope] = listed
        summaries.append(
            ScopeSummary(
                scope=scope,
                count=len(listed),
                enabled=sum(1 for m in listed if m.enabled),
                problems=sum(1 for p in problems if p.scope == scope),
            )
        )
    unreadable = tuple(store.unreadable_folders())
    hidden: dict[Scope, UnreadableFolder] = {}
    for scope in scopes if unreadable else ():
        folder = store.memory_path(scope, "00000000").parent
        for shut in unreadable:
            if folder == shut.path or shut.path in folder.parents:
                hidden[scope] = shut
    tokens: dict[Scope, int] = {GLOBAL: store.chat_tokens(None)}
    for key in scopes[1:]:
        tokens[key] = store.chat_tokens(key)
    return Snapshot(
        limits=store.limits,
        scopes=tuple(summaries),
        memories=memories,
        problems=problems,
        chat_tokens=tokens,
        settings_problems=tuple(store.settings_problems()),
        not_yet=not_yet,
        root=store.root,
        root_missing=not store.root.exists(),
        unreadable=unreadable,
        hidden=hidden,
    )


def _valid_workspace(store: MemoryStore, key: str) -> bool:
    try:
        store.memory_path(key, "00000000")
    except StoreError:
        return False
    return True


def empty_scope_hint(snapshot: Snapshot, scope: Scope, *, root_named: bool = False) -> str:
    """What an empty list says: its folder could not be read; the store's folder named on
    purpose (``root_named``) does not exist; no memory yet; or only problem files (which ``!``
    shows)."""
    shut = snapshot.hidden.get(scope)
    if shut is not None:
        return (
            f"The folder {shut.path} could not be read: {shut.error}. Its memories cannot be shown "
            "(they are not gone) until it can be read. Press ! for every problem."
        )
    if not any(snapshot.memories.values()) and not snapshot.problems:
        if root_named and snapshot.root_missing:
            return (
                f"The folder {snapshot.root} does not exist, so it holds no memories. Check the "
                "path, or press n to add the first one: the folder is made when it is saved."
            )
        return (
            "There are no memories yet. Press n to add the first one: "
            "give it a title and a text, then press Ctrl+S to save."
        )
    label = scope_label(scope)
    problems = next((s.problems for s in snapshot.scopes if s.scope == scope), 0)
    if problems:
        files = "1 problem file" if problems == 1 else f"{problems} problem files"
        return (
            f"No memories in {label}: its only files are {files}, not sent to chats. "
            "Press ! to see and fix them, or n to add a memory."
        )
    if scope is not None and scope == snapshot.not_yet:
        return f"There is no workspace “{scope}” yet: the first memory saved in it creates it. Press n to add one."
    return f"No memories in {label} yet. Press n to add one."
