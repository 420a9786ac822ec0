"""The starting trees and the changes the fault harness runs, one ``Case`` per kind of change.

Every tree is built by the store itself (with a clock that ticks and ids that are counted, so
two builds are byte for byte the same), then each case adds what its change needs: a problem
file, an outside edit, or what a killed writer leaves behind.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import store.durable.commit
import store.durable.leftovers
import store.memory_store
import store.write.transaction
from store import MemoryStore
from store.disk.layout import history_dir
from store.durable import history
from store.durable.commit import staged_path
from store.format.fields import Fields
from store.format.render import render_new

A, B, D, W = "a0000001", "a0000002", "a0000003", "a0000004"
PROBLEM = "b0000001"
#: The problem file's bytes, as the Problems screen shows them.
BROKEN = b"---\ntitle: [unclosed\n---\n\nbroken\n"
START = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
#: The moment every harnessed change runs at (after everything the tree was built with).
LATER = START + timedelta(days=1)


class Clock:
    """The store's clock: ticks a second at each look while a tree is built, then stands still."""

    def __init__(self) -> None:
        self.moment = START
        self.ticking = True

    def __call__(self) -> datetime:
        if self.ticking:
            self.moment += timedelta(seconds=1)
            return self.moment
        return LATER


class Ids:
    """``secrets`` for ``store.write.transaction``: new ids counted from ``c0000001`` (``reset``)."""

    def __init__(self) -> None:
        self.next = 1

    def reset(self) -> None:
        self.next = 1

    def token_hex(self, _nbytes: int) -> str:
        self.next += 1
        return f"c{self.next - 1:07x}"


def pin(monkeypatch: pytest.MonkeyPatch) -> tuple[Clock, Ids]:
    """Make the store's clock and new ids repeatable for this test."""
    clock, ids = Clock(), Ids()
    monkeypatch.setattr(store.memory_store, "now_utc", clock)
    monkeypatch.setattr(store.durable.commit, "now_utc", clock)
    monkeypatch.setattr(store.durable.leftovers, "now_utc", clock)
    monkeypatch.setattr(store.write.transaction, "secrets", ids)
    return clock, ids


def _named(s: MemoryStore, scope: str | None, wanted: str, title: str, text: str) -> None:
    """Create a memory and rename its file and history to the id ``wanted``."""
    made = s.create(scope, title, text)
    s.memory_path(scope, made.id).rename(s.memory_path(scope, wanted))
    history_dir(s.root, scope, made.id).rename(history_dir(s.root, scope, wanted))
    s.refresh()


def build(root: Path) -> None:
    """The tree every case starts from: in global A (an older text, then a chat's change),
    B (a bystander), D (deleted, waiting to be restored) and a problem file; W in ``ws``."""
    s = MemoryStore(root, hold_index=True)
    _named(s, None, A, "Alpha", "one")
    s.change(None, A, text="two", via="chat")
    _named(s, None, B, "Bravo", "bystander")
    _named(s, None, D, "Delta", "deleted text")
    s.delete(None, D)
    _named(s, "ws", W, "Whiskey", "in a workspace")
    (root / "global" / f"{PROBLEM}.md").write_bytes(BROKEN)


def _memory_bytes(title: str, text: str) -> bytes:
    return render_new(Fields(title=title, enabled=True, source="user", updated=LATER), text).encode()


def _outside_edit(root: Path) -> None:
    path = root / "global" / f"{A}.md"
    path.write_bytes(path.read_bytes().replace(b"\ntwo\n", b"\nsaved by another program\n"))


def _problem_saved_outside(root: Path) -> None:
    """Another program saved the problem file, as a memory, since the Problems screen showed it."""
    (root / "global" / f"{PROBLEM}.md").write_bytes(_memory_bytes("Saved outside", "their text"))


def _part(root: Path) -> None:
    (root / "global" / f".{A}.md.0123abcd.part").write_bytes(b"---\ntitle: Alp")


def _staged_own(root: Path) -> None:
    """A change killed after its version was written, before its file was swapped in."""
    data = _memory_bytes("Alpha", "three")
    hdir = history_dir(root, None, A)
    history.write_version(
        root, hdir, moment=START + timedelta(hours=1), source="chat", title="Alpha", text="three",
        memory_source="user",
    )  # fmt: skip
    staged_path(root / "global" / f"{A}.md", data).write_bytes(data)


def _staged_theirs(root: Path) -> None:
    """What a swap handed back (another program's save) before the writer could keep it."""
    (root / "global" / f".{A}.md.0123456789abcdef.new").write_bytes(_memory_bytes("Alpha", "theirs"))


def _history_temp(root: Path) -> None:
    (history_dir(root, None, A) / "versions" / ".version.0123abcd.tmp").write_bytes(b"half a ver")


def _move_written(root: Path) -> None:
    """A move killed after the target file was written, before the history followed."""
    (root / ".move.json").write_text(json.dumps({"from": None, "id": A, "to": "ws", "new_id": A}))
    (root / "workspaces" / "ws" / f"{A}.md").write_bytes((root / "global" / f"{A}.md").read_bytes())


