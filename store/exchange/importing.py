"""Importing found memories into one scope: what would happen (a dry run), and doing it.

Each found memory is one of: created; skipped as a duplicate of a memory a chat in that scope
already receives or could receive (the duplicates view's normalised comparison, against every
memory of the scope and of the chats it reaches, on or off, and against the ones this import
creates first); or refused in the store's own words. Each is created by ``MemoryStore.create``
(source ``user``, version source ``settings``), so each is its own transaction: a refusal
skips that memory and the others go ahead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from store.checks.duplicates import normalize_for_duplicates
from store.errors import StoreError
from store.exchange.create_check import CreationCheck
from store.exchange.importers import Candidate
from store.memory_store import MemoryStore
from store.model import Scope, scope_label

Outcome = Literal["create", "duplicate", "refused"]


@dataclass(frozen=True, slots=True)
class Step:
    """What happens (or would happen) to one found memory."""

    candidate: Candidate
    outcome: Outcome
    reason: str = ""  # a duplicate: the memory it repeats; a refusal: the store's message
    memory_id: str | None = None  # the memory created (once applied)


class _Seen:
    """The normalised texts a new memory of ``scope`` must not repeat, and whose they are."""

    def __init__(self, store: MemoryStore, scope: Scope) -> None:
        scopes: list[Scope] = [None, *store.workspaces()] if scope is None else [None, scope]
        self.scope = scope
        self.texts: dict[str, str] = {}
        for each in scopes:
            for memory in store.memories(each):
                self.add(memory.text, f"“{memory.title}” in {scope_label(each)}")

    def add(self, text: str, whose: str) -> None:
        key = normalize_for_duplicates(text)
        if key:
            self.texts.setdefault(key, whose)

    def repeats(self, text: str) -> str | None:
        key = normalize_for_duplicates(text)
        return self.texts.get(key) if key else None


def plan_import(store: MemoryStore, scope: Scope, candidates: list[Candidate]) -> list[Step]:
    """What importing ``candidates`` into ``scope`` would do; nothing is written."""
    seen = _Seen(store, scope)
    check = CreationCheck(store, scope)

    def would_create(candidate: Candidate) -> Step:
        refusal = check.refusal(candidate.title, candidate.text)
        return Step(candidate, "create") if refusal is None else Step(candidate, "refused", str(refusal))

    return _steps(seen, candidates, would_create)


def apply_import(store: MemoryStore, scope: Scope, candidates: list[Candidate]) -> list[Step]:
    """Create each of ``candidates`` in ``scope`` that is no duplicate, each in its own
    transaction; a refusal skips that memory only."""
    if scope is None:
        store.refresh()
    else:
        store.refresh_scopes([None, scope])

    def create(candidate: Candidate) -> Step:
        try:
            memory = store.create(scope, candidate.title, candidate.text, source="user", via="settings")
        except StoreError as exc:
            return Step(candidate, "refused", str(exc))
        return Step(candidate, "create", memory_id=memory.id)

    return _steps(_Seen(store, scope), candidates, create)


def _steps(seen: _Seen, candidates: list[Candidate], create: Callable[[Candidate], Step]) -> list[Step]:
    """Each candidate's step, in order: a duplicate is skipped, any other is ``create``'s (made
    or refused); one created is a text the ones after it must not repeat."""
    steps: list[Step] = []
    for candidate in candidates:
        whose = seen.repeats(candidate.text)
        if whose is not None:
            steps.append(Step(candidate, "duplicate", f"the same text as {whose}"))
            continue
        step = create(candidate)
        if step.outcome == "create":
            seen.add(candidate.text, f"“{candidate.title}”, imported before it")
        steps.append(step)
    return steps


def counts(steps: list[Step]) -> dict[Outcome, int]:
    """How many were (or would be) created, skipped as duplicates and refused."""
    found: dict[Outcome, int] = {"create": 0, "duplicate": 0, "refused": 0}
    for step in steps:
        found[step.outcome] += 1
    return found
