"""Random changes to a store, through it and as another program would: for property tests."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from store import GLOBAL, Memory, MemoryStore
from tests.support.files import memory_file, write_raw

TITLES = st.sampled_from(["Style", "Style", "Tea", "Stack", "Indentation", 'a", "b', "back\\slash"])
TEXTS = st.sampled_from(
    [
        "Use tabs.",
        "Use tabs always.",
        "Use spaces.",
        "Green tea.",
        "Use tabs.\n\nAlso in Makefiles.",
        'Say "tabs", "spaces".',
    ]
)
SCOPES = st.sampled_from([GLOBAL, "proj"])
PICK = st.integers(0, 50)
#: One change: create, change, rename, turn off or on, delete, move to the other set, or by
#: another program: edit, new file, delete, a new ``created`` (the order).
STEPS = st.one_of(
    st.tuples(st.just("create"), SCOPES, TITLES, TEXTS),
    st.tuples(st.just("change"), PICK, st.none() | TITLES, TEXTS),
    st.tuples(st.just("rename"), PICK, TITLES),
    st.tuples(st.just("toggle"), PICK),
    st.tuples(st.just("delete"), PICK),
    st.tuples(st.just("move"), PICK),
    st.tuples(st.just("outside_edit"), PICK, TITLES, TEXTS),
    st.tuples(st.just("outside_new"), SCOPES, TITLES, TEXTS, st.integers(0, 2**32 - 1)),
    st.tuples(st.just("outside_delete"), PICK),
    st.tuples(st.just("reorder"), PICK, st.integers(1, 28)),
)


def take(store: MemoryStore, step: tuple[Any, ...]) -> None:
    """Make one change, through the store or as another program would."""
    kind = step[0]
    if kind == "create":
        store.create(step[1], step[2], step[3])
        return
    if kind == "outside_new":
        folder = store.root / ("global" if step[1] is None else f"workspaces/{step[1]}")
        write_raw(folder / f"{step[4]:08x}.md", memory_file(step[2], step[3]))
        store.refresh()
        return
    every = [m for scope in (GLOBAL, "proj") for m in store.memories(scope)]
    if not every:
        return
    _ON_ONE[kind](store, every[step[1] % len(every)], step)
    store.refresh()


def _reorder(store: MemoryStore, m: Memory, step: tuple[Any, ...]) -> None:
    path = store.memory_path(m.scope, m.id)
    raw = path.read_text("utf-8")
    created = f"created: 2024-02-{step[2]:02d}T00:00:00.000Z"
    raw = (
        re.sub(r"^created: .*$", created, raw, flags=re.M)
        if "\ncreated:" in raw
        else raw.replace("\n---\n", f"\n{created}\n---\n", 1)
    )
    write_raw(path, raw)


#: Each change to one memory picked by the step, through the store or as another program would.
_ON_ONE: dict[str, Callable[[MemoryStore, Memory, tuple[Any, ...]], object]] = {
    "change": lambda store, m, step: store.change(m.scope, m.id, title=step[2], text=step[3]),
    "rename": lambda store, m, step: store.change(m.scope, m.id, title=step[2]),
    "toggle": lambda store, m, step: store.set_enabled(m.scope, m.id, not m.enabled),
    "delete": lambda store, m, step: store.delete(m.scope, m.id),
    "move": lambda store, m, step: store.move(m.scope, m.id, "proj" if m.scope is None else GLOBAL),
    "outside_edit": lambda store, m, step: write_raw(
        store.memory_path(m.scope, m.id),
        memory_file(step[2], step[3], enabled="true" if m.enabled else "false"),
    ),
    "outside_delete": lambda store, m, step: store.memory_path(m.scope, m.id).unlink(),
    "reorder": _reorder,
}


@contextmanager
def example_store(folder: Path, first: list[tuple[str, str]]) -> Iterator[MemoryStore]:
    """A store of one hypothesis example's own, in a new folder inside ``folder`` (removed
    after), holding the ``first`` memories (a title of odd length in proj, the others in Global)."""
    with tempfile.TemporaryDirectory(
        dir=folder, ignore_cleanup_errors=True
    ) as tmp:  # a failure shows as itself
        store = MemoryStore(Path(tmp) / "oda")
        for title, text in first:
            store.create("proj" if len(title) % 2 else GLOBAL, title, text)
        yield store


def settled(*stores: MemoryStore) -> None:
    """Wait for the parse index each store writes in the background after its first load, so
    that the folder can be removed."""
    for store in stores:
        writer = store._index_writer
        if writer is not None:
            writer.join()
