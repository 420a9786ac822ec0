"""Crash harness: a writer process is SIGKILLed at random moments, again and again. Afterwards
every file parses, no temp file passes for a memory, and every change the writer saw accepted
is in its file or its history. (``--stress`` kills it ten times as often.)"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from store import MemoryStore
from store.durable.history import READ_LIMITS
from store.format.parse import Document, parse_bytes

#: Among the suite's longest: started first (see ``tests/conftest.py``).
pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
KILLS = 50


def _lines(log: Path) -> int:
    try:
        return log.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def _wait_for_lines(log: Path, wanted: int, proc: subprocess.Popen[bytes], guard: float = 300.0) -> None:
    """Wait until the writer's log has ``wanted`` lines (a generous hang guard, no timing)."""
    deadline = time.monotonic() + guard
    while _lines(log) < wanted:
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise AssertionError(f"the writer died by itself: {err}")
        assert time.monotonic() < deadline, "the writer made no progress"
        time.sleep(0.005)


def test_sigkilled_writer_loses_nothing(tmp_path: Path, root: Path, stress: int) -> None:
    root.mkdir(mode=0o700)
    (root / "settings.yaml").write_text("versions_kept: 100\n")
    log = tmp_path / "accepted.jsonl"
    kills = _kill_a_writer_again_and_again(root, log, KILLS * stress)
    assert kills >= 50
    entries = _accepted(log)
    assert len(entries) > kills, "the writer hardly wrote anything between kills"
    _assert_every_file_parses(root)
    store = MemoryStore(root)
    _assert_nothing_half_written_passes(store)
    _assert_every_accepted_state_is_kept(store, entries)
    _assert_the_next_change_leaves_no_temp_file(root, store)


def _kill_a_writer_again_and_again(root: Path, log: Path, times: int) -> int:
    """Start the writer and SIGKILL it at a random moment inside a change, ``times`` times."""
    rng = random.Random(1234)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    kills = 0
    for seed in range(times):
        written = _lines(log)
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.support.writer", str(root), str(log), str(seed)],
            cwd=REPO,
            env=env,
            stderr=subprocess.PIPE,
        )
        # Evidence of progress, not a fixed time: a few more accepted changes in the log (so
        # a loaded machine is waited for), then a random moment inside the next one.
        _wait_for_lines(log, written + rng.randint(1, 4), proc)
        time.sleep(rng.random() * 0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        if proc.stderr:
            proc.stderr.close()
        kills += 1
    return kills


def _accepted(log: Path) -> list[dict[str, Any]]:
    """The changes the writer saw accepted (the last line may be torn by a kill: its change
    was never "seen accepted")."""
    entries = []
    for line in log.read_text().splitlines():
        try:
            entries.append(json.loads(line))
        except ValueError:
            pass
    return entries


def _assert_every_file_parses(root: Path) -> None:
    memory_files = list(root.glob("global/*.md")) + list(root.glob("workspaces/*/*.md"))
    for path in memory_files:
        assert isinstance(parse_bytes(path.read_bytes(), READ_LIMITS), Document), path
    version_files = list(root.glob("history/**/versions/*.md"))
    assert version_files
    for path in version_files:
        assert isinstance(parse_bytes(path.read_bytes(), READ_LIMITS), Document), path


def _assert_nothing_half_written_passes(store: MemoryStore) -> None:
    """Nothing half-written passes for a memory or a problem."""
    assert store.problems() == []
    for scope in [None, *store.workspaces()]:
        for m in store.memories(scope):
            assert m.path.name == f"{m.id}.md"
    assert all(not i.path.name.endswith(".md") or i.path.name.startswith(".") for i in store.ignored())


def _assert_every_accepted_state_is_kept(store: MemoryStore, entries: list[dict[str, Any]]) -> None:
    """Every accepted title and text is the file's or in its history (the last 100 of each)."""
    by_memory: dict[tuple[str | None, str], list[tuple[str, str]]] = {}
    for e in entries:
        if e["op"] in ("create", "change", "restore"):
            by_memory.setdefault((e["scope"], e["id"]), []).append((e["title"], e["text"]))
    checked = 0
    for (scope, memory_id), states in by_memory.items():
        kept = {(v.title, v.text) for v in store.versions(scope, memory_id)}
        path = store.memory_path(scope, memory_id)
        if path.exists():
            doc = parse_bytes(path.read_bytes(), READ_LIMITS)
            assert isinstance(doc, Document)
            kept.add((doc.fields.title, doc.text))
        for state in list(dict.fromkeys(states))[-100:]:
            assert state in kept, (scope, memory_id, state)
            checked += 1
    assert checked > 0


def _assert_the_next_change_leaves_no_temp_file(root: Path, store: MemoryStore) -> None:
    """What the killed writers left is put right by the next change: no temp file remains."""
    store.create(None, "After the kills", "one more change")
    leftovers = [
        p
        for p in root.rglob(".*")
        if p.is_file() and p.name != ".lock" and p.name.endswith((".part", ".new", ".tmp"))
    ]
    assert leftovers == []
