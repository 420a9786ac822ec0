"""Duplicates and similar groups against a plain reference written from the rules.

The reference below follows the module's docstring literally: for every chat (the global
memories alone, and each workspace with the global memories) it compares every pair, takes
connected groups, then keeps only the groups no other group includes. It is quadratic and
obviously right; the module must give exactly the same groups, in the same order.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from store import GLOBAL
from store.checks.duplicates import find_duplicates, find_similar_result, normalize_for_duplicates
from store.model import Memory, Scope

#: Among the suite's longest: started first (see ``tests/conftest.py``).
pytestmark = pytest.mark.slow

_BASE = datetime(2026, 1, 1, tzinfo=UTC)
# Words chosen so that normalising matters: case, accents, ß, ligatures, symbols kept as text,
# a word inside another word ("cat" in "concatenate"), and a script without spaces.
WORDS = ["use", "UV", "uv", "tea", "Café", "cafe", "Straße", "STRASSE", "日本", "C++", "c", "ﬁle", "file"]
WORDS += ["cat", "concatenate", "É", "x"]
SEPARATORS = [" ", "  ", ", ", "! ", " — ", "\n", "`", "-", "\u00a0", "\t…"]
TITLES = ["Tea", "tea", "  TEA ", "Tea!", "Coffee", "coffee  break", "Coffee Break", "", "...", "Ünï", "uni"]
SCOPES: list[Scope] = [GLOBAL, GLOBAL, "w1", "w2", "w3"]
CREATED = [None, _BASE, _BASE + timedelta(minutes=1), _BASE + timedelta(minutes=2)]


Key = tuple[Scope, str]


def _member_key(m: Memory) -> tuple[bool, str, bool, datetime, str]:
    return (
        m.scope is not None,
        m.scope or "",
        m.created is not None,
        m.created or datetime.min.replace(tzinfo=UTC),
        m.id,
    )


def _counted(memories: list[Memory], include_disabled: bool) -> list[Memory]:
    return [m for m in memories if include_disabled or m.enabled]


def _chats(memories: list[Memory]) -> list[list[Memory]]:
    """What each chat receives: the global memories alone, and each workspace with them."""
    glob = [m for m in memories if m.scope is None]
    spaces = sorted({m.scope for m in memories if m.scope is not None})
    return [glob] + [glob + [m for m in memories if m.scope == w] for w in spaces]


def _ordered(groups: list[list[Memory]]) -> list[list[Key]]:
    sorted_groups = [sorted(g, key=_member_key) for g in groups]
    sorted_groups.sort(key=lambda g: [_member_key(m) for m in g])
    return [[(m.scope, m.id) for m in g] for g in sorted_groups]


def _maximal(groups: list[list[Memory]]) -> list[list[Memory]]:
    by_set = {frozenset((m.scope, m.id) for m in g): g for g in groups if len(g) >= 2}
    return [g for s, g in by_set.items() if not any(s < other for other in by_set)]


def reference_duplicates(memories: list[Memory]) -> list[list[Key]]:
    groups: list[list[Memory]] = []
    for chat in _chats(memories):
        by_text: dict[str, list[Memory]] = defaultdict(list)
        for m in chat:
            by_text[normalize_for_duplicates(m.text)].append(m)
        groups.extend(by_text.values())
    return _ordered(_maximal(groups))


def similar(a: Memory, b: Memory) -> bool:
    ta, tb = normalize_for_duplicates(a.text), normalize_for_duplicates(b.text)
    if ta == tb:
        return False  # duplicates
    title = normalize_for_duplicates(a.title)
    if title and title == normalize_for_duplicates(b.title):
        return True
    return f" {ta} " in f" {tb} " or f" {tb} " in f" {ta} "


def reference_similar(memories: list[Memory]) -> list[list[Key]]:
    groups: list[list[Memory]] = []
    for chat in _chats(memories):
        seen: set[int] = set()
        for start in range(len(chat)):
            if start in seen:
                continue
            component, todo = [], [start]
            seen.add(start)
            while todo:
                i = todo.pop()
                component.append(chat[i])
                for j in range(len(chat)):
                    if j not in seen and similar(chat[i], chat[j]):
                        seen.add(j)
                        todo.append(j)
            groups.append(component)
    return _ordered(_maximal(groups))


@st.composite
def stores(draw: st.DrawFn) -> list[Memory]:
    """Small stores where equal, contained and same-titled texts are common."""
    count = draw(st.integers(0, 12))
    token_lists: list[list[str]] = []
    for _ in range(count):
        if len(token_lists) > 0 and draw(st.booleans()):
            base = draw(st.sampled_from(token_lists))  # a piece of an earlier text, maybe grown
            low = draw(st.integers(0, len(base)))
            high = draw(st.integers(low, len(base)))
            before = draw(st.lists(st.sampled_from(WORDS), max_size=2))
            after = draw(st.lists(st.sampled_from(WORDS), max_size=2))
            tokens = before + base[low:high] + after
        else:
            tokens = draw(st.lists(st.sampled_from(WORDS), max_size=6))
        token_lists.append(tokens)
    ids = draw(st.permutations([f"{i:04x}" for i in range(count)]))
    memories = []
    for tokens, memory_id in zip(token_lists, ids, strict=True):
        text = draw(st.sampled_from(["", "«", "...", "  "]))
        for token in tokens:
            text += token + draw(st.sampled_from(SEPARATORS))
        if draw(st.integers(0, 4)) == 0:
            text = text.upper()
        created = draw(st.sampled_from(CREATED))
        memories.append(
            Memory(
                id=memory_id,
                scope=draw(st.sampled_from(SCOPES)),
                title=draw(st.sampled_from(TITLES)),
                text=text,
                enabled=draw(st.integers(0, 5)) > 0,
                source="user",
                session_id=None,
                created=created,
                updated=created,
                location=f"/nowhere/{memory_id}",
            )
        )
    return memories


def by_scope(memories: list[Memory]) -> dict[Scope, list[Memory]]:
    found: dict[Scope, list[Memory]] = {GLOBAL: []}
    for m in memories:
        found.setdefault(m.scope, []).append(m)
    return found


def keyed(groups: list[list[Memory]]) -> list[list[Key]]:
    return [[(m.scope, m.id) for m in g] for g in groups]


def _memory(memory_id: str, scope: Scope, text: str, title: str = "") -> Memory:
    return Memory(memory_id, scope, title, text, True, "user", None, _BASE, _BASE, "/nowhere")


# A text inside two others in different workspaces, the same text twice in one of them, a
# global text inside a workspace's, and a duplicate pair joined by one containing text.
_EXAMPLE = [
    _memory("01", GLOBAL, "use uv"),
    _memory("02", "w1", "Always use UV here"),
    _memory("03", "w2", "use uv, please"),
    _memory("04", "w2", "USE UV, please!"),
    _memory("05", "w1", "use"),
    _memory("06", "w1", "use", title="Tea"),
    _memory("07", GLOBAL, "tea", title="tea "),
]


@settings(max_examples=400, deadline=None)
@given(stores(), st.booleans())
@example(_EXAMPLE, False)
def test_duplicates_match_the_reference(memories: list[Memory], include_disabled: bool) -> None:
    found = find_duplicates(by_scope(memories), include_disabled=include_disabled)
    assert keyed(found) == reference_duplicates(_counted(memories, include_disabled))


@settings(max_examples=400, deadline=None)
@given(stores(), st.booleans())
@example(_EXAMPLE, False)
def test_similar_matches_the_reference(memories: list[Memory], include_disabled: bool) -> None:
    result = find_similar_result(by_scope(memories), include_disabled=include_disabled)
    assert result.complete
    assert keyed(result.groups) == reference_similar(_counted(memories, include_disabled))


@settings(max_examples=300, deadline=None)
@given(stores(), st.integers(0, 6))
def test_a_capped_search_finds_only_real_groups(memories: list[Memory], max_checks: int) -> None:
    """Under a small cap: exactly the reference when it finished, else only parts of its groups."""
    result = find_similar_result(by_scope(memories), max_checks=max_checks)
    expected = reference_similar(_counted(memories, False))
    assert result.checks <= max_checks
    if result.complete:
        assert keyed(result.groups) == expected
    else:
        assert result.checks == max_checks
        wholes = [set(g) for g in expected]
        for group in keyed(result.groups):
            assert any(set(group) <= whole for whole in wholes)
