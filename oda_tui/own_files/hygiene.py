"""Duplicate and similar groups as the app shows them (no Textual here)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from store import scope_label

if TYPE_CHECKING:
    from store import Memory, MemoryStore, Scope


@dataclass(frozen=True)
class Group:
    """Memories a chat receives together that repeat each other."""

    kind: str  # "duplicate" or "similar"
    members: tuple[Memory, ...]

    @property
    def where(self) -> str:
        """The scopes it spans: "Global", "acme-web" or "Global + acme-web"."""
        labels: list[str] = []
        for memory in self.members:
            label = scope_label(memory.scope)
            if label not in labels:
                labels.append(label)
        return " + ".join(labels)


def read_groups(store: MemoryStore) -> list[Group]:
    """Duplicate groups first, then similar ones (call it in a worker thread)."""
    groups = [Group("duplicate", tuple(g)) for g in store.duplicates()]
    return groups + [Group("similar", tuple(g)) for g in store.similar()]


def duplicate_ids(groups: Iterable[Iterable[Memory]]) -> dict[Scope, frozenset[str]]:
    """The ids of every memory in a duplicate group, by scope (for marking the list)."""
    found: dict[Scope, set[str]] = {}
    for group in groups:
        for memory in group:
            found.setdefault(memory.scope, set()).add(memory.id)
    return {scope: frozenset(ids) for scope, ids in found.items()}
