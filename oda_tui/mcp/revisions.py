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
    return sum(len(e.title) + len(e.text) + 6 for e in held)


class SentRevisions:
    """The memories recently sent, by revision, oldest forgotten first."""

    def __init__(self, keep: int = KEEP, keep_chars: int = KEEP_CHARS) -> None:
        self.keep = keep
        self.keep_chars = keep_chars
        self._held: OrderedDict[str, ChatMemory | Entries] = OrderedDict()
        self._chars = 0
        self._lock = threading.Lock()  # one process may serve several connections at once

    def remember(self, revision: str, memory: ChatMemory | Entries) -> None:
        """Hold ``memory`` (or its entries: the text is built only if it is asked for) as
        ``revision``, again the newest; forget the oldest over the bounds."""
        with self._lock:
            if revision in self._held:
                self._held.move_to_end(revision)
                return
            self._held[revision] = memory
            self._chars += _chars(memory)
            while len(self._held) > 1 and (len(self._held) > self.keep or self._chars > self.keep_chars):
                _, old = self._held.popitem(last=False)
                self._chars -= _chars(old)

    def sent(self, revision: str) -> ChatMemory | None:
        """What was sent as ``revision``, if it is still held."""
        with self._lock:
            held = self._held.get(revision)
        if held is None or isinstance(held, ChatMemory):
            return held
        return build_chat_memory(held)

    def __len__(self) -> int:
        return len(self._held)


class CurrentMemory:
    """The chat's memory now and its revision, built again only when a memory changed.

    Building a large chat's text and its digest costs milliseconds; the store hands out the
    same ``Memory`` objects until a file changes, so the same objects mean the same memory, and
    the entry and digest made for a memory before are used again. The text is built only when
    it is asked for (a write's answer needs only the revision).
    """

    def __init__(self) -> None:
        self._basis: list[Memory] = []
        self._entries: Entries = ()
        self._revision = ""
        self._memory: ChatMemory | None = None
        self._made: dict[int, tuple[Memory, ChatEntry, bytes]] = {}  # by the memory's identity
        self._built = False

    def revision(self, memories: list[Memory]) -> tuple[Entries, str]:
        """What a chat receives from ``memories`` (its sets' memories, in order, on and off:
        the ones on, as ``MemoryStore.chat_memory`` gives them), entry by entry, and its revision."""
        basis = self._basis
        same = len(basis) == len(memories) and all(a is b for a, b in zip(basis, memories, strict=True))
        if not self._built or not same:
            made, kept = self._made, {}
            entries, digests = [], []
            for memory in memories:
                if not memory.enabled:
                    continue
                found = made.get(id(memory))
                if found is None or found[0] is not memory:
                    entry = ChatEntry(memory.id, memory.scope, memory.title, memory.text)
                    found = (memory, entry, _entry_digest(entry))
                kept[id(memory)] = found  # holding the memory: its identity is not reused meanwhile
                entries.append(found[1])
                digests.append(found[2])
            self._made, self._basis, self._built = kept, memories, True
            self._entries, self._revision, self._memory = tuple(entries), _revision(digests), None
        return self._entries, self._revision

    def get(self, memories: list[Memory]) -> tuple[ChatMemory, str]:
        """What a chat receives from ``memories`` and its revision."""
        entries, revision = self.revision(memories)
        if self._memory is None:
            self._memory = build_chat_memory(entries)
        return self._memory, revision


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
