"""Duplicate and similar memories: pure functions over memories, no disk.

**Normalising.** ``normalize_for_duplicates`` takes a text through Unicode NFKD, case folding,
drops every combining mark (general category M*), and turns every run of punctuation and white
space into one space, trimmed at both ends. "Punctuation" is Unicode's punctuation (P*) plus
the modifier symbols (Sk: `` ` ``, ``^``, ``¨``, ``´``…, which are accents and Markdown
decoration more than meaning) and control characters; other symbols (``+ $ € = < > | ~``) are
kept as text, so "C++" and "C" are not the same text.

**Which memories are compared.** Only memories a chat can receive together: two in the same
scope, or one global and one in a workspace. Two workspaces are never compared (no chat receives
both). Only enabled memories count by default: a memory that is turned off reaches no chat, so
"keep one and turn the others off" resolves a group.

**How duplicate groups are formed.** One group per normalised text *per chat that receives
two or more memories with that text*:

- for a text that some global memories have: one group for each workspace that also has it
  (the global memories plus that workspace's), or, when no workspace has it, one group of the
  global memories alone (when there are two or more);
- for a text no global memory has: one group per workspace that has it twice or more.

So a global memory equal to memories in two workspaces is in two groups, one per workspace;
no group is a subset of another. Members are ordered global first, then by workspace key, then
(created, id); groups are ordered by their first member, then their workspace. The output
depends only on the input memories, never on the order they are given in.

**Similar ("near-duplicates").** Two memories a chat receives together are similar when they
are not duplicates and either their normalised titles are equal or one normalised text
contains the other as whole words (``"use uv"`` is contained in ``"always use uv here"``, but
``"cat"`` is not contained in ``"concatenate"``). Each group is a connected set of similar
memories within one chat; groups that another group includes are left out. Which texts
contain which is ``store.containment``: one lookup per run of words of each text, and at most
``max_checks`` string comparisons (``find_similar_result`` says whether it finished). The
global memories' groups are joined once; each workspace adds only its own links. Measured
(``python -m benchmarks``): duplicates and similar together take about 0.25 s for 10,000
memories in 100 workspaces; the store caches both.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from itertools import chain

from store.checks.containment import Containment
from store.model import Memory, Scope

__all__ = [
    "MAX_CONTAINMENT_CHECKS",
    "SimilarResult",
    "find_duplicates",
    "find_similar",
    "find_similar_result",
    "normalize_for_duplicates",
]

#: How many substring comparisons ``find_similar`` makes at most before it stops looking for
#: texts that contain others (title matches are still all found).
MAX_CONTAINMENT_CHECKS = 200_000

_NO_CREATED = datetime.min.replace(tzinfo=UTC)


class _Table(dict[int, str | None]):
    """str.translate table: code point -> " " (punctuation, white space), None (marks to drop)
    or the character itself. A character is decided the first time a text holds it: every
    later lookup finds it (a missing key would cost translate an exception per character)."""

    def __missing__(self, code: int) -> str | None:
        char = chr(code)
        category = unicodedata.category(char)
        if category[0] == "M":
            decided: str | None = None
        elif category[0] in "PZ" or category in ("Sk", "Cc") or char.isspace():
            decided = " "
        else:
            decided = char
        self[code] = decided
        return decided


_TABLE = _Table()


# Memoised: after any change the groups are found again, and the texts mostly have not changed.
# Room for the texts and titles of 100,000 memories: a cache smaller than one pass over the
# store would keep nothing (each pass pushes out what the next one needs first).
@lru_cache(maxsize=1 << 18)
def normalize_for_duplicates(text: str) -> str:
    """The text as duplicates are compared: NFKD, case folded, no combining marks, and every
    run of punctuation and white space one space, trimmed."""
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text)
    return " ".join(text.casefold().translate(_TABLE).split())


# --- grouping helpers ------------------------------------------------------------------------

_Key = tuple[bool, str, bool, datetime, str]


def _member_key(memory: Memory) -> _Key:
    created = memory.created
    return (
        memory.scope is not None,
        memory.scope or "",
        created is not None,
        created or _NO_CREATED,
        memory.id,
    )


def _group_key(group: list[Memory]) -> tuple[_Key, ...]:
    return tuple(_member_key(m) for m in group)


def _collect(
    memories_by_scope: Mapping[Scope, Iterable[Memory]], include_disabled: bool
) -> tuple[list[Memory], dict[str, list[Memory]]]:
    """The global memories and each workspace's, only those that count."""
    glob: list[Memory] = []
    spaces: dict[str, list[Memory]] = {}
    for scope, memories in memories_by_scope.items():
        chosen = [m for m in memories if include_disabled or m.enabled]
        if scope is None:
            glob.extend(chosen)
        else:
            spaces.setdefault(scope, []).extend(chosen)
    glob.sort(key=_member_key)
    for members in spaces.values():
        members.sort(key=_member_key)
    return glob, spaces


