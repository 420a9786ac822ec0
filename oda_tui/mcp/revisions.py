"""What ``memory_read`` has sent, by revision: enough to answer ``since`` with a change note.

A revision names exactly what was sent: a digest of the chat's entries (each memory's set, id,
title and text, in order). The same memory sent again has the same revision, so "unchanged"
needs nothing kept; a change note needs what that revision held, kept here for the last
revisions sent (bounded in count and in characters), shared by every conversation the process
serves. A revision not held (never sent here, forgotten, or from before a restart) is answered
with the complete memory and the reason. Nothing is written to disk.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Iterable
from operator import attrgetter, is_not
from typing import NamedTuple

from store import ChatEntry, ChatMemory, Memory, Scope, build_chat_memory

#: How many revisions are held, and their characters at most (the newest is always held).
KEEP = 64
KEEP_CHARS = 8_000_000


#: What a chat receives, entry by entry (``build_chat_memory`` makes its text).
Entries = tuple[ChatEntry, ...]

#: Each entry's own digest, by its set, id, title and text: a revision is a digest of these,
#: so a chat of 1,600 memories costs a lookup per memory, not a hash of all its text.
_ENTRY_DIGESTS: dict[tuple[str, str, str, str], bytes] = {}
_ENTRY_DIGESTS_MAX = 100_000


def _entry_digest(entry: ChatEntry) -> bytes:
    key = ("" if entry.scope is None else entry.scope, entry.id, entry.title, entry.text)
    found = _ENTRY_DIGESTS.get(key)
    if found is None:
        if len(_ENTRY_DIGESTS) >= _ENTRY_DIGESTS_MAX:
            _ENTRY_DIGESTS.clear()
        data = "\0".join(key).encode("utf-8", "surrogatepass")
        found = _ENTRY_DIGESTS[key] = hashlib.blake2b(data, digest_size=16).digest()
    return found


def _revision(digests: Iterable[bytes]) -> str:
    return "r" + hashlib.blake2b(b"".join(digests), digest_size=12).hexdigest()


def revision_of(entries: Iterable[ChatEntry]) -> str:
    """The opaque token naming exactly what a chat receives: equal memories, equal tokens."""
    return _revision(_entry_digest(entry) for entry in entries)


def _chars(held: ChatMemory | Entries) -> int:
    """About how many characters a chat's memory holds (its text when built)."""
    if isinstance(held, ChatMemory):
        return len(held.text)
    # Counted in C (map over the entries): a write remembers a chat of thousands every call.
    return sum(map(len, map(_TITLE, held))) + sum(map(len, map(_TEXT, held))) + _ENTRY_EXTRA * len(held)


#: The characters an entry adds besides its title and text (about: a heading and blank lines).
_ENTRY_EXTRA = 6


_TITLE = attrgetter("title")
_TEXT = attrgetter("text")


class SentRevisions:
    """The memories recently sent, by revision, oldest forgotten first."""

    def __init__(self, keep: int = KEEP, keep_chars: int = KEEP_CHARS) -> None:
        self.keep = keep
        self.keep_chars = keep_chars
        # Each with its characters, counted once: a write remembers one per call.
        self._held: OrderedDict[str, tuple[ChatMemory | Entries, int]] = OrderedDict()
        self._chars = 0
        self._lock = threading.Lock()  # one process may serve several connections at once

    def remember(self, revision: str, memory: ChatMemory | Entries, chars: int | None = None) -> None:
        """Hold ``memory`` (or its entries: the text is built only if it is asked for) as
        ``revision``, again the newest; forget the oldest over the bounds. ``chars``: its
        ``_chars``, when the caller has counted them."""
        with self._lock:
            if revision in self._held:
                self._held.move_to_end(revision)
                return
            chars = _chars(memory) if chars is None else chars
            self._held[revision] = (memory, chars)
            self._chars += chars
            while len(self._held) > 1 and (len(self._held) > self.keep or self._chars > self.keep_chars):
                _, (_old, old_chars) = self._held.popitem(last=False)
                self._chars -= old_chars

    def sent(self, revision: str) -> ChatMemory | None:
        """What was sent as ``revision``, if it is still held."""
        with self._lock:
            found = self._held.get(revision)
        if found is None:
            return None
        held = found[0]
        return held if isinstance(held, ChatMemory) else build_chat_memory(held)

    def __len__(self) -> int:
        return len(self._held)