def _move_not_begun(root: Path) -> None:
    """What ``_move_written`` left, rolled back: no record, no target file."""
    (root / ".move.json").unlink()
    (root / "workspaces" / "ws" / f"{A}.md").unlink()


def _move_intent(root: Path) -> None:
    """A move killed right after its record was written."""
    (root / ".move.json").write_text(json.dumps({"from": None, "id": A, "to": "ws", "new_id": A}))


def _move_temp(root: Path) -> None:
    (root / "..move.json.0123abcd.tmp").write_bytes(b'{"from": nu')


Change = Callable[[MemoryStore], object]


@dataclass(frozen=True)
class Case:
    """One kind of change: what it does, and what the tree needs first."""

    name: str
    run: Change
    prepare: Callable[[Path], None] | None = None
    #: Recovery: the change's own write is to the bystander; what it puts right may stop
    #: halfway (each step can be taken again), so only the end result is compared.
    recovery: bool = False
    #: The store is opened inside the faults (recovery of a move also runs when it loads).
    load_inside: bool = False
    #: As on a system without ``renameat2``: a hard link, or a look right before a rename.
    without_renameat2: bool = False
    #: A move that cannot be finished may be rolled back instead: this turns the prepared tree
    #: into the one the move started from (the change's own write is then made on it).
    rolled_back: Callable[[Path], None] | None = None
    #: Calls the clean run must make (the harness sees what it fails), by their ``os`` name
    #: (``openat`` counts as ``open``).
    expects: frozenset[str] = frozenset({"open", "read"})
    #: The change may end without writing and without refusing (the parse index: a cache).
    quiet: bool = False


def _write_index(s: MemoryStore) -> None:
    """The parse index written by its own thread (the harness counts and fails its calls)."""
    s.write_index_now()
    writer = s._index_writer
    assert writer is not None
    writer.join()


def _fixed(s: MemoryStore) -> None:
    s.write_fixed(s.memory_path(None, PROBLEM), _memory_bytes("Fixed", "fixed by hand"), seen=BROKEN)


#: A's first version: created at the clock's first tick (the clean run fails if it is not).
OLDEST = "20260102T030406000Z-settings"


def _oldest(s: MemoryStore) -> object:
    return s.restore_version(None, A, OLDEST)


def _bystander(s: MemoryStore) -> object:
    return s.set_enabled(None, B, False)


_WRITES = frozenset({"open", "read", "write", "fsync", "replace", "unlink"})

CASES = [
    Case("create", lambda s: s.create(None, "New", "a new memory"), expects=_WRITES | {"mkdir", "renameat2"}),
    Case(
        "create_without_renameat2",
        lambda s: s.create(None, "New", "a new memory"),
        without_renameat2=True,
        expects=_WRITES | {"mkdir", "link"},
    ),
    Case("create_in_new_workspace", lambda s: s.create("fresh", "New", "in a new workspace")),
    Case("change", lambda s: s.change(None, A, text="three"), expects=_WRITES | {"renameat2"}),
    Case(
        "change_without_renameat2",
        lambda s: s.change(None, A, text="three"),
        without_renameat2=True,
        expects=_WRITES | {"link"},
    ),
    Case("change_after_outside_edit", lambda s: s.change(None, A, text="three"), _outside_edit),
    Case("set_enabled", lambda s: s.set_enabled(None, A, False)),
    Case("edit", lambda s: s.edit(None, A, title="Alpha two", text="three", enabled=False)),
    Case(
        "change_frontmatter",
        lambda s: s.change_frontmatter(None, A, "title: Renamed\nenabled: true\nsource: user"),
    ),
    Case("keep_outside_edit", lambda s: s.keep_outside_edit(None, A), _outside_edit),
    Case("delete", lambda s: s.delete(None, A)),
    Case("delete_problem_file", lambda s: s.delete(None, PROBLEM)),
    Case("restore", lambda s: s.restore_deleted(None, D)),
    Case(
        "purge", lambda s: s.purge_deleted(None, D), expects=frozenset({"open", "rename", "rmdir", "unlink"})
    ),
    Case("move", lambda s: s.move(None, A, "ws")),
    Case("move_to_new_workspace", lambda s: s.move(None, A, "fresh")),
    Case("move_to_global", lambda s: s.move("ws", W, None)),
    Case("undo", lambda s: s.undo(None, A)),
    Case("restore_version", _oldest),
    Case("write_fixed", _fixed, expects=frozenset({"open", "write", "fsync", "replace"})),
    Case("write_fixed_over_an_outside_save", _fixed, _problem_saved_outside),
    Case("recover_part", _bystander, _part, recovery=True),
    Case("recover_own_new", _bystander, _staged_own, recovery=True),
    Case("recover_their_new", _bystander, _staged_theirs, recovery=True),
    Case("recover_history_temp", _bystander, _history_temp, recovery=True),
    Case(
        "recover_move_written",
        _bystander,
        _move_written,
        recovery=True,
        load_inside=True,
        rolled_back=_move_not_begun,
    ),
    Case("recover_move_intent", _bystander, _move_intent, recovery=True, load_inside=True),
    Case("recover_move_temp", _bystander, _move_temp, recovery=True),
    Case("write_parse_index", _write_index, quiet=True, expects=frozenset({"open", "write", "replace"})),
]