def _buckets(memories: Iterable[Memory], key: dict[int, str]) -> dict[str, list[Memory]]:
    found: dict[str, list[Memory]] = defaultdict(list)
    for m in memories:
        found[key[id(m)]].append(m)
    return found


def _groups_by_key(
    glob: list[Memory], spaces: dict[str, list[Memory]], key: dict[int, str]
) -> list[list[Memory]]:
    """Groups of memories sharing a key, formed per chat as the module docstring says."""
    g_buckets = _buckets(glob, key)
    covered: set[str] = set()  # keys of global groups that some workspace group includes
    groups: list[tuple[tuple[_Key, ...], str, list[Memory]]] = []
    for workspace in sorted(spaces):
        for k, members in _buckets(spaces[workspace], key).items():
            with_global = g_buckets.get(k, [])
            if with_global:
                covered.add(k)
            group = sorted(with_global + members, key=_member_key)
            if len(group) >= 2:
                groups.append((_group_key(group), workspace, group))
    for k, members in g_buckets.items():
        if k not in covered and len(members) >= 2:
            group = sorted(members, key=_member_key)
            groups.append((_group_key(group), "", group))
    groups.sort(key=lambda item: (item[0], item[1]))
    return [group for _, _, group in groups]


def find_duplicates(
    memories_by_scope: Mapping[Scope, Iterable[Memory]], *, include_disabled: bool = False
) -> list[list[Memory]]:
    """Groups of two or more memories whose normalised texts are equal, per chat.

    ``memories_by_scope`` maps ``GLOBAL`` (None) and workspace keys to their memories.
    """
    glob, spaces = _collect(memories_by_scope, include_disabled)
    key = {
        id(m): normalize_for_duplicates(m.text) for m in [*glob, *(m for ms in spaces.values() for m in ms)]
    }
    return _groups_by_key(glob, spaces, key)


# --- similar ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SimilarResult:
    """The similar groups, and whether the containment check stopped at its cap."""

    groups: list[list[Memory]]
    complete: bool
    checks: int


class _Joined:
    """Connected groups of memories (union-find by identity)."""

    def __init__(self) -> None:
        self.parent: dict[int, int] = {}
        self.memory: dict[int, Memory] = {}

    def root(self, m: Memory) -> int:
        x = id(m)
        if x not in self.parent:
            self.parent[x] = x
            self.memory[x] = m
            return x
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def join(self, a: Memory, b: Memory) -> None:
        ra, rb = self.root(a), self.root(b)
        if ra != rb:
            self.parent[ra] = rb

    def groups(self) -> dict[int, list[Memory]]:
        """Each group by its root."""
        found: dict[int, list[Memory]] = defaultdict(list)
        for m in self.memory.values():
            found[self.root(m)].append(m)
        return found


def _chat_groups(
    global_edges: list[tuple[Memory, Memory]], space_edges: dict[str, list[tuple[Memory, Memory]]]
) -> list[list[Memory]]:
    """Connected groups per chat: the global memories' own, then each workspace's (global
    memories included). The global groups are joined once; a workspace joins only its edges,
    a global memory standing for its whole global group."""
    in_global = _Joined()
    for a, b in global_edges:
        in_global.join(a, b)
    global_groups = in_global.groups()
    found = [sorted(g, key=_member_key) for g in global_groups.values()]

    def stand_in(m: Memory) -> Memory:
        if m.scope is None and id(m) in in_global.parent:
            return in_global.memory[in_global.root(m)]
        return m

    for workspace in sorted(space_edges):
        joined = _Joined()
        for a, b in space_edges[workspace]:
            joined.join(stand_in(a), stand_in(b))
        for group in joined.groups().values():
            members = list(
                chain.from_iterable(
                    global_groups[id(m)] if m.scope is None and id(m) in global_groups else [m] for m in group
                )
            )
            found.append(sorted(members, key=_member_key))
    return found


