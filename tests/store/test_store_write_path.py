"""The write path: an outside save in the middle of a change is kept, and refused means not
applied (an unwritable history, text that cannot be written as UTF-8)."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import store.disk.swap as swap
import store.durable.commit as commit_mod
import store.durable.history as history_mod
from store import GLOBAL, CouldNotChange, MemoryStore, StoreError
from tests.support.files import memory_file, write_raw


def hdir(root: Path, memory_id: str, scope: str | None = None) -> Path:
    part = "global" if scope is None else f"workspaces/{scope}"
    return root / "history" / part / memory_id


def file_state(root: Path) -> dict[str, bytes]:
    """Every file under the root except the lock and the parse index, with its bytes."""
    found = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.name != ".lock" and "parse-index" not in path.name:
            found[str(path.relative_to(root))] = path.read_bytes()
    return found


@pytest.fixture(params=["exchange", "fallback"])
def swap_mode(request: pytest.FixtureRequest) -> Any:
    """Run a test with the kernel's swap and with the fallback other systems use."""
    if request.param == "exchange" and not swap.exchange_available():
        pytest.skip("renameat2 is not available on this system")
    swap.force_fallback(request.param == "fallback")
    yield request.param
    swap.force_fallback(False)


# --- an outside save in the middle of a change ---------------------------------------------


def meanwhile(monkeypatch: pytest.MonkeyPatch, outside: Callable[[str | None], None]) -> None:
    """Another program's doing, ``outside``, run each time the store has written a version to
    history (between its read of the file and its swap), given that version's source."""
    real = history_mod.write_version

    def then_outside(*args: Any, **kwargs: Any) -> Any:
        version = real(*args, **kwargs)
        outside(kwargs.get("source"))
        return version

    monkeypatch.setattr(history_mod, "write_version", then_outside)


def test_an_outside_save_during_a_change_is_kept_before_the_stores_version(
    store: MemoryStore, root: Path, monkeypatch: pytest.MonkeyPatch, swap_mode: str
) -> None:
    memory = store.create(GLOBAL, "T", "first")
    path = Path(memory.path)

    def outside_saves(source: str | None) -> None:
        if source == "settings":  # between the store's read and its rename
            tmp = path.with_name("editor.tmp")
            tmp.write_text(memory_file(title="T", text="outside text"))
            os.replace(tmp, path)

    meanwhile(monkeypatch, outside_saves)
    changed = store.change(GLOBAL, memory.id, text="the store's text")
    monkeypatch.undo()
    assert Path(memory.path).read_text().endswith("the store's text\n")
    versions = store.versions(GLOBAL, memory.id)
    assert [(v.source, v.text) for v in versions[:3]] == [
        ("settings", "the store's text"),
        ("external", "outside text"),
        ("settings", "first"),
    ]
    assert changed.memory.text == "the store's text"
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".")]


def test_an_outside_problem_file_saved_during_a_change_wins_and_the_change_is_refused(
    store: MemoryStore, root: Path, monkeypatch: pytest.MonkeyPatch, swap_mode: str
) -> None:
    memory = store.create(GLOBAL, "T", "first")
    path = Path(memory.path)

    def outside_breaks_it(_source: str | None) -> None:
        path.write_text("not a memory file\n")

    meanwhile(monkeypatch, outside_breaks_it)
    with pytest.raises(CouldNotChange) as info:
        store.change(GLOBAL, memory.id, text="the store's text")
    monkeypatch.undo()
    assert info.value.reason.startswith("its file has a problem")
    assert path.read_text() == "not a memory file\n"
    assert [v.text for v in store.versions(GLOBAL, memory.id)] == ["first"]  # its own taken back


def test_a_folder_put_in_place_of_the_file_during_a_change_is_left_and_the_change_refused(
    store: MemoryStore, root: Path, monkeypatch: pytest.MonkeyPatch, swap_mode: str
) -> None:
    memory = store.create(GLOBAL, "T", "first")
    path = Path(memory.path)

    def outside_puts_a_folder(_source: str | None) -> None:
        path.unlink()
        path.mkdir()

    meanwhile(monkeypatch, outside_puts_a_folder)
    with pytest.raises(CouldNotChange):
        store.change(GLOBAL, memory.id, text="the store's text")
    monkeypatch.undo()
    assert path.is_dir()
    assert [v.text for v in store.versions(GLOBAL, memory.id)] == ["first"]
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".")]


