"""Finding memories by words: the filter of the app's list, and memory_list's ``query``."""

from __future__ import annotations

from collections.abc import Iterable

from store.model import Memory


def query_words(query: str) -> list[str]:
    """The words of a filter or query: split on white space, any case."""
    return query.casefold().split()


def haystack(memory: Memory) -> str:
    """What a query's words are looked for in: the title and text, casefolded."""
    return f"{memory.title}\n{memory.text}".casefold()


def matches(memory: Memory, words: list[str]) -> bool:
    """True when every word occurs in the title or the text (any case, anywhere in a word)."""
    found = haystack(memory)
    return all(word in found for word in words)


def matching(memories: Iterable[Memory], query: str) -> list[Memory]:
    """The memories that match every word of ``query`` (all of them for an empty query)."""
    words = query_words(query)
    if not words:
        return list(memories)
    return [m for m in memories if matches(m, words)]


class Haystacks:
    """``matching`` for a caller that asks again and again over mostly the same memories (a
    server answering queries): each memory is casefolded once, while it is the current one.

    A changed memory is a new object, so it is casefolded anew; what the last call did not see
    is forgotten, so the cache never holds more than one call's memories.
    """

    def __init__(self) -> None:
        self._kept: dict[int, tuple[Memory, str]] = {}

    def matching(self, memories: Iterable[Memory], query: str) -> list[Memory]:
        """The memories that match every word of ``query`` (all of them for an empty query)."""
        words = query_words(query)
        if not words:
            return list(memories)
        kept: dict[int, tuple[Memory, str]] = {}
        found: list[Memory] = []
        for memory in memories:
            known = self._kept.get(id(memory))
            if known is None or known[0] is not memory:
                known = (memory, haystack(memory))
            kept[id(memory)] = known
            if all(word in known[1] for word in words):
                found.append(memory)
        self._kept = kept
        return found
