"""Duplicate and similar memories: normalising, grouping per chat, speed, and the store API."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from store import GLOBAL, MemoryStore
from store.checks.duplicates import (
    find_duplicates,
    find_similar,
    find_similar_result,
    normalize_for_duplicates,
)
from store.model import Memory, Scope

_BASE = datetime(2026, 1, 1, tzinfo=UTC)
_counter = 0


def mem(
    text: str,
    scope: Scope = GLOBAL,
    *,
    title: str | None = None,
    enabled: bool = True,
    mid: str | None = None,
    minutes: int | None = None,
) -> Memory:
    global _counter
    _counter += 1
    memory_id = mid or f"{_counter:08x}"
    created = _BASE + timedelta(minutes=_counter if minutes is None else minutes)
    return Memory(
        id=memory_id,
        scope=scope,
        title=title if title is not None else f"title {memory_id}",
        text=text,
        enabled=enabled,
        source="user",
        session_id=None,
        created=created,
        updated=created,
        location=f"/nowhere/{memory_id}",
    )


def by_scope(*memories: Memory) -> dict[Scope, list[Memory]]:
    found: dict[Scope, list[Memory]] = {GLOBAL: []}
    for m in memories:
        found.setdefault(m.scope, []).append(m)
    return found


def ids(groups: list[list[Memory]]) -> list[list[str]]:
    return [[m.id for m in g] for g in groups]


# --- normalising ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hello, World!", "hello world"),
        ("  hello   world  ", "hello world"),
        ("Café crème", "cafe creme"),  # accents dropped (NFKD, marks removed)
        ("Cafe\u0301", "cafe"),  # a combining mark written out
        ("STRASSE", "strasse"),
        ("Straße", "strasse"),  # casefold, not lower
        ("ﬁle", "file"),  # NFKD compatibility ligature
        ("Ｆｕｌｌｗｉｄｔｈ", "fullwidth"),
        ("one—two…three", "one two three"),  # Unicode punctuation
        ("«quoted» “text”", "quoted text"),
        ("a\tb\nc\u00a0d\u2028e", "a b c d e"),  # every kind of white space
        ("use `uv` please", "use uv please"),  # backticks (Sk) count as punctuation
        ("C++ and C", "c++ and c"),  # symbols are text
        ("price: 5 $", "price 5 $"),
        ("...!!!", ""),
        ("", ""),
        ("Ünïcödé", "unicode"),
        ("İstanbul", "istanbul"),
    ],
)
def test_normalize(text: str, expected: str) -> None:
    assert normalize_for_duplicates(text) == expected


def test_normalize_is_idempotent() -> None:
    for text in ["Hello, World!", "Café — crème", "ﬁ ß İ", "C++ `x`"]:
        once = normalize_for_duplicates(text)
        assert normalize_for_duplicates(once) == once


# --- duplicates ----------------------------------------------------------------------------


def test_duplicates_within_one_scope() -> None:
    a = mem("I prefer tea.")
    b = mem("i prefer TEA")
    c = mem("I prefer coffee.")
    assert ids(find_duplicates(by_scope(a, b, c))) == [[a.id, b.id]]


def test_three_equal_texts_are_one_group() -> None:
    a, b, c = mem("x y z"), mem("X, Y, Z"), mem("x-y-z")
    assert ids(find_duplicates(by_scope(c, a, b))) == [[a.id, b.id, c.id]]


def test_duplicates_between_global_and_workspace() -> None:
    g = mem("Use uv for Python")
    w = mem("use uv for python!", "proj")
    assert ids(find_duplicates(by_scope(g, w))) == [[g.id, w.id]]


def test_never_between_two_workspaces() -> None:
    a = mem("same text", "alpha")
    b = mem("same text", "beta")
    assert find_duplicates(by_scope(a, b)) == []


def test_global_equal_to_two_workspaces_gives_one_group_per_workspace() -> None:
    g = mem("same text")
    a = mem("Same text.", "alpha")
    b = mem("SAME TEXT", "beta")
    groups = find_duplicates(by_scope(g, a, b))
    assert ids(groups) == [[g.id, a.id], [g.id, b.id]]


def test_global_pair_is_not_repeated_when_a_workspace_has_the_text_too() -> None:
    g1, g2 = mem("same"), mem("Same")
    w = mem("same.", "ws")
    other = mem("unrelated", "other")
    assert ids(find_duplicates(by_scope(g1, g2, w, other))) == [[g1.id, g2.id, w.id]]


def test_global_pair_alone_when_no_workspace_has_the_text() -> None:
    g1, g2 = mem("same"), mem("Same")
    w = mem("different", "ws")
    assert ids(find_duplicates(by_scope(g1, g2, w))) == [[g1.id, g2.id]]


def test_workspace_pair_without_global() -> None:
    a, b = mem("note", "ws"), mem("Note!", "ws")
    assert ids(find_duplicates(by_scope(a, b))) == [[a.id, b.id]]


def test_disabled_memories_do_not_count_by_default() -> None:
    a = mem("same")
    b = mem("same", enabled=False)
    assert find_duplicates(by_scope(a, b)) == []
    assert ids(find_duplicates(by_scope(a, b), include_disabled=True)) == [[a.id, b.id]]


def test_grouping_is_deterministic_whatever_the_input_order() -> None:
    memories = [mem("one"), mem("One"), mem("two", "w1"), mem("Two", "w1"), mem("one", "w2"), mem("two")]
    expected = ids(find_duplicates(by_scope(*memories)))
    rng = random.Random(7)
    for _ in range(20):
        rng.shuffle(memories)
        assert ids(find_duplicates(by_scope(*memories))) == expected
    # members: global first, then by created; groups by first member then workspace
    assert expected == [
        [
            memories_id("one", memories, GLOBAL),
            memories_id("One", memories, GLOBAL),
            memories_id("one", memories, "w2"),
        ],
        [
            memories_id("two", memories, GLOBAL),
            memories_id("two", memories, "w1"),
            memories_id("Two", memories, "w1"),
        ],
    ]


def memories_id(text: str, memories: list[Memory], scope: Scope) -> str:
    return next(m.id for m in memories if m.text == text and m.scope == scope)


# --- similar -------------------------------------------------------------------------------


def test_similar_same_title() -> None:
    a = mem("Likes tea in the morning", title="Drinks")
    b = mem("Likes coffee at night", title="drinks!")
    assert ids(find_similar(by_scope(a, b))) == [[a.id, b.id]]


def test_similar_containment_whole_words() -> None:
    a = mem("use uv")
    b = mem("Always use uv here, please.")
    c = mem("concatenate")
    d = mem("cat")
    assert ids(find_similar(by_scope(a, b, c, d))) == [[a.id, b.id]]


def test_duplicates_are_not_similar() -> None:
    a = mem("Same text", title="T")
    b = mem("same text!", title="T")
    assert find_similar(by_scope(a, b)) == []
    assert ids(find_duplicates(by_scope(a, b))) == [[a.id, b.id]]


def test_similar_same_title_with_a_duplicate_among_them() -> None:
    a = mem("text one", title="T")
    b = mem("Text one", title="T")  # duplicate of a
    c = mem("text two", title="T")
    groups = find_similar(by_scope(a, b, c))
    assert ids(groups) == [[a.id, b.id, c.id]]


def test_similar_never_between_workspaces() -> None:
    a = mem("use uv", "alpha", title="T")
    b = mem("always use uv here", "beta", title="T")
    assert find_similar(by_scope(a, b)) == []


def test_similar_between_global_and_workspace_both_ways() -> None:
    g = mem("short note here")
    w = mem("a longer text with short note here inside", "ws")
    g2 = mem("a global text holding the workspace words inside it")
    w2 = mem("workspace words", "ws2")
    assert ids(find_similar(by_scope(g, w, g2, w2))) == [[g.id, w.id], [g2.id, w2.id]]


def test_similar_groups_are_maximal() -> None:
    g1 = mem("tea", title="Drinks")
    g2 = mem("coffee", title="Drinks")
    w = mem("water", "ws", title="drinks")
    # the global pair is included in the workspace's group, so it is not listed alone
    assert ids(find_similar(by_scope(g1, g2, w))) == [[g1.id, g2.id, w.id]]


def test_similar_cap_stops_containment_checks() -> None:
    memories = [mem(f"common words {i}") for i in range(50)] + [mem("common words")]
    full = find_similar_result(by_scope(*memories))
    assert full.complete
    capped = find_similar_result(by_scope(*memories), max_checks=10)
    assert not capped.complete
    assert capped.checks == 10


def test_a_capped_search_is_the_same_whatever_the_input_order() -> None:
    memories = [mem(f"common words {i} here") for i in range(30)] + [mem("common words", "ws")]
    memories += [mem(f"words {i}", "ws") for i in range(30)]
    expected = find_similar_result(by_scope(*memories), max_checks=25)
    assert not expected.complete and expected.groups
    rng = random.Random(11)
    for _ in range(10):
        rng.shuffle(memories)
        again = find_similar_result(by_scope(*memories), max_checks=25)
        assert (ids(again.groups), again.checks) == (ids(expected.groups), expected.checks)


def test_containment_compares_texts_only_within_a_chat() -> None:
    # The same two texts in 200 workspaces: each short one is compared with its own
    # workspace's long one only (one comparison each), never with the other workspaces'.
    memories = []
    for w in range(200):
        memories.append(mem("Project uses pytest; run tests with make test", f"ws{w:03d}"))
        memories.append(mem("run tests with make test", f"ws{w:03d}"))
    result = find_similar_result(by_scope(*memories))
    assert result.complete
    assert result.checks == 200
    assert len(result.groups) == 200
    assert all({m.scope for m in g} == {g[0].scope} for g in result.groups)


def test_texts_of_one_length_are_not_compared() -> None:
    memories = [mem(f"the same start then {c}") for c in "abcdefghij"]
    result = find_similar_result(by_scope(*memories))
    assert result.groups == []
    assert result.checks == 0


# --- speed ---------------------------------------------------------------------------------


def _corpus(n: int, seed: int = 1) -> list[Memory]:
    rng = random.Random(seed)
    words = [f"w{i}" for i in range(3000)] + ["the", "a", "and", "of", "to", "in", "is", "for"] * 50
    memories = []
    for i in range(n):
        length = rng.randint(20, 300)
        text = " ".join(rng.choice(words) for _ in range(length))
        scope: Scope = GLOBAL if i % 3 == 0 else f"ws{i % 20}"
        memories.append(mem(text, scope, title=f"Title {rng.randint(0, 4000)}"))
    # some real duplicates and containments
    for i in range(0, n, 97):
        memories.append(mem(memories[i].text.upper() + "!", memories[i].scope))
    for i in range(0, n, 89):
        words_i = memories[i].text.split()
        memories.append(mem(" ".join(words_i[3:12]), memories[i].scope))
    return memories


def test_a_large_corpus_finds_its_duplicates_and_containments() -> None:
    # How fast this is belongs to the benchmark ("duplicates + similar, whole store").
    memories = _corpus(2_000)
    data = by_scope(*memories)
    dups = find_duplicates(data)
    sim = find_similar_result(data)
    assert len(dups) >= 2000 // 97  # every planted upper-case copy is found
    assert sim.complete
    assert any(len(g) >= 2 for g in sim.groups)


# --- the store -----------------------------------------------------------------------------


def test_store_duplicates_similar_and_cache(store: MemoryStore) -> None:
    a = store.create(GLOBAL, "Tea", "I prefer green tea.")
    b = store.create("proj", "Tea again", "i prefer GREEN tea")
    c = store.create("proj", "Tea", "Tea, always tea")
    assert ids(store.duplicates()) == [[a.id, b.id]]
    assert ids(store.similar()) == [[a.id, c.id]]
    first = store.duplicates()
    assert store.duplicates() == first  # cached and equal
    store.set_enabled("proj", b.id, False)
    assert store.duplicates() == []  # the cache follows changes
    store.set_enabled("proj", b.id, True)
    assert ids(store.duplicates()) == [[a.id, b.id]]
    store.delete("proj", b.id)
    assert store.duplicates() == []


def test_store_duplicates_see_outside_edits(store: MemoryStore, root: Path) -> None:
    a = store.create(GLOBAL, "One", "alpha beta")
    b = store.create(GLOBAL, "Two", "gamma delta")
    assert store.duplicates() == []
    path = store.memory_path(GLOBAL, b.id)
    path.write_text(path.read_text("utf-8").replace("gamma delta", "Alpha, beta!"), "utf-8")
    store.refresh([path])
    assert ids(store.duplicates()) == [[a.id, b.id]]
