"""The parse index is trusted only when it is this user's and writable by no one else: an
index another account could have crafted never serves text that is on no disk."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from store import GLOBAL, MemoryStore
from store.read import parse_index
from store.read.scan import signature
from tests.support.files import started_store


def _crafted(root: Path) -> Path:
    """An index whose entry has the file's real stat but other text."""
    store = started_store(root)
    [memory] = store.memories(GLOBAL)
    forged = memory._replace(text="TEXT ON NO DISK")
    assert parse_index.save(root, store.limits, [(signature(os.stat(memory.path)), forged)])
    return parse_index.index_path(root)


def _texts(root: Path) -> list[str]:
    return [m.text for m in MemoryStore(root).memories(GLOBAL)]


def test_an_index_of_this_user_written_for_no_one_else_is_used(store: MemoryStore, root: Path) -> None:
    store.create(GLOBAL, "T", "on disk")
    _crafted(root)
    assert _texts(root) == ["TEXT ON NO DISK"]  # the check below is not vacuous: this one is used


@pytest.mark.parametrize("mode", [0o620, 0o602])
def test_an_index_others_can_write_is_not_used(store: MemoryStore, root: Path, mode: int) -> None:
    store.create(GLOBAL, "T", "on disk")
    _crafted(root).chmod(mode)
    assert _texts(root) == ["on disk"]


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_an_index_of_another_user_is_not_used(store: MemoryStore, root: Path) -> None:
    store.create(GLOBAL, "T", "on disk")
    os.chown(_crafted(root), 12345, -1)
    assert _texts(root) == ["on disk"]
