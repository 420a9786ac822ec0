"""Importing found memories into one scope: what would happen (a dry run), and doing it.

Each imported memory records where it came from in its frontmatter (``importedFrom``: the
found memory's ``key``, e.g. ``server-memory entity Ada_Lovelace``) and what the source said
then (``importedDigest``: a digest of the title and of the text). At a later import each found
memory is, in this order:

- **changed**, when a memory of the scope came from the same item and the source says
  something new since (only the title or text the source changed; a ``settings`` version);
- **unchanged** (skipped), when it came from the same item and the source says what it said at
  the last import: edits made to the memory since are kept;
- **duplicate** (skipped), when its text is one a chat in that scope already receives or could
  receive (the duplicates view's normalised comparison, against every memory of the scope and
  of the chats it reaches, on or off, and against the ones this import creates first);
- **created**, or **refused** in the store's own words.

Each is created by ``MemoryStore.create`` and changed by ``MemoryStore.edit`` (source ``user``,
version source ``settings``), each its own transaction: a refusal skips that memory only.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from store import messages as msg
from store.checks.duplicates import normalize_for_duplicates
from store.errors import LooksSecret, StoreError
from store.exchange.create_check import CreationCheck
from store.exchange.importers import Candidate
from store.format.fields import normalize_text, normalize_title
from store.memory_store import MemoryStore
from store.model import Memory, Scope, scope_label

Outcome = Literal["create", "change", "unchanged", "duplicate", "refused"]
OUTCOMES: tuple[Outcome, ...] = ("create", "change", "unchanged", "duplicate", "refused")

#: The frontmatter keys an imported memory keeps: what it came from, and what that said.
ORIGIN_KEY = "importedFrom"
DIGEST_KEY = "importedDigest"

#: The secret refusal for an import, which has no way to save one anyway.
IMPORT_LOOKS_SECRET = (
    "This text looks like it contains {what}; it would be sent to the model with every message. "
    "Remove it from the source and import again, or, if you are sure, save the memory in the app."
)


@dataclass(frozen=True, slots=True)
class Step:
    """What happens (or would happen) to one found memory."""

    candidate: Candidate
    outcome: Outcome
    reason: str = ""  # a skip: the memory it repeats or came from; a refusal: the store's message
    memory_id: str | None = None  # the memory created (once applied), changed or left as it is
    refusal: StoreError | None = None


def digest(title: str, text: str) -> str:
    """What an imported memory keeps of what its source said: a digest of the title and one
    of the text (as the store keeps them), so a later import tells which of them changed."""

    def part(value: str) -> str:
        return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:12]

    return f"sha256:{part(normalize_title(title))}.{part(normalize_text(text))}"


def _changed_parts(memory: Memory, candidate: Candidate) -> tuple[str | None, str | None]:
    """The title and text (None: kept) a change to ``memory`` takes from what its source says
    now: what changed in the source since the last import (both when that is not known)."""
    kept = memory.extra.get(DIGEST_KEY)
    now = digest(candidate.title, candidate.text)
    if not isinstance(kept, str) or kept.count(".") != 1:
        return candidate.title, candidate.text
    (kept_title, kept_text), (now_title, now_text) = kept.split("."), now.split(".")
    return (
        candidate.title if kept_title != now_title else None,
        candidate.text if kept_text != now_text else None,
    )


class _Seen:
    """The normalised texts a new memory of ``scope`` must not repeat, and whose they are; and
    the memories of ``scope`` an earlier import made, by what they came from."""

    def __init__(self, store: MemoryStore, scope: Scope) -> None:
        scopes: list[Scope] = [None, *store.workspaces()] if scope is None else [None, scope]
        self.texts: dict[str, tuple[str, str | None]] = {}
        self.imported: dict[str, Memory] = {}
        for each in scopes:
            for memory in store.memories(each):
                self.add(memory.text, f"“{memory.title}” in {scope_label(each)}", memory.id)
                origin = memory.extra.get(ORIGIN_KEY)
                if each == scope and isinstance(origin, str):
                    self.imported.setdefault(origin, memory)

    def add(self, text: str, whose: str, memory_id: str | None = None) -> None:
        key = normalize_for_duplicates(text)
        if key:
            self.texts.setdefault(key, (whose, memory_id))

    def drop(self, text: str, memory_id: str) -> None:
        """Forget ``text`` as the memory ``memory_id``'s: it is being changed."""
        key = normalize_for_duplicates(text)
        if self.texts.get(key, ("", None))[1] == memory_id:
            del self.texts[key]

    def repeats(self, text: str) -> str | None:
        key = normalize_for_duplicates(text)
        found = self.texts.get(key) if key else None
        return None if found is None else found[0]


