"""The Problems screen's fix is a change like any other: another program's newer save is never
replaced, the fix is kept as a ``settings`` version, and a fix in place is never reported as
refused."""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import store.durable.commit as commit_mod
import store.write.fixing as fixing
from store import GLOBAL, CouldNotChange, MemoryStore
from store.disk import swap
from tests.support.faults import Faults, base_call
from tests.support.files import memory_file, write_raw

BROKEN = b"---\ntitle: [unclosed\nenabled: true\nsource: user\n---\n\nbroken\n"
FIX = memory_file("Fixed", "fixed by hand").encode()


@pytest.fixture(params=["exchange", "fallback"])
def swap_mode(request: pytest.FixtureRequest) -> Iterator[str]:
    """Run a test with the kernel's swap and with the fallback other systems use."""
    if request.param == "exchange" and not swap.exchange_available():
        pytest.skip("renameat2 is not available on this system")
    swap.force_fallback(request.param == "fallback")
    yield request.param
    swap.force_fallback(False)


def problem_file(store: MemoryStore) -> Path:
    path = write_raw(store.memory_path(GLOBAL, "0badf11e"), BROKEN)
    store.refresh()
    assert [p.path for p in store.problems()] == [path]
    return path


def save_outside(path: Path, data: bytes) -> None:
    """Another program's rename-save."""
    tmp = path.with_name("editor.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def between_read_and_swap(monkeypatch: pytest.MonkeyPatch, outside: Callable[[], None]) -> None:
    """Run ``outside`` once, right after the fix has read the file under the lock (before its swap)."""
    real = commit_mod.read_limited
    done: list[bool] = []

    def read_then_outside(*args: Any, **kwargs: Any) -> bytes | None:
        found = real(*args, **kwargs)
        if not done:
            done.append(True)
            outside()
        return found

    monkeypatch.setattr("store.write.fixing.read_limited", read_then_outside)


def test_the_fix_is_kept_as_a_settings_version(store: MemoryStore) -> None:
    path = problem_file(store)
    fixed = store.write_fixed(path, FIX, seen=BROKEN)
    assert fixed is not None and fixed.title == "Fixed"
    assert [(v.source, v.text) for v in store.versions(GLOBAL, "0badf11e")] == [("settings", "fixed by hand")]
    # Nothing is kept as an outside edit at the next change: history has the fix already.
    store.change(GLOBAL, "0badf11e", text="changed in the app")
    assert [v.source for v in store.versions(GLOBAL, "0badf11e")] == ["settings", "settings"]


def test_a_newer_outside_memory_is_kept_as_an_external_version_first(store: MemoryStore) -> None:
    path = problem_file(store)
    save_outside(path, memory_file("Theirs", "saved by another program").encode())
    store.write_fixed(path, FIX, seen=BROKEN)
    assert path.read_bytes() == FIX
    assert [(v.source, v.text) for v in store.versions(GLOBAL, "0badf11e")] == [
        ("settings", "fixed by hand"),
        ("external", "saved by another program"),
    ]


def test_a_newer_outside_save_that_is_no_memory_refuses_the_fix(store: MemoryStore) -> None:
    path = problem_file(store)
    theirs = b"---\ntitle: [still broken, but newer\n---\n\ntheir paragraph\n"
    save_outside(path, theirs)
    with pytest.raises(CouldNotChange) as info:
        store.write_fixed(path, FIX, seen=BROKEN)
    assert "another program saved this file since it was shown here" in str(info.value)
    assert path.read_bytes() == theirs


def test_an_outside_save_between_the_read_and_the_swap_is_not_replaced(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch, swap_mode: str
) -> None:
    path = problem_file(store)
    theirs = b"---\ntitle: [newer and still broken\n---\n\ntheir paragraph\n"
    between_read_and_swap(monkeypatch, lambda: save_outside(path, theirs))
    with pytest.raises(CouldNotChange):
        store.write_fixed(path, FIX, seen=BROKEN)
    monkeypatch.undo()
    assert path.read_bytes() == theirs
    assert [n for n in os.listdir(path.parent) if n.startswith(".")] == []


def test_an_outside_memory_between_the_read_and_the_swap_is_kept_as_a_version(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch, swap_mode: str
) -> None:
    path = problem_file(store)
    theirs = memory_file("Theirs", "saved in the window").encode()
    between_read_and_swap(monkeypatch, lambda: save_outside(path, theirs))
    store.write_fixed(path, FIX, seen=BROKEN)
    monkeypatch.undo()
    assert path.read_bytes() == FIX
    assert [(v.source, v.text) for v in store.versions(GLOBAL, "0badf11e")] == [
        ("settings", "fixed by hand"),
        ("external", "saved in the window"),
    ]


def test_settings_yaml_saved_meanwhile_is_not_replaced(store: MemoryStore, root: Path) -> None:
    store.workspaces()
    path = write_raw(root / "settings.yaml", b"versions_kept: [\n")
    save_outside(path, b"versions_kept: 7\n")
    with pytest.raises(CouldNotChange):
        store.write_fixed(path, b"versions_kept: 5\n", seen=b"versions_kept: [\n")
    assert path.read_bytes() == b"versions_kept: 7\n"


@pytest.mark.parametrize("code", [errno.EIO, errno.EACCES])
def test_a_failing_look_after_the_swap_does_not_refuse_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    """Each look the fix takes once its file is in place (the picture's ``lstat``, ``open``
    and ``read`` of the new file) fails in turn, on the same tree: the fix is in place, so it is never
    reported as refused, and the next refresh reads it."""
    template, root = tmp_path / "template", tmp_path / "oda"
    problem_file(MemoryStore(template))
    path = root / "global" / "0badf11e.md"
    faults = Faults()
    faults.install(monkeypatch)

    def fixed_store() -> MemoryStore:
        shutil.rmtree(root, ignore_errors=True)
        shutil.copytree(template, root)
        fresh = MemoryStore(root, hold_index=True)
        fresh.workspaces()
        return fresh

    in_place: list[int] = []
    real = fixing._taken_in

    def taken_in(*args: Any) -> Any:
        in_place.append(faults.count)  # the calls so far put the file in place
        return real(*args)

    monkeypatch.setattr(fixing, "_taken_in", taken_in)
    clean = fixed_store()
    with faults.armed_at(None):
        clean.write_fixed(path, FIX, seen=BROKEN)
    calls = len(faults.calls)
    failed: set[str] = set()
    # The calls before the swap vary by a few between runs (what the picture re-reads), so
    # every call from well before it is failed in turn: a refusal only before the swap.
    for at in range(max(1, in_place[0] - 20), calls + 10):
        fresh = fixed_store()
        in_place.clear()
        with faults.armed_at(at, code):
            try:
                fresh.write_fixed(path, FIX, seen=BROKEN)
            except CouldNotChange:
                assert not in_place or in_place[0] >= at, f"refused after the swap, at {faults.failed}"
                continue
        if faults.failed is not None and in_place and in_place[0] < at:
            failed.add(base_call(faults.failed))
        assert path.read_bytes() == FIX, faults.failed
        fresh.refresh()
        assert fresh.problems() == [] and fresh.get(GLOBAL, "0badf11e").title == "Fixed", faults.failed
    assert {"stat", "lstat"} & failed, failed  # the look after the swap did fail
