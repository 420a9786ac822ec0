"""Frontmatter keys of a caller's own (where an import came from): written by ``create`` and
``edit`` in their one transaction, kept through later changes, refused when they are not
plain keys of one-line text."""

from __future__ import annotations

from pathlib import Path

import pytest

from store import GLOBAL, CouldNotChange, MemoryStore
from tests.support.files import memory_file, write_raw


def test_create_and_edit_write_the_callers_keys(store: MemoryStore, root: Path) -> None:
    origin = {"importedFrom": "server-memory entity Ada_Lovelace", "importedDigest": "sha256:1234"}
    made = store.create(GLOBAL, "Ada", "Wrote the first program.", extra=origin)
    assert made.extra == origin
    changed = store.edit(
        GLOBAL, made.id, text="Wrote the first program, 1843.", extra={"importedDigest": "sha256:99"}
    )
    assert changed.changed
    fresh = MemoryStore(root).get(GLOBAL, made.id)
    assert fresh.extra == {**origin, "importedDigest": "sha256:99"}
    assert fresh.text == "Wrote the first program, 1843."
    assert [v.source for v in store.versions(GLOBAL, made.id)] == ["settings", "settings"]
    again = store.edit(GLOBAL, made.id, extra={"importedDigest": "sha256:99"})
    assert not again.changed  # nothing new: nothing written
    store.change(GLOBAL, made.id, title="Ada Lovelace")  # an ordinary change keeps them
    assert MemoryStore(root).get(GLOBAL, made.id).extra == fresh.extra


def test_a_flow_style_block_takes_the_keys_too(store: MemoryStore, root: Path) -> None:
    path = write_raw(
        root / "global" / "0000000a.md", "---\n{title: T, enabled: true, source: user, mine: x}\n---\nText\n"
    )
    store.edit(GLOBAL, "0000000a", text="New", extra={"importedFrom": "y"})
    assert MemoryStore(root).get(GLOBAL, "0000000a").extra == {"mine": "x", "importedFrom": "y"}
    assert path.read_text().endswith("---\n\nNew\n")


@pytest.mark.parametrize(
    "extra",
    [{"title": "x"}, {"enabled": "x"}, {"two words": "x"}, {"k": "two\nlines"}, {"k": 1}, {"k": "\ud800"}],
)
def test_keys_that_are_not_plain_one_line_text_are_refused(
    store: MemoryStore, root: Path, extra: dict[str, object]
) -> None:
    write_raw(root / "global" / "0000000b.md", memory_file("T", "Body"))
    with pytest.raises(CouldNotChange):
        store.create(GLOBAL, "T", "New body", extra=extra)  # type: ignore[arg-type]
    with pytest.raises(CouldNotChange):
        store.edit(GLOBAL, "0000000b", text="Other", extra=extra)  # type: ignore[arg-type]
    assert [m.text for m in MemoryStore(root).memories(GLOBAL)] == ["Body"]