class CurrentMemory:
    """The chat's memory now and its revision, built again only where a memory changed.

    Building a large chat's text and its digest costs milliseconds; the store hands out the
    same ``Memory`` objects until a file changes, so the same objects mean the same memory, and
    the entry and digest made for a memory before are used again: after one change only that
    memory's entry is made again. The text is built only when it is asked for (a write's
    answer needs only the revision).
    """

    def __init__(self) -> None:
        self._basis: list[Memory] = []  # holding the memories: their identities are not reused
        self._made: list[_Made | None] = []  # by position in the basis; None: off, not sent
        self._entries: Entries = ()
        self._revision = ""
        self._chars = 0
        self._memory: ChatMemory | None = None
        self._built = False

    def revision(self, memories: list[Memory]) -> tuple[Entries, str]:
        """What a chat receives from ``memories`` (its sets' memories, in order, on and off:
        the ones on, as ``MemoryStore.chat_memory`` gives them), entry by entry, and its revision."""
        basis, made = self._basis, self._made
        if not self._built:
            basis, made = [], []
        # Only the stretch between what stayed the same at the start and at the end is made
        # again (one edit, save or delete: one memory), from what was made before where it can.
        n, m = len(basis), len(memories)
        start = _first_difference(basis, memories)
        if start == n == m and self._built:
            return self._entries, self._revision
        end = _first_difference(basis[start:][::-1], memories[start:][::-1])
        before = {
            id(x): found for x, found in zip(basis[start : n - end], made[start : n - end], strict=True)
        }
        middle = [before[id(x)] if id(x) in before else _made(x) for x in memories[start : m - end]]
        gone = sum(found.chars for found in before.values() if found is not None)
        made = made[:start] + middle + made[n - end :]
        present: list[_Made] = list(filter(None, made))  # mapped in C: thousands each write
        self._basis, self._made, self._built = list(memories), made, True
        self._chars += sum(found.chars for found in middle if found is not None) - gone
        self._entries = tuple(map(_ENTRY, present))
        self._revision, self._memory = _revision(list(map(_DIGEST, present))), None
        return self._entries, self._revision

    @property
    def chars(self) -> int:
        """``_chars`` of the entries ``revision`` gave last, kept as they change."""
        return self._chars

    def get(self, memories: list[Memory]) -> tuple[ChatMemory, str]:
        """What a chat receives from ``memories`` and its revision."""
        entries, revision = self.revision(memories)
        if self._memory is None:
            self._memory = build_chat_memory(entries)
        return self._memory, revision


def _first_difference(a: list[Memory], b: list[Memory]) -> int:
    """Where ``a`` and ``b`` first hold different objects (the shorter's length if nowhere);
    compared in C, as each write compares a chat of thousands."""
    differs = list(map(is_not, a, b))
    return differs.index(True) if True in differs else len(differs)


class _Made(NamedTuple):
    entry: ChatEntry
    digest: bytes
    chars: int


_ENTRY = attrgetter("entry")
_DIGEST = attrgetter("digest")


def _made(memory: Memory) -> _Made | None:
    """A memory's entry, digest and characters, or None for one that is off (not sent)."""
    if not memory.enabled:
        return None
    entry = ChatEntry(memory.id, memory.scope, memory.title, memory.text)
    return _Made(entry, _entry_digest(entry), len(entry.title) + len(entry.text) + _ENTRY_EXTRA)


def held_with_own_write(held: Entries, now: Entries, written: tuple[Scope, str]) -> Entries:
    """What a writer holds after its write: ``held`` (the memory it was sent) with the written
    memory as it is in ``now``, and nothing else of ``now``. A later change note from it brings
    exactly what others changed (added, changed or removed) and not the writer's own change.

    Entries are in ``now``'s order, so a note never reports an order the writer did not see
    change; one others removed since follows the entry it followed in ``held``."""
    was = {_key(e): e for e in held}
    present = {_key(e) for e in now}
    kept = [e if _key(e) == written else was[_key(e)] for e in now if _key(e) in was or _key(e) == written]
    kept_keys = {_key(e) for e in kept}
    after: dict[tuple[Scope, str] | None, list[ChatEntry]] = {}  # removed since, by what they followed
    last: tuple[Scope, str] | None = None
    for entry in held:
        key = _key(entry)
        if key in kept_keys:
            last = key
        elif key not in present and key != written:
            after.setdefault(last, []).append(entry)
    entries = list(after.get(None, []))
    for entry in kept:
        entries.append(entry)
        entries.extend(after.get(_key(entry), []))
    return tuple(entries)


def _key(entry: ChatEntry) -> tuple[Scope, str]:
    return entry.scope, entry.id