def _refused(candidate: Candidate, exc: StoreError) -> Step:
    reason = str(exc)
    if isinstance(exc, LooksSecret):
        reason = IMPORT_LOOKS_SECRET.format(what=msg.describe_kinds(exc.kinds))
    return Step(candidate, "refused", reason, refusal=exc)


def _origin(candidate: Candidate) -> dict[str, str]:
    if not candidate.key:
        return {}
    return {ORIGIN_KEY: candidate.key, DIGEST_KEY: digest(candidate.title, candidate.text)}


def plan_import(store: MemoryStore, scope: Scope, candidates: list[Candidate]) -> list[Step]:
    """What importing ``candidates`` into ``scope`` would do; nothing is written."""
    check = CreationCheck(store, scope)

    def would_create(candidate: Candidate) -> Step:
        refusal = check.refusal(candidate.title, candidate.text, _origin(candidate))
        return Step(candidate, "create") if refusal is None else _refused(candidate, refusal)

    def would_change(memory: Memory, candidate: Candidate, title: str | None, text: str | None) -> Step:
        refusal = check.change_refusal(memory, title, text)
        return (
            Step(candidate, "change", memory_id=memory.id)
            if refusal is None
            else _refused(candidate, refusal)
        )

    return _steps(_Seen(store, scope), candidates, would_create, would_change)


def apply_import(store: MemoryStore, scope: Scope, candidates: list[Candidate]) -> list[Step]:
    """Create (or change) each of ``candidates`` in ``scope`` that is no duplicate, each in its
    own transaction; a refusal skips that memory only."""
    if scope is None:
        store.refresh()
    else:
        store.refresh_scopes([None, scope])

    def create(candidate: Candidate) -> Step:
        try:
            memory = store.create(
                scope,
                candidate.title,
                candidate.text,
                source="user",
                via="settings",
                extra=_origin(candidate),
            )
        except StoreError as exc:
            return _refused(candidate, exc)
        return Step(candidate, "create", memory_id=memory.id)

    def change(memory: Memory, candidate: Candidate, title: str | None, text: str | None) -> Step:
        try:
            store.edit(scope, memory.id, title=title, text=text, via="settings", extra=_origin(candidate))
        except StoreError as exc:
            return _refused(candidate, exc)
        return Step(candidate, "change", memory_id=memory.id)

    return _steps(_Seen(store, scope), candidates, create, change)


Changer = Callable[[Memory, Candidate, str | None, str | None], Step]


def _steps(
    seen: _Seen, candidates: list[Candidate], create: Callable[[Candidate], Step], change: Changer
) -> list[Step]:
    """Each candidate's step, in order: one an earlier import made is changed or left as it
    is; a duplicate is skipped; any other is ``create``'s (made or refused). A text created or
    changed is one the candidates after it must not repeat."""
    steps: list[Step] = []
    for candidate in candidates:
        earlier = seen.imported.pop(candidate.key, None) if candidate.key else None
        if earlier is not None:
            steps.append(_again(seen, earlier, candidate, change))
            continue
        whose = seen.repeats(candidate.text)
        if whose is not None:
            steps.append(Step(candidate, "duplicate", f"the same text as {whose}"))
            continue
        step = create(candidate)
        if step.outcome == "create":
            seen.add(candidate.text, f"“{candidate.title}”, imported before it")
        steps.append(step)
    return steps


def _again(seen: _Seen, memory: Memory, candidate: Candidate, change: Changer) -> Step:
    """The step of a found memory that an earlier import made into ``memory``."""
    title, text = _changed_parts(memory, candidate)
    if title is not None and normalize_title(title) == memory.title:
        title = None
    if text is not None and normalize_text(text) == memory.text:
        text = None
    where = f"imported before as “{memory.title}”"
    if title is None and text is None:
        return Step(candidate, "unchanged", f"{where}; unchanged in the source since", memory_id=memory.id)
    step = change(memory, candidate, title, text)
    if step.outcome == "change":
        if text is not None:
            seen.drop(memory.text, memory.id)
            seen.add(text, f"“{candidate.title}”, imported before it", memory.id)
        return Step(candidate, "change", where, memory_id=memory.id)
    return step


def counts(steps: list[Step]) -> dict[Outcome, int]:
    """How many were (or would be) created, changed, left unchanged, skipped as duplicates
    and refused."""
    found: dict[Outcome, int] = dict.fromkeys(OUTCOMES, 0)
    for step in steps:
        found[step.outcome] += 1
    return found
