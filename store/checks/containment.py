"""Texts inside other texts, as whole words, among memories a chat receives together.

A normalised text (words joined by single spaces, see ``normalize_for_duplicates``) is inside
another when its words appear in the other, in order and next to each other: ``"use uv"`` is
in ``"always use uv here"``, ``"cat"`` is not in ``"concatenate"``. Equal texts are
duplicates, not containment; an empty text is in no other; two workspaces are never compared.

**How it stays fast.** Memories with the same text in the same scope are one *node*, compared
once. Each node has one *key*: the run of three words that starts at its rarest word (fewest
occurrences in all the texts) or ends the text there, or the whole text when it has three
words or fewer. A text holding the node's text holds its key. So each text lists its runs of
words once, looks them up among the keys of the nodes of the chats it is in, and is compared
only with the shorter nodes found there (one string comparison each). The work grows with the
total length of the texts plus the comparisons made: nothing looks at every pair of memories.

**The cap.** At most ``max_checks`` string comparisons; ``complete`` says whether every
candidate was compared. Texts are taken in member order, each one's shorter candidates in
member order, so a capped search always makes the same comparisons.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from itertools import chain

from store.model import Memory, Scope

__all__ = ["Containment"]

# A run of words: the word itself for one word (no tuple to build), else a tuple of words.
_Gram = str | tuple[str, ...]
_Index = dict[_Gram, list[int]]  # nodes by key, shortest first

#: How many words a key holds (``_runs`` builds runs of exactly this many, and shorter ones).
RUN = 3


def _key(words: list[str], counts: Mapping[str, int]) -> _Gram:
    """A run of words every text holding ``words`` holds (see module)."""
    if len(words) == 1:
        return words[0]
    if len(words) <= RUN:
        return tuple(words)
    rarest = min(words, key=counts.__getitem__)  # the first of the rarest, in reading order
    start = min(words.index(rarest), len(words) - RUN)
    return tuple(words[start : start + RUN])


def _runs(words: list[str], short: Mapping[int, set[str]]) -> set[_Gram]:
    """Every run of three words in ``words``, and of the shorter runs those that may be keys:
    ``short`` gives, for one and two words, a word every such key holds."""
    found: set[_Gram] = set(zip(words, words[1:], words[2:], strict=False))
    for size, gate in short.items():
        if not gate.isdisjoint(words):
            found.update(gate.intersection(words) if size == 1 else zip(words, words[1:], strict=False))
    return found


class Containment:
    """Pairs of memories where one's normalised text is inside the other's (see module)."""

    def __init__(self, ordered: Iterable[Memory], texts: Mapping[int, str], max_checks: int) -> None:
        """``ordered``: the memories in member order; ``texts``: their normalised texts by id()."""
        nodes: dict[tuple[Scope, str], list[Memory]] = {}
        for m in ordered:
            if text := texts[id(m)]:
                nodes.setdefault((m.scope, text), []).append(m)
        self.members = list(nodes.values())  # node number: the order of each first member
        self.scopes = [scope for scope, _ in nodes]
        self.texts = [text for _, text in nodes]
        self.max_checks = max_checks
        self.checks = 0
        self.complete = True

    def pairs(self) -> list[tuple[Memory, Memory]]:
        """Pairs (a, b), a's text inside b's, enough to connect every such pair's memories:
        when either text has several memories in one scope, one of them stands for the rest."""
        edges: list[tuple[Memory, Memory]] = []
        for a, b in self._node_pairs():
            inner, outer = self.members[a], self.members[b]
            edges.extend((inner[0], m) for m in outer)
            edges.extend((m, outer[0]) for m in inner[1:])
        return edges

    def _node_pairs(self) -> list[tuple[int, int]]:
        texts, scopes = self.texts, self.scopes
        lengths = [len(t) for t in texts]
        # One string per distinct word, shared by every text that has it: a tenth of the memory.
        shared: dict[str, str] = {}
        words = [list(map(shared.setdefault, split, split)) for split in (t.split(" ") for t in texts)]
        counts = Counter(chain.from_iterable(words))  # which word is rarest; any choice is right
        # Nodes by key, shortest first: all of them (a global text may hold any), and per scope
        # (a workspace's text may hold its own workspace's and the global ones).
        everywhere: _Index = {}
        by_scope: dict[Scope, _Index] = defaultdict(dict)
        short: dict[int, set[str]] = defaultdict(set)  # see _runs
        for a in sorted(range(len(texts)), key=lengths.__getitem__):
            key = _key(words[a], counts)
            if isinstance(key, str):
                short[1].add(key)
            elif len(key) < RUN:
                short[len(key)].add(min(key, key=counts.__getitem__))
            everywhere.setdefault(key, []).append(a)
            by_scope[scopes[a]].setdefault(key, []).append(a)
        global_index = by_scope.get(None, {})
        indexes = {scope: [index, global_index] for scope, index in by_scope.items()}
        indexes[None] = [everywhere]
        padded = [f" {t} " for t in texts]
        found: list[tuple[int, int]] = []
        for b, w in enumerate(words):
            runs = _runs(w, short)
            length, outer = lengths[b], padded[b]
            candidates: list[int] = []
            for index in indexes[scopes[b]]:
                for run in index.keys() & runs:
                    shorter = index[run]  # a text as long or longer is not inside this one
                    candidates.extend(shorter[: bisect_left(shorter, length, key=lengths.__getitem__)])
            for a in sorted(candidates):
                if self.checks >= self.max_checks:
                    self.complete = False
                    return found
                self.checks += 1
                if padded[a] in outer:
                    found.append((a, b))
        return found