# --- refused means not applied ---------------------------------------------------------------


def _history_unwritable(monkeypatch: pytest.MonkeyPatch, root: Path) -> None:
    """What the kernel does for a history folder the user may not write (tests run as root,
    where permissions do not bite)."""
    real_open = os.open
    history = str(root / "history")

    def guarded(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        where = os.fspath(path)
        if kwargs.get("dir_fd") is not None:  # a name in an open folder: where that folder is
            where = os.path.join(os.readlink(f"/proc/self/fd/{kwargs['dir_fd']}"), where)
        if where.startswith(history) and flags & os.O_CREAT:
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded)


def test_an_unwritable_history_changes_nothing(
    store: MemoryStore, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = store.create(GLOBAL, "T", "older")
    store.change(GLOBAL, memory.id, text="first", via="chat")
    older = store.versions(GLOBAL, memory.id)[1].name
    store.create("ws", "W", "in a workspace")
    before = file_state(root)
    _history_unwritable(monkeypatch, root)
    for call in (
        lambda: store.change(GLOBAL, memory.id, text="second"),
        lambda: store.create(GLOBAL, "New", "never saved"),
        lambda: store.create("other", "New", "never saved"),
        lambda: store.undo(GLOBAL, memory.id),
        lambda: store.restore_version(GLOBAL, memory.id, older),
        lambda: store.delete(GLOBAL, memory.id),
    ):
        with pytest.raises(StoreError):
            call()
        assert file_state(root) == before
    with pytest.raises(CouldNotChange) as info:
        store.change(GLOBAL, memory.id, text="second")
    assert str(info.value) == "The memory could not be changed: Permission denied."
    monkeypatch.undo()
    assert [m.text for m in MemoryStore(root).memories(GLOBAL)] == ["first"]


def test_an_unwritable_history_keeps_an_outside_edit_unapplied_too(
    store: MemoryStore, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = store.create(GLOBAL, "T", "first")
    write_raw(Path(memory.path), memory_file(title="T", text="edited outside"))
    before = file_state(root)
    _history_unwritable(monkeypatch, root)
    with pytest.raises(CouldNotChange):
        store.change(GLOBAL, memory.id, text="second")
    assert file_state(root) == before


@pytest.mark.parametrize("bad", ["bad \ud800", "\udfff", "ok \ud83d"])
def test_a_lone_surrogate_is_refused_before_anything_is_written(
    store: MemoryStore, root: Path, bad: str
) -> None:
    memory = store.create(GLOBAL, "T", "first")
    before = file_state(root)
    for call in (
        lambda: store.change(GLOBAL, memory.id, title=bad),
        lambda: store.change(GLOBAL, memory.id, text=bad),
        lambda: store.create(GLOBAL, bad, "x"),
        lambda: store.create(GLOBAL, "T", bad),
        lambda: store.create(GLOBAL, "T", "x", session_id=bad),
    ):
        with pytest.raises(CouldNotChange) as info:
            call()
        assert str(info.value).startswith("The memory could not be changed: ")
        assert str(info.value).endswith(".")
        assert file_state(root) == before
    assert store.get(GLOBAL, memory.id).text == "first"


def test_swap_primitives_never_overwrite(tmp_path: Path, swap_mode: str) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("A")
    b.write_text("B")
    with pytest.raises(FileExistsError):
        swap.rename_new(a, b)
    assert (a.read_text(), b.read_text()) == ("A", "B")
    if swap_mode == "exchange":
        assert swap.exchange(a, b)
        assert (a.read_text(), b.read_text()) == ("B", "A")
    else:
        assert not swap.exchange(a, b)
    swap.rename_new(a, tmp_path / "c")
    assert not a.exists() and (tmp_path / "c").read_text() in ("A", "B")
    assert commit_mod.read_limited(tmp_path, tmp_path / "c", 0) is not None
