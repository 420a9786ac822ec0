"""The chat sums a store keeps up to date entry by entry (instead of summing 10,000 memories
after each change) always equal a fresh count: for random changes made through the store and
by other programs, what a chat receives is estimated exactly as a new store reading the disk
estimates it, and as the text it would be sent."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from store import GLOBAL, MemoryStore, Scope, StoreError
from tests.support.files import memory_file, write_raw

SCOPES: list[Scope] = [GLOBAL, "proj"]
step = st.tuples(
    st.sampled_from(["create", "change", "off", "on", "delete", "outside edit", "outside file", "problem"]),
    st.sampled_from(SCOPES),
    st.integers(0, 5),
    st.text(alphabet="abc xyz", min_size=1, max_size=30),
)


def apply(store: MemoryStore, root: Path, kind: str, scope: Scope, n: int, words: str) -> None:
    """One step; a step naming a memory that is not there is skipped."""
    memories = store.memories(scope)
    target = memories[n % len(memories)] if memories else None
    folder = root / "global" if scope is None else root / "workspaces" / "proj"
    if kind == "create":
        store.create(scope, f"T {n}", words)
    elif kind == "outside file":
        write_raw(folder / f"0000000{n}.md", memory_file(f"Outside {n}", words))
    elif kind == "problem":
        write_raw(folder / f"0000000{n}.md", "---\ntitle: [broken\n---\ntext\n")
    elif target is None:
        return
    elif kind == "change":
        store.change(scope, target.id, text=words)
    elif kind in ("off", "on"):
        store.set_enabled(scope, target.id, kind == "on")
    elif kind == "delete":
        store.delete(scope, target.id)
    else:  # an editor saving in place
        write_raw(
            folder / f"{target.id}.md",
            memory_file(target.title + " edited", words, enabled=str(target.enabled).lower()),
        )


@settings(max_examples=25, deadline=None)
@given(st.lists(step, min_size=1, max_size=12))
def test_kept_sums_equal_a_fresh_count(
    examples_folder: Path, steps: list[tuple[str, Scope, int, str]]
) -> None:
    root = Path(tempfile.mkdtemp(prefix="oda-sums-", dir=examples_folder)) / "oda"
    try:
        store = MemoryStore(root)
        store.chat_tokens("proj")  # the sums are known from here on, and kept
        for kind, scope, n, words in steps:
            try:
                apply(store, root, kind, scope, n, words)
            except StoreError:  # refused (no text, a problem file...): nothing changed
                continue
            store.refresh()
            fresh = MemoryStore(root)
            for chat in (None, "proj"):
                assert store.chat_tokens(chat) == fresh.chat_tokens(chat) == fresh.chat_memory(chat).tokens
    finally:
        shutil.rmtree(root.parent, ignore_errors=True)
