"""The fault harness's runner: one kind of change from its template tree, a clean run to
compare with, and the checks after each attempt under a fault (see
``tests/harness/test_harness_faults.py`` for what is promised)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest

from store import MemoryStore
from store.disk import swap
from store.errors import CouldNotChange
from tests.support.fault_cases import CASES, B, Case, pin
from tests.support.fault_cases import build as build_tree
from tests.support.faults import Entry, Faults, diff, distinct_sites, ids_in_sets, settled, snapshot, tidied

PREFIX = "The memory could not be changed: "


def case_params() -> list[Any]:
    """``CASES`` as test parameters."""
    return list(CASES)


def _picture(s: MemoryStore) -> list[tuple[object, ...]]:
    return [
        (m.scope, m.id, m.title, m.text, m.enabled)
        for scope in [None, *s.workspaces()]
        for m in s.memories(scope)
    ]


def _is_version(rel: str, source: str = "") -> bool:
    return rel.startswith("history/") and "/versions/" in rel and rel.endswith(f"{source}.md")


class Harness:
    """One case's template tree, its clean result, and the checks after each fault."""

    def __init__(self, case: Case, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.case = case
        self.clock, self.ids = pin(monkeypatch)
        self.template = tmp / "template"
        build_tree(self.template)
        if case.prepare is not None:
            case.prepare(self.template)
        self.clock.ticking = False
        self.root = tmp / "oda"
        #: Why the last ``attempt`` was refused (None: it completed, or it raised otherwise).
        self.last_refused: CouldNotChange | None = None
        self.faults = Faults()
        self.faults.install(monkeypatch)
        if case.without_renameat2:
            monkeypatch.setattr(swap, "_renameat2", None)
        s = self._fresh()
        self.before = snapshot(self.root)
        with self.faults.armed_at(None):
            self._run(s)
        self.calls = list(self.faults.calls)
        self.sampled = distinct_sites(self.faults)
        self.clean = snapshot(self.root)
        assert not tidied(self.clean), "a clean run leaves temp files"
        #: The tree of a move rolled back (the one it started from, the change's write made).
        self.rolled_back: dict[str, Entry] | None = None
        if case.rolled_back is not None:
            shutil.rmtree(self.root)
            shutil.copytree(self.template, self.root, symlinks=True)
            case.rolled_back(self.root)
            self.ids.reset()
            with self.faults.armed_at(None):
                self._run(None)
            self.rolled_back = snapshot(self.root)

    def _fresh(self) -> MemoryStore | None:
        """The template's tree at ``root`` again, and a store loaded on it (None when the
        case loads it under the faults)."""
        shutil.rmtree(self.root, ignore_errors=True)
        shutil.copytree(self.template, self.root, symlinks=True)
        self.ids.reset()
        if self.case.load_inside:
            return None
        s = MemoryStore(self.root, hold_index=True)
        s.workspaces()
        return s

    def _run(self, s: MemoryStore | None) -> MemoryStore:
        if s is None:
            s = MemoryStore(self.root, hold_index=True)
        self.case.run(s)
        return s

    def fail(self, at: int, err: int) -> list[str]:
        """Run the change with call ``at`` failing with ``err``: what went wrong (none: fine)."""
        return self.attempt(lambda: self.faults.armed_at(at, err))

    def attempt(self, fault: Callable[[], AbstractContextManager[object]]) -> list[str]:
        """Run the change from the template's tree inside ``fault()``: what went wrong."""
        s = self._fresh()
        refused: CouldNotChange | None = None
        self.last_refused = None
        with fault():
            try:
                s = self._run(s)
            except CouldNotChange as exc:
                refused = exc
            except Exception as exc:  # noqa: BLE001 (a finding, reported below)
                return [f"raised {type(exc).__name__}: {exc}"]
        self.last_refused = refused
        problems: list[str] = []
        if refused is not None and not (str(refused).startswith(PREFIX) and str(refused).endswith(".")):
            problems.append(f"refused with {refused}")
        after = settled(snapshot(self.root))
        if refused is None:
            if self._untrimmed(after) != self.clean and after != self.rolled_back:
                problems.append(f"completed, but not as a clean run:\n{diff(after, self.clean)}")
        elif self.case.recovery:
            bystander = f"global/{B}.md"
            if after.get(bystander) != self.before.get(bystander):
                problems.append(f"refused, yet its change was made ({refused})")
        elif self._outside_kept(after) != self.before:
            problems.append(f"refused ({refused}), but not as before:\n{diff(after, self.before)}")
        problems += [
            f"{i} is in {', '.join(sets)}" for i, sets in ids_in_sets(self.root).items() if len(sets) > 1
        ]
        if problems:
            return problems
        return self._afterwards(s, refused)

    def _untrimmed(self, tree: dict[str, Entry]) -> dict[str, Entry]:
        """``tree`` without the versions the clean run trimmed: a change in place is not
        refused when its trim fails; the memory's next change trims them."""
        return {
            rel: entry
            for rel, entry in tree.items()
            if not (_is_version(rel) and rel not in self.clean and self.before.get(rel) == entry)
        }

    def _outside_kept(self, tree: dict[str, Entry]) -> dict[str, Entry]:
        """``tree`` without the version of an outside edit, as the clean run kept it: keeping
        another program's save is not part of the change that was refused."""
        return {
            rel: entry
            for rel, entry in tree.items()
            if not (_is_version(rel, "-external") and rel not in self.before and self.clean.get(rel) == entry)
        }

    def _afterwards(self, s: MemoryStore | None, refused: CouldNotChange | None) -> list[str]:
        """With the fault gone: the refused change succeeds as a clean run, the store's
        picture is the disk's, and the next store's first change tidies everything."""
        if refused is not None:
            self.ids.reset()
            try:
                s = self._run(s)
            except Exception as exc:  # noqa: BLE001
                return [f"refused ({refused}), then again without the fault: {exc}"]
            if self._untrimmed(settled(snapshot(self.root))) != self.clean:
                return [f"refused, then not a clean run:\n{diff(settled(snapshot(self.root)), self.clean)}"]
        assert s is not None
        s.refresh()  # what recovery put right under the picture, and ``write_fixed``
        fresh = MemoryStore(self.root, hold_index=True)
        if _picture(s) != _picture(fresh):
            return [f"the store's picture is not the disk's: {_picture(s)} != {_picture(fresh)}"]
        try:
            fresh.create(None, "Next", "the next change")
        except Exception as exc:  # noqa: BLE001
            return [f"the next change failed: {exc}"]
        left = tidied(snapshot(self.root))
        return [f"the next change left {left}"] if left else []
