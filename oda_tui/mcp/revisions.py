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

from store import ChatEntry, ChatMemory, Memory, Scope, build_chat_memory

#: How many revisions are held, and their characters at most (the newest is always held).
KEEP = 64
KEEP_CHARS = 8_000_000


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


def revision_of(memory: ChatMemory) -> str:
    """The opaque token naming exactly ``memory``: equal memories, equal tokens."""
    digests = b"".join(_entry_digest(entry) for entry in memory.entries)
    return "r" + hashlib.blake2b(digests, digest_size=12).hexdigest()


class SentRevisions:
    """The memories recently sent, by revision, oldest forgotten first."""

    def __init__(self, keep: int = KEEP, keep_chars: int = KEEP_CHARS) -> None:
        self.keep = keep
        self.keep_chars = keep_chars
        self._held: OrderedDict[str, ChatMemory] = OrderedDict()
        self._chars = 0
        self._lock = threading.Lock()  # one process may serve several connections at once

    def remember(self, revision: str, memory: ChatMemory) -> None:
        """Hold ``memory`` as ``revision`` (again the newest); forget the oldest over the bounds."""
        with self._lock:
            if revision in self._held:
                self._held.move_to_end(revision)
                return
            self._held[revision] = memory
            self._chars += len(memory.text)
            while len(self._held) > 1 and (len(self._held) > self.keep or self._chars > self.keep_chars):
                _, old = self._held.popitem(last=False)
                self._chars -= len(old.text)

    def sent(self, revision: str) -> ChatMemory | None:
        """What was sent as ``revision``, if it is still held."""
        with self._lock:
            return self._held.get(revision)

    def __len__(self) -> int:
        return len(self._held)


class CurrentMemory:
    """The chat's memory now and its revision, built again only when a memory changed.

    Building a large chat's text and its digest costs milliseconds; the store hands out the
    same ``Memory`` objects until a file changes, so the same objects mean the same memory, and
    an entry built for a memory before is used again.
    """

    def __init__(self) -> None:
        self._basis: list[Memory] = []
        self._memory: ChatMemory | None = None
        self._revision = ""
        self._entries: dict[int, tuple[Memory, ChatEntry]] = {}  # by the memory's identity

    def get(self, memories: list[Memory]) -> tuple[ChatMemory, str]:
        """What a chat receives from ``memories`` (its sets' memories, in order, on and off:
        the ones on, as ``MemoryStore.chat_memory`` builds it) and its revision."""
        basis = self._basis
        same = len(basis) == len(memories) and all(a is b for a, b in zip(basis, memories, strict=True))
        if self._memory is None or not same:
            self._memory = build_chat_memory(self._chat_entries(memories))
            self._revision = revision_of(self._memory)
            self._basis = memories
        return self._memory, self._revision

    def _chat_entries(self, memories: list[Memory]) -> list[ChatEntry]:
        known, kept = self._entries, {}
        entries = []
        for memory in memories:
            if not memory.enabled:
                continue
            found = known.get(id(memory))
            if found is None or found[0] is not memory:
                found = (memory, ChatEntry(memory.id, memory.scope, memory.title, memory.text))
            kept[id(memory)] = found  # holding the memory: its identity is not reused meanwhile
            entries.append(found[1])
        self._entries = kept
        return entries


def held_with_own_write(held: ChatMemory, now: ChatMemory, written: tuple[Scope, str]) -> ChatMemory:
    """What a writer holds after its write: ``held`` (the memory it was sent) with the written
    memory as it is in ``now``, and nothing else of ``now``. A later change note from it brings
    exactly what others changed (added, changed or removed) and not the writer's own change.

    Entries are in ``now``'s order, so a note never reports an order the writer did not see
    change; one others removed since follows the entry it followed in ``held``."""
    was = {_key(e): e for e in held.entries}
    present = {_key(e) for e in now.entries}
    kept = [
        e if _key(e) == written else was[_key(e)] for e in now.entries if _key(e) in was or _key(e) == written
    ]
    kept_keys = {_key(e) for e in kept}
    after: dict[tuple[Scope, str] | None, list[ChatEntry]] = {}  # removed since, by what they followed
    last: tuple[Scope, str] | None = None
    for entry in held.entries:
        key = _key(entry)
        if key in kept_keys:
            last = key
        elif key not in present and key != written:
            after.setdefault(last, []).append(entry)
    entries = list(after.get(None, []))
    for entry in kept:
        entries.append(entry)
        entries.extend(after.get(_key(entry), []))
    return build_chat_memory(entries)


def _key(entry: ChatEntry) -> tuple[Scope, str]:
    return entry.scope, entry.id
