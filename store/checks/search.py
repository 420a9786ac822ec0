"""Finding memories by words: the filter of the app's list, and memory_list's ``query``."""

from __future__ import annotations

import operator
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
    is forgotten, so the cache never holds more than one call's memories. The same memories
    asked again (the same objects, in the same order) cost one comparison each.
    """

    def __init__(self) -> None:
        self._memories: list[Memory] = []  # holding them: their identities are not reused
        self._haystacks: list[str] = []

    def matching(self, memories: Iterable[Memory], query: str) -> list[Memory]:
        """The memories that match every word of ``query`` (all of them for an empty query)."""
        listed = list(memories)
        words = query_words(query)
        if not words:
            return listed
        pairs = zip(listed, self._haystacks_of(listed), strict=True)
        if len(words) == 1:
            word = words[0]
            return [memory for memory, hay in pairs if word in hay]
        return [memory for memory, hay in pairs if all(word in hay for word in words)]

    def _haystacks_of(self, listed: list[Memory]) -> list[str]:
        kept, haystacks = self._memories, self._haystacks
        if len(kept) == len(listed) and all(map(operator.is_, kept, listed)):
            return haystacks
        # A memory alive in both lists is one object, so its identity finds its haystack.
        before = {id(memory): hay for memory, hay in zip(kept, haystacks, strict=True)}
        haystacks = [before[id(m)] if id(m) in before else haystack(m) for m in listed]
        self._memories, self._haystacks = listed, haystacks
        return haystacks
