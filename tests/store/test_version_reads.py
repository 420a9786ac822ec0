"""A change does not read every kept version of its memory again: a version file is read
once, and again only when it is a new file or was touched since."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from store import GLOBAL, MemoryStore
from store.durable import history


def counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The version files read from now on (by either way history reads a file)."""
    read: list[str] = []

    def wrap(name: str) -> None:
        real: Callable[..., Any] | None = getattr(history, name, None)

        def counted(*args: Any, **kwargs: Any) -> Any:
            read.append(str(args[1]))
            assert real is not None
            return real(*args, **kwargs)

        monkeypatch.setattr(history, name, counted, raising=False)

    wrap("read_at")
    wrap("read_regular")
    return read


def test_a_change_reads_only_the_version_it_wrote(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    m = store.create(GLOBAL, "T", "first")
    for n in range(12):
        store.edit(GLOBAL, m.id, text=f"text {n}")
    assert len(store.versions(GLOBAL, m.id)) == 10
    read = counting(monkeypatch)
    store.edit(GLOBAL, m.id, text="one more")
    assert len(read) <= 1, read  # the new version (its bytes are its own), not the 10 kept


def test_a_version_file_touched_outside_is_read_again(store: MemoryStore, root: Path) -> None:
    m = store.create(GLOBAL, "T", "first")
    store.edit(GLOBAL, m.id, text="second")
    newest = store.versions(GLOBAL, m.id)[0]
    path = next(root.rglob(f"{newest.name}.md"))
    path.write_text(path.read_text("utf-8").replace("second", "second, edited by hand"), "utf-8")
    assert store.versions(GLOBAL, m.id)[0].text == "second, edited by hand"
    path.unlink()
    assert [v.text for v in store.versions(GLOBAL, m.id)] == ["first"]
