"""Files the store cannot read (mode 000 for another user, EIO): deleting is never refused for
it, a deletion record that cannot be read is never taken for "not deleted", and a purge or a
refused create leaves nothing half done behind.

The tests run as root, whom mode 000 does not stop: the refusal of ``open`` is simulated."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import store.durable.history
from store import GLOBAL, Memory, MemoryStore
from store.errors import CouldNotChange
from tests.support.unreadable import refuse_folder


def refuse_open(monkeypatch: pytest.MonkeyPatch, name: str, err: int = errno.EACCES) -> None:
    """``os.open`` of a file named ``name`` (anywhere) fails with ``err``, as mode 000 does."""
    real: Callable[..., int] = os.open

    def opening(path: Any, *args: Any, **kwargs: Any) -> int:
        if os.path.basename(os.fspath(path)) == name:
            raise OSError(err, os.strerror(err), os.fspath(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", opening)


@pytest.fixture
def gone(root: Path) -> tuple[MemoryStore, Memory]:
    """A store whose one memory, "Gone" ("For good."), was deleted: it waits in history."""
    s = MemoryStore(root)
    memory = s.create(GLOBAL, "Gone", "For good.")
    s.delete(GLOBAL, memory.id)
    return s, memory


def test_a_memory_whose_file_cannot_be_read_is_deleted(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s = MemoryStore(root)
    memory = s.create(GLOBAL, "Locked", "Its text.")
    with monkeypatch.context() as m:
        refuse_open(m, f"{memory.id}.md")
        s.delete(GLOBAL, memory.id)  # never refused: a deletion is a rename
    assert not Path(memory.path).exists()
    [waiting] = s.deleted(GLOBAL)
    assert (waiting.id, waiting.title, waiting.problem) == (memory.id, "Locked", False)
    back = s.restore_deleted(GLOBAL, memory.id)
    assert back is not None and back.text == "Its text."


def test_a_deleted_copy_that_cannot_be_read_is_not_taken_for_a_removed_file(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = MemoryStore(root)
    memory = s.create(GLOBAL, "Kept", "The first text.")
    s.change(GLOBAL, memory.id, text="The text when it was deleted.")
    s.delete(GLOBAL, memory.id)
    hdir = root / "history" / "global" / memory.id
    with monkeypatch.context() as m:
        refuse_open(m, store.durable.history.DELETED_BYTES)
        with pytest.raises(CouldNotChange) as refused:
            s.restore_deleted(GLOBAL, memory.id)
        [waiting] = s.deleted(GLOBAL)  # still listed, as deleted (not as removed outside)
        assert (waiting.id, waiting.outside) == (memory.id, False)
    assert str(refused.value) == (
        f"The memory could not be changed: history/global/{memory.id}/deleted.md could not be read"
        " (Permission denied)."
    )
    assert not Path(memory.path).exists()  # no older version was written back in its place
    assert (hdir / "deleted.md").exists() and (hdir / "deleted.json").exists()
    back = s.restore_deleted(GLOBAL, memory.id)  # once it can be read
    assert back is not None and back.text == "The text when it was deleted."
    assert not (hdir / "deleted.md").exists() and not (hdir / "deleted.json").exists()


def test_a_deletion_record_that_cannot_be_read_can_still_be_purged(
    root: Path, gone: tuple[MemoryStore, Memory], monkeypatch: pytest.MonkeyPatch
) -> None:
    s, memory = gone
    with monkeypatch.context() as m:
        refuse_open(m, store.durable.history.DELETED_META, errno.EIO)
        with pytest.raises(CouldNotChange, match="deleted.json could not be read"):
            s.restore_deleted(GLOBAL, memory.id)
        s.purge_deleted(GLOBAL, memory.id)
    assert not (root / "history" / "global" / memory.id).exists()
    assert s.deleted(GLOBAL) == []


def test_a_purge_that_cannot_remove_everything_is_still_done(
    root: Path, gone: tuple[MemoryStore, Memory], monkeypatch: pytest.MonkeyPatch
) -> None:
    s, memory = gone
    real = os.unlink

    def unlinking(path: Any, *args: Any, **kwargs: Any) -> None:
        if os.fspath(path) == "deleted.md":
            raise OSError(errno.EIO, os.strerror(errno.EIO), path)
        real(path, *args, **kwargs)

    with monkeypatch.context() as m:
        m.setattr(os, "unlink", unlinking)
        s.purge_deleted(GLOBAL, memory.id)
    assert s.deleted(GLOBAL) == [] and s.versions(GLOBAL, memory.id) == []
    [aside] = (root / "history" / "global").iterdir()  # renamed aside in one step
    assert aside.name.startswith(f".{memory.id}.") and aside.name.endswith(".purged")
    MemoryStore(root).create(GLOBAL, "Next", "The next store's first change tidies it.")
    assert [p.name for p in (root / "history" / "global").iterdir() if p.name.startswith(".")] == []


def test_a_refused_create_leaves_no_folder(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s = MemoryStore(root)
    s.create(GLOBAL, "First", "So that the set's folders are there.")
    before = sorted(p.relative_to(root) for p in root.rglob("*") if p.name != ".lock")
    real = os.fsync

    def fsyncing(fd: int) -> None:
        if os.path.isfile(f"/proc/self/fd/{fd}") and "version" in os.readlink(f"/proc/self/fd/{fd}"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(fd)

    with monkeypatch.context() as m:
        m.setattr(os, "fsync", fsyncing)
        with pytest.raises(CouldNotChange, match="No space left on device"):
            s.create(GLOBAL, "Second", "Its version cannot be written.")
    after = sorted(p.relative_to(root) for p in root.rglob("*") if p.name != ".lock")
    assert after == before  # no empty history/global/<id>/versions/ left behind


def test_an_unreadable_set_folder_is_named_not_taken_for_an_empty_set(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    MemoryStore(root).create(GLOBAL, "Tea", "Green tea.")
    refuse_folder(monkeypatch, root / "global")
    s = MemoryStore(root)
    assert s.memories(GLOBAL) == []
    [shut] = s.unreadable_folders()
    assert (shut.path, shut.error) == (root / "global", "Permission denied")
    assert shut.reason == "The folder could not be read: Permission denied."
    with pytest.raises(CouldNotChange) as refused:
        s.create(GLOBAL, "Coffee", "Black.")
    assert str(refused.value) == (
        f"The memory could not be changed: the folder {root / 'global'} could not be opened (Permission denied)."
    )
    monkeypatch.undo()
    assert [m.title for m in MemoryStore(root).memories(GLOBAL)] == ["Tea"]  # nothing was written
    assert MemoryStore(root).unreadable_folders() == []
