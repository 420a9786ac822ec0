"""The fault harness's runners (see ``tests/harness/test_harness_faults.py`` for what is
promised): ``Harness`` for the store's changes, one kind of change from its template tree at
a time; ``check_writer`` for any other writer, given as a callable and the tree it writes in.

Adding a writer (``sync``, ``import --apply``, ``export -o``, the Problems screen's fix…)::

    from tests.support.fault_harness import Writer, check_writer

    def build(tree: Path) -> None:          # the starting tree, made the same way every time
        ...
    def run(tree: Path) -> object:          # one write in a copy of that tree
        return sync_targets.sync(tree / "project", ...)

    WRITER = Writer("sync", build, run, refused=is_sync_refusal)

    def test_sync_under_faults(scratch: Path, monkeypatch: pytest.MonkeyPatch, stress: int) -> None:
        tried, findings = check_writer(WRITER, scratch, monkeypatch, stress=stress > 1)
        assert not findings, ...

``refused(exc)`` says whether an exception is the writer's way of refusing (its message, for
the store "The memory could not be changed: <reason>."); anything else it raises is a finding.
A writer that reports a failure without raising (a cache, a setting saved by the way) sets
``quiet``: its tree may then stay as it was. See ``tests/support/fault_writers.py``.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from store import MemoryStore
from store.disk import swap
from store.errors import CouldNotChange
from tests.support.fault_cases import CASES, B, Case, pin
from tests.support.fault_cases import build as build_tree
from tests.support.faults import (
    Entry,
    Faults,
    Kind,
    Site,
    diff,
    distinct_sites,
    distinct_sites_of,
    ids_in_sets,
    plan,
    settled,
    site_keys,
    snapshot,
    tidied,
)

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
    """``rel`` is a kept version (of ``source``, also one numbered for a moment taken twice)."""
    in_history = rel.startswith("history/") and "/versions/" in rel
    return in_history and re.search(rf"{re.escape(source)}(-\d+)?\.md\Z", rel) is not None


def spec_refusal(exc: BaseException) -> bool:
    """True for the store's refusal in the spec's words."""
    text = str(exc)
    return isinstance(exc, CouldNotChange) and text.startswith(PREFIX) and text.endswith(".")


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
        self.sites = site_keys(self.faults)
        self.sampled = distinct_sites_of(self.sites)
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

    def plan(self, *, stress: bool, known: set[Site] | None = None) -> list[tuple[int, Kind]]:
        """The (call, fault) pairs to try (``faults.plan``); by default none at a place in
        ``known`` (one that another case tries)."""
        sampled = self.sampled if known is None else distinct_sites_of(self.sites, set(known))
        return plan(self.calls, sampled, stress=stress)

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

    def fail(self, at: int, kind: Kind) -> list[str]:
        """Run the change with call ``at`` failing with ``kind``: what went wrong (none: fine)."""
        return self.attempt(lambda: self.faults.armed_at(at, kind))

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
        if refused is not None and not spec_refusal(refused):
            problems.append(f"refused with {refused}")
        after = settled(snapshot(self.root))
        if refused is None:
            quietly = self.case.quiet and after == self.before
            if self._untrimmed(after) != self.clean and after != self.rolled_back and not quietly:
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
        kept = {
            rel
            for rel, entry in tree.items()
            if _is_version(rel, "-external") and rel not in self.before and self.clean.get(rel) == entry
        }
        # The folders made to hold it (a problem file had no history yet) go with it.
        folders = {str(parent) for rel in kept for parent in Path(rel).parents if str(parent) != "."}
        return {
            rel: entry
            for rel, entry in tree.items()
            if rel not in kept and not (rel in folders and rel not in self.before and rel in self.clean)
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


#: Each case's places (``Harness.sites``), kept for this process's later cases.
_SITES: dict[str, list[Site]] = {}


def tried_before(case: Case, scratch: Path) -> set[Site]:
    """The places where the cases before ``case`` (in ``CASES``' order) make calls: by
    default a place is tried by the first case that reaches it (the stress run tries all)."""
    known: set[Site] = set()
    for other in CASES[: CASES.index(case)]:
        if other.name not in _SITES:
            monkeypatch = pytest.MonkeyPatch()
            try:
                _SITES[other.name] = Harness(other, scratch / f"sites-of-{other.name}", monkeypatch).sites
            finally:
                monkeypatch.undo()
        known.update(_SITES[other.name])
    return known


def _nothing_tidied(tree: dict[str, Entry]) -> list[str]:
    return []


@dataclass(frozen=True)
class Writer:
    """A writer to hold to the harness's checks.

    ``build(tree)`` makes the starting tree in an empty folder (kept aside, and copied back
    to the same place for each run);
    ``run(tree)`` makes one write in a copy of it. ``refused(exc)``: whether an exception is
    the writer's way of saying it wrote nothing (anything else it raises is a finding).
    ``quiet``: the writer may end without raising and without writing (a cache, a setting
    saved by the way), so its tree may stay as it was. ``tidied(tree)``: what the writer's
    next run removes by itself (left out of every comparison).
    """

    name: str
    build: Callable[[Path], None]
    run: Callable[[Path], object]
    refused: Callable[[BaseException], bool] = spec_refusal
    quiet: bool = False
    tidied: Callable[[dict[str, Entry]], list[str]] = field(default=_nothing_tidied)


def check_writer(
    writer: Writer, scratch: Path, monkeypatch: pytest.MonkeyPatch, *, stress: bool
) -> tuple[int, list[str]]:
    """Run ``writer`` once clean, then once per (call, fault) of ``faults.plan`` from the same
    tree. After each: completed as the clean run, or refused (``writer.refused``) with the tree
    as before, apart from ``writer.tidied``; and without the fault the write then succeeds as
    the clean run. Returns how many cases were tried, and what went wrong."""
    template, tree = scratch / f"{writer.name}-template", scratch / writer.name
    tree.mkdir()
    writer.build(tree)  # where it runs: a path written into a file stays true
    tree.rename(template)
    faults = Faults()
    faults.install(monkeypatch)

    def fresh() -> None:
        shutil.rmtree(tree, ignore_errors=True)
        shutil.copytree(template, tree, symlinks=True)

    def settle(found: dict[str, Entry]) -> dict[str, Entry]:
        drop = set(writer.tidied(found))
        return {rel: entry for rel, entry in found.items() if rel not in drop}

    fresh()
    before = snapshot(tree)
    with faults.armed_at(None):
        writer.run(tree)
    clean = snapshot(tree)
    assert settle(clean) == clean, f"a clean run of {writer.name} leaves {writer.tidied(clean)}"
    calls, sampled = list(faults.calls), distinct_sites(faults)
    findings: list[str] = []
    pairs = plan(calls, sampled, stress=stress)
    for at, kind in pairs:
        for problem in _writer_case(writer, tree, faults, at, kind, fresh, settle, (before, clean)):
            findings.append(f"{writer.name}: call {at} ({calls[at - 1]}) failing with {kind.name}: {problem}")
    return len(pairs), findings


def _writer_case(
    writer: Writer,
    tree: Path,
    faults: Faults,
    at: int,
    kind: Kind,
    fresh: Callable[[], None],
    settle: Callable[[dict[str, Entry]], dict[str, Entry]],
    trees: tuple[dict[str, Entry], dict[str, Entry]],
) -> list[str]:
    before, clean = trees
    fresh()
    refused: BaseException | None = None
    with faults.armed_at(at, kind):
        try:
            writer.run(tree)
        except Exception as exc:  # noqa: BLE001 (a finding unless it is a refusal)
            if not writer.refused(exc):
                return [f"raised {type(exc).__name__}: {exc}"]
            refused = exc
    after = settle(snapshot(tree))
    if refused is not None and after != before:
        return [f"refused ({refused}), but not as before:\n{diff(after, before)}"]
    if refused is None and after != clean and not (writer.quiet and after == before):
        return [f"completed, but not as a clean run:\n{diff(after, clean)}"]
    if after != clean:
        try:
            writer.run(tree)
        except Exception as exc:  # noqa: BLE001
            return [f"then again without the fault: {type(exc).__name__}: {exc}"]
        if settle(snapshot(tree)) != clean:
            return [f"then again without the fault, not a clean run:\n{diff(snapshot(tree), clean)}"]
    return []
