"""What the store and the MCP server keep up to date piece by piece, instead of making it again
from thousands of memories after each change, always equals what is made from scratch: a set's
order (an edited memory kept in its place, a new one put in by bisection), the haystacks of a
repeated query, and a chat's entries, revision and size."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from oda_tui.mcp.revisions import CurrentMemory, revision_of
from store import GLOBAL, Haystacks, MemoryStore, Scope, StoreError, matches, query_words
from tests.store.test_chat_sums_property import SCOPES, apply
from tests.support.files import memory_file, write_raw

KINDS = [
    "create",
    "change",
    "off",
    "on",
    "delete",
    "outside edit",
    "outside file",
    "outside dated",
    "problem",
]
step = st.tuples(
    st.sampled_from(KINDS),
    st.sampled_from(SCOPES),
    st.integers(0, 5),
    st.text(alphabet="abc xyz", min_size=1, max_size=30),
)


def _apply(store: MemoryStore, root: Path, kind: str, scope: Scope, n: int, words: str) -> None:
    if kind != "outside dated":
        apply(store, root, kind, scope, n, words)
        return
    folder = root / "global" if scope is None else root / "workspaces" / "proj"
    # Dated files, some on the same second: the order's tie is broken by the id.
    created = f"created: 2024-01-0{1 + n % 3}T00:00:00Z\n"
    write_raw(folder / f"1000000{n}.md", memory_file(f"Dated {n}", words, extra=created))


@settings(max_examples=30, deadline=None)
@given(st.lists(step, min_size=1, max_size=14), st.sampled_from(["a", "b x", "zz", "A"]))
def test_what_is_kept_piece_by_piece_equals_what_is_made_from_scratch(
    examples_folder: Path, steps: list[tuple[str, Scope, int, str]], query: str
) -> None:
    root = Path(tempfile.mkdtemp(prefix="oda-kept-", dir=examples_folder)) / "oda"
    try:
        store = MemoryStore(root)
        current, haystacks = CurrentMemory(), Haystacks()
        for kind, scope, n, words in steps:
            # The orders, the haystacks and the entries are kept from here on.
            chat = [m for each in (GLOBAL, "proj") for m in store.memories(each)]
            current.revision(chat)
            haystacks.matching(chat, query)
            try:
                _apply(store, root, kind, scope, n, words)
            except StoreError:  # refused (no text, a problem file...): nothing changed
                continue
            store.refresh()
            fresh = MemoryStore(root)
            for each in (GLOBAL, "proj"):
                assert [m.id for m in store.memories(each)] == [m.id for m in fresh.memories(each)]
            chat = [m for each in (GLOBAL, "proj") for m in store.memories(each)]
            entries, revision = current.revision(chat)
            made_anew = CurrentMemory()
            assert (entries, revision) == made_anew.revision(chat)
            assert revision == revision_of(entries)
            assert current.chars == made_anew.chars == sum(len(e.title) + len(e.text) + 6 for e in entries)
            words_asked = query_words(query)
            assert haystacks.matching(chat, query) == [m for m in chat if matches(m, words_asked)]
    finally:
        shutil.rmtree(root.parent, ignore_errors=True)