def _link(members: list[Memory], texts: dict[int, str], add: Callable[[Memory, Memory], None]) -> None:
    """Connect memories with one title by pairs whose texts differ (equal texts are duplicates)."""
    first = members[0]
    other = next((m for m in members if texts[id(m)] != texts[id(first)]), None)
    if other is None:
        return
    for m in members:
        if texts[id(m)] != texts[id(first)]:
            add(first, m)
        elif m is not first:
            add(other, m)


def _maximal(candidates: list[list[Memory]]) -> list[list[Memory]]:
    """The groups of two or more that no other group includes, each once."""
    sets = [frozenset((m.scope, m.id) for m in c) for c in candidates]
    holding: dict[tuple[Scope, str], list[int]] = defaultdict(list)
    for i, s in enumerate(sets):
        for member in s:
            holding[member].append(i)
    kept: dict[frozenset[tuple[Scope, str]], list[Memory]] = {}
    for i, group in enumerate(candidates):
        s = sets[i]
        if len(group) < 2 or s in kept:
            continue
        # A group that includes s includes its member held by the fewest groups.
        rarest = min(s, key=lambda member: len(holding[member]))
        if any(s < sets[j] for j in holding[rarest]):
            continue
        kept[s] = group
    return list(kept.values())


def find_similar_result(
    memories_by_scope: Mapping[Scope, Iterable[Memory]],
    *,
    include_disabled: bool = False,
    max_checks: int = MAX_CONTAINMENT_CHECKS,
) -> SimilarResult:
    """``find_similar`` with whether the containment check finished within ``max_checks``."""
    glob, spaces = _collect(memories_by_scope, include_disabled)
    everyone = [*glob, *(m for w in sorted(spaces) for m in spaces[w])]  # in member order
    texts = {id(m): normalize_for_duplicates(m.text) for m in everyone}
    titles = {id(m): normalize_for_duplicates(m.title) for m in everyone}

    # Edges of the "similar" relation, split by the chats they matter to: global-global edges
    # matter to every chat, edges touching workspace W only to W's chat.
    global_edges: list[tuple[Memory, Memory]] = []
    space_edges: dict[str, list[tuple[Memory, Memory]]] = defaultdict(list)

    def add(a: Memory, b: Memory) -> None:
        if texts[id(a)] == texts[id(b)]:
            return  # duplicates, not similar
        if a.scope is None and b.scope is None:
            global_edges.append((a, b))
        else:
            space_edges[(a.scope if a.scope is not None else b.scope) or ""].append((a, b))

    # Same normalised title.
    g_titles = _buckets(glob, titles)
    g_titles.pop("", None)  # a title of punctuation only says nothing
    for members in g_titles.values():
        _link(members, texts, add)
    for ms in spaces.values():
        for title, members in _buckets(ms, titles).items():
            if title:
                _link(g_titles.get(title, []) + members, texts, add)

    # One text containing the other, as whole words.
    contain = Containment(everyone, texts, max_checks)
    for a, b in contain.pairs():
        add(a, b)

    # Connected groups per chat; a group another group includes is left out.
    candidates = _chat_groups(global_edges, space_edges)
    kept = _maximal(candidates)
    groups = sorted(kept, key=_group_key)
    return SimilarResult(groups=groups, complete=contain.complete, checks=contain.checks)


def find_similar(
    memories_by_scope: Mapping[Scope, Iterable[Memory]],
    *,
    include_disabled: bool = False,
    max_checks: int = MAX_CONTAINMENT_CHECKS,
) -> list[list[Memory]]:
    """Groups of memories a chat receives together that are similar but not duplicates."""
    return find_similar_result(
        memories_by_scope, include_disabled=include_disabled, max_checks=max_checks
    ).groups
