"""A memory's fingerprint: a short token naming its title, text and whether it is on.

It is derived from those three alone, so it changes whenever any of them does, whoever made
the change (an editor too), and two reads of the same content give the same token. A caller
that read a memory passes it back with a change (``MemoryStore.edit``, ``delete``): the
store compares it under its lock with the file as it is then and refuses a change to content
the caller never saw (``ChangedSinceRead``).
"""

from __future__ import annotations

import functools
import hashlib

from store.model import Memory


@functools.lru_cache(maxsize=32_768)  # a list of hundreds of memories asks for each, call after call
def fingerprint(title: str, text: str, enabled: bool) -> str:
    """The token for a memory with this title, text and on/off: ``v`` and 16 hex digits."""
    digest = hashlib.blake2b(digest_size=8)
    digest.update(("1" if enabled else "0").encode("ascii"))
    for part in (title, text):
        data = part.encode("utf-8", "surrogatepass")
        digest.update(len(data).to_bytes(8, "big"))
        digest.update(data)
    return "v" + digest.hexdigest()


def memory_fingerprint(memory: Memory) -> str:
    """``fingerprint`` of a memory as read."""
    return fingerprint(memory.title, memory.text, memory.enabled)
