"""A store that follows a feed of change events: the followed sets are caught up from what the
feed names (or looked at whole when it cannot say), and a change's budget check sees every
change the feed names, made by any program, before it writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from store import GLOBAL, MemoryStore, OverChatLimit, Scope
from tests.support.files import write_raw


class Feed:
    """A feed that names what the test says changed (None: it cannot say)."""

    def __init__(self) -> None:
        self.next: set[Path] | None = None
        self.asked = 0
        self.closed = False

    def changes(self) -> set[Path] | None:
        self.asked += 1
        named, self.next = self.next, set()
        return named

    def close(self) -> None:
        self.closed = True


SCOPES: list[Scope] = [GLOBAL, "proj"]


@pytest.fixture
def limited_root(tmp_path: Path) -> Path:
    root = tmp_path / "oda"
    write_raw(root / "settings.yaml", "chat_max_tokens: 500\n")
    return root


def grow_in_place(store: MemoryStore, scope: Scope, memory_id: str, extra: str) -> Path:
    """An editor's in-place save: the same file, more text (no store involved)."""
    path = store.memory_path(scope, memory_id)
    data = path.read_bytes()
    assert data.endswith(b"\n")
    path.write_bytes(data[:-1] + extra.encode() + b"\n")
    return path


@pytest.mark.parametrize("feed_says", ["names the file", "cannot say"])
def test_a_change_is_refused_over_the_limit_an_outside_edit_reached(
    limited_root: Path, feed_says: str
) -> None:
    store = MemoryStore(limited_root)
    big = store.create("proj", "Big", "x" * 1500)  # about 380 tokens: another 200 characters fit
    feed = Feed()
    store.follow(SCOPES, feed)
    store.catch_up()  # the first look, as a server does before its first answer
    path = grow_in_place(MemoryStore(limited_root), "proj", big.id, "y" * 400)
    feed.next = {path} if feed_says == "names the file" else None
    asked = feed.asked
    with pytest.raises(OverChatLimit) as refused:
        store.create("proj", "More", "z" * 200)
    assert feed.asked > asked  # caught up under the lock, before the check
    assert refused.value.tokens > 500
    assert [m.title for m in MemoryStore(limited_root).memories("proj")] == ["Big"]  # nothing written


def test_catch_up_reports_what_changed_and_the_next_refresh_does_too(limited_root: Path) -> None:
    store = MemoryStore(limited_root)
    kept = store.create(GLOBAL, "Kept", "short")
    feed = Feed()
    store.follow(SCOPES, feed)
    assert store.catch_up() == set()
    path = grow_in_place(MemoryStore(limited_root), GLOBAL, kept.id, " and longer")
    feed.next = {path}
    assert store.catch_up() == {path}
    assert store.get(GLOBAL, kept.id).text == "short and longer"
    assert store.refresh([]) == {path}  # the app's refresh still hears of it


def test_a_set_that_is_not_followed_is_looked_at_file_by_file(limited_root: Path) -> None:
    """A Global change reaches every workspace's chat: those not followed are stat-checked."""
    store = MemoryStore(limited_root)
    other = store.create("other", "Other", "x" * 1500)
    feed = Feed()
    store.follow(SCOPES, feed)
    store.catch_up()
    grow_in_place(MemoryStore(limited_root), "other", other.id, "y" * 400)
    with pytest.raises(OverChatLimit) as refused:
        store.create(GLOBAL, "More", "z" * 200)  # the feed names nothing; "other" is not followed
    assert refused.value.workspace == "other"


def test_a_change_that_makes_no_chat_grow_is_never_refused(limited_root: Path) -> None:
    store = MemoryStore(limited_root)
    write_raw(limited_root / "settings.yaml", "chat_max_tokens: 1000\n")
    big = store.create("proj", "Big", "x" * 1900)
    store.create("proj", "Also big", "y" * 1900)
    write_raw(limited_root / "settings.yaml", "chat_max_tokens: 500\n")  # now far over
    changed = store.change("proj", big.id, text="x" * 1500)
    assert changed.changed and len(store.get("proj", big.id).text) == 1500
    with pytest.raises(OverChatLimit):
        store.change("proj", big.id, text="x" * 1600)


def test_following_another_feed_closes_the_first_and_unfollow_closes_it(limited_root: Path) -> None:
    store = MemoryStore(limited_root)
    first, second = Feed(), Feed()
    store.follow(SCOPES, first)
    store.follow(SCOPES, second)
    assert first.closed and not second.closed
    store.unfollow()
    assert second.closed
    assert store.catch_up() == set()
    assert second.asked == 0
