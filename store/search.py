"""Finding memories by words: the filter of the app's list, and memory_list's ``query``."""

from __future__ import annotations

from collections.abc import Iterable

from .model import Memory


def query_words(query: str) -> list[str]:
    """The words of a filter or query: split on white space, any case."""
    return query.casefold().split()


def matches(memory: Memory, words: list[str]) -> bool:
    """True when every word occurs in the title or the text (any case, anywhere in a word)."""
    haystack = f"{memory.title}\n{memory.text}".casefold()
    return all(word in haystack for word in words)


def matching(memories: Iterable[Memory], query: str) -> list[Memory]:
    """The memories that match every word of ``query`` (all of them for an empty query)."""
    words = query_words(query)
    if not words:
        return list(memories)
    return [m for m in memories if matches(m, words)]
