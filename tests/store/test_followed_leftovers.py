"""What killed writers leave in a set a feed follows is found from what the feed names, not
from a listing of the whole set: a name the feed told of is put right at the next change, a
temp file not yet stale is looked at again until it is, and a feed that cannot say means the
whole set is looked at, as in a set no feed follows."""

from __future__ import annotations

import hashlib
import os
from datetime import UTC, datetime
from pathlib import Path

import store.durable.history as history_mod
from store import GLOBAL, MemoryStore, Scope
from tests.support.files import memory_file

SCOPES: list[Scope] = [GLOBAL]


class Feed:
    """A feed that names what the test says changed (None: it cannot say)."""

    def __init__(self) -> None:
        self.next: set[Path] | None = None

    def changes(self) -> set[Path] | None:
        named, self.next = self.next, set()
        return named

    def close(self) -> None:
        pass


def followed(root: Path) -> tuple[MemoryStore, Feed, str]:
    """A store following a feed of Global, one memory in it, and one change made since (the
    change that looks at the whole set once)."""
    made = MemoryStore(root).create(GLOBAL, "T", "first")
    store, feed = MemoryStore(root), Feed()
    store.follow(SCOPES, feed)
    store.catch_up()
    store.change(GLOBAL, made.id, text="second")
    return store, feed, made.id


def abs_in(root: Path, name: str) -> Path:
    """The path a kernel feed names for ``name`` in Global's folder."""
    return Path(os.path.abspath(root)) / "global" / name


def test_a_half_written_file_the_feed_names_is_removed_at_the_next_change(root: Path) -> None:
    store, feed, memory_id = followed(root)
    part = root / "global" / f".{memory_id}.md.0badf00d.part"
    part.write_text("half a file")
    feed.next = {abs_in(root, part.name)}
    store.change(GLOBAL, memory_id, text="third")
    assert not part.exists()


def test_a_followed_set_is_not_listed_for_names_the_feed_did_not_name(root: Path) -> None:
    store, feed, memory_id = followed(root)
    part = root / "global" / f".{memory_id}.md.0badf00d.part"
    part.write_text("half a file")  # a feed that missed it: the kernel's never does
    store.change(GLOBAL, memory_id, text="third")
    assert part.exists()
    feed.next = None  # the feed cannot say: the whole set is looked at
    store.change(GLOBAL, memory_id, text="fourth")
    assert not part.exists()


def test_a_change_never_swapped_in_that_the_feed_names_is_taken_back(root: Path) -> None:
    store, feed, memory_id = followed(root)
    data = memory_file(title="T", text="never applied").encode()
    staged = root / "global" / f".{memory_id}.md.{hashlib.sha256(data).hexdigest()[:16]}.new"
    staged.write_bytes(data)
    history_mod.add_version(
        root,
        root / "history" / "global" / memory_id,
        moment=datetime.now(UTC),
        source="settings",
        title="T",
        text="never applied",
        memory_source="user",
        keep=10,
    )
    feed.next = {abs_in(root, staged.name)}
    store.change(GLOBAL, memory_id, title="Renamed")
    texts = [(v.title, v.text) for v in MemoryStore(root).versions(GLOBAL, memory_id)]
    assert ("T", "never applied") not in texts
    assert texts[0] == ("Renamed", "second")
    assert not staged.exists()


def test_a_temp_file_not_yet_stale_is_looked_at_again_until_it_is(root: Path) -> None:
    store, feed, memory_id = followed(root)
    young = root / "global" / f".{memory_id}.md.cafebabe.tmp"  # maybe another program's, about to rename
    young.write_text("a new temp file")
    feed.next = {abs_in(root, young.name)}
    store.change(GLOBAL, memory_id, text="third")
    assert young.exists()
    os.utime(young, (1, 1))  # its writer was killed long ago; the feed names nothing new
    store.change(GLOBAL, memory_id, text="fourth")
    assert not young.exists()


def test_names_the_store_made_and_removed_itself_are_only_looked_up(root: Path) -> None:
    store, feed, memory_id = followed(root)
    gone = abs_in(root, f".{memory_id}.md.0123456789abcdef.new")  # a change's own, removed at its end
    feed.next = {gone}
    store.change(GLOBAL, memory_id, text="third")
    assert MemoryStore(root).get(GLOBAL, memory_id).text == "third"
    assert [v.text for v in MemoryStore(root).versions(GLOBAL, memory_id)][:2] == ["third", "second"]
