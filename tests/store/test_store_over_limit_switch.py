"""A memory over its title or text limit (a problem file) can always be turned off; turning it
on is refused with the length and the limit."""

from __future__ import annotations

from pathlib import Path

import pytest

from store import GLOBAL, MemoryStore, Problem, TooLong
from tests.support.files import memory_file, write_raw

ID = "abcdef01"


def over_limit(root: Path) -> Path:
    return write_raw(root / "global" / f"{ID}.md", memory_file("Long", "x" * 2345))


def test_turning_off_a_memory_over_its_text_limit_is_not_refused(root: Path) -> None:
    path = over_limit(root)
    store = MemoryStore(root)
    assert isinstance(store.find(GLOBAL, ID), Problem)
    change = store.edit(GLOBAL, ID, enabled=False, via="chat")
    assert change.changed
    assert (change.memory.title, change.memory.enabled, len(change.memory.text)) == ("Long", False, 2345)
    assert "enabled: false" in path.read_text("utf-8")
    assert path.read_text("utf-8").endswith("x" * 2345 + "\n")  # the text kept as it was
    assert isinstance(store.find(GLOBAL, ID), Problem)  # still over its limit: never sent
    assert store.versions(GLOBAL, ID) == []  # the switch alone keeps no version
    again = store.edit(GLOBAL, ID, enabled=False)
    assert not again.changed and again.memory.enabled is False


def test_turning_on_a_memory_over_its_text_limit_names_the_length(root: Path) -> None:
    path = over_limit(root)
    before = path.read_bytes()
    with pytest.raises(TooLong) as info:
        MemoryStore(root).edit(GLOBAL, ID, enabled=True)
    assert str(info.value) == (
        "A memory is limited to 2000 characters; this one has 2345. Shorten it or split it into several memories."
    )
    assert path.read_bytes() == before
