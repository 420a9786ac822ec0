"""Race harness: another program saving by temp file + rename while the store changes the same
memory, and a mover killed again and again in the middle of moves. (``--stress``: ten times.)

Bounded in time: every wait is for evidence of progress, with a generous hang guard only."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest

import store.disk.swap as swap
from store import GLOBAL, MemoryStore
from store.format.parse import Document, parse_bytes

#: Among the suite's longest: started first (see ``tests/conftest.py``).
pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
GUARD = 300.0  # seconds: only a hang guard, never a measure of speed

_OUTSIDE_WRITER = """
import os, random, sys, time
path, log, stop, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
rng = random.Random(seed)
mine = None
n = 0
with open(log, "a") as out:
    while not os.path.exists(stop):
        try:
            with open(path, "rb") as f:
                now = f.read()
        except FileNotFoundError:
            now = None
        if now == mine:  # the store has not replaced our last save yet: never overwrite it
            time.sleep(0.0005)
            continue
        time.sleep(rng.random() * 0.004)  # land anywhere in the store's next change
        n += 1
        text = f"outside {seed}-{n}"
        mine = f"---\\ntitle: Raced\\nenabled: true\\nsource: user\\n---\\n\\n{text}\\n".encode()
        tmp = f"{path}.{n}.swp"
        with open(tmp, "wb") as f:
            f.write(mine)
        os.replace(tmp, path)
        out.write(text + "\\n")
        out.flush()
"""


def _lines(path: Path) -> list[str]:
    try:
        return path.read_text().splitlines()
    except FileNotFoundError:
        return []


def _logged(log: Path, lines: int) -> bool:
    """The log holds at least ``lines`` lines."""
    return len(_lines(log)) >= lines


def _wait(condition: Callable[[], bool], proc: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + GUARD
    while not condition():
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise AssertionError(f"{what} died by itself: {err}")
        assert time.monotonic() < deadline, f"{what} made no progress"
        time.sleep(0.002)


@pytest.mark.skipif(not swap.exchange_available(), reason="renameat2 is not available on this system")
def test_an_outside_program_saving_by_rename_loses_nothing(tmp_path: Path, root: Path, stress: int) -> None:
    root.mkdir(mode=0o700)
    (root / "settings.yaml").write_text("versions_kept: 100\n")
    store = MemoryStore(root)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    externals = 0
    for seed in range(stress):
        memory = store.create(GLOBAL, "Raced", f"start {seed}")
        log, stop = tmp_path / f"outside-{seed}.log", tmp_path / f"stop-{seed}"
        proc = subprocess.Popen(
            [sys.executable, "-c", _OUTSIDE_WRITER, memory.path, str(log), str(stop), str(seed)],
            env=env,
            stderr=subprocess.PIPE,
        )
        _wait(partial(_logged, log, 1), proc, "the outside writer")
        # 40 changes: at most two versions each (the store's, and an outside save it replaced).
        for n in range(40):
            store.change(GLOBAL, memory.id, text=f"store {seed}-{n}")
        stop.touch()
        proc.communicate(timeout=GUARD)
        assert proc.returncode == 0
        saved = _lines(log)
        assert saved, "the outside writer saved nothing"
        versions = store.versions(GLOBAL, memory.id)
        kept = {v.text for v in versions}
        current = parse_bytes(Path(memory.path).read_bytes(), store.limits)
        assert isinstance(current, Document)
        kept.add(current.text)
        # Every outside save was replaced by the store (the writer never overwrites its own),
        # so each must be current or kept as a version.
        lost = [text for text in saved if text not in kept]
        assert lost == [], f"outside saves lost: {lost}"
        assert {f"store {seed}-{n}" for n in range(40)} <= kept
        externals += sum(v.source == "external" for v in versions)
    assert externals > 0


_MOVER = """
import json, os, random, sys
from store import MemoryStore, StoreError
root, log, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = random.Random(seed)
store = MemoryStore(root)
out = open(log, "a")
while True:
    scope = rng.choice([None, "ws"])
    target = "ws" if scope is None else None
    ids = [m.id for m in store.memories(scope)]
    if not ids:
        continue
    memory_id = rng.choice(ids)
    try:
        moved = store.move(scope, memory_id, target)
    except StoreError:
        store.refresh()
        continue
    out.write(json.dumps({"from": scope, "id": memory_id, "to": target, "new": moved.id}) + "\\n")
    out.flush()
"""


def test_a_mover_killed_again_and_again_leaves_each_memory_in_one_place(
    tmp_path: Path, root: Path, stress: int
) -> None:
    root.mkdir(mode=0o700)
    store = MemoryStore(root)
    texts = {f"memory {n}" for n in range(8)}
    for n, text in enumerate(sorted(texts)):
        store.create(GLOBAL if n % 2 else "ws", f"Title {n}", text)
        store.change(
            GLOBAL if n % 2 else "ws", store.memories(GLOBAL if n % 2 else "ws")[-1].id, title=f"T{n}"
        )
    log = tmp_path / "moves.log"
    rng = random.Random(99)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    for seed in range(20 * stress):
        done = len(_lines(log))
        proc = subprocess.Popen(
            [sys.executable, "-c", _MOVER, str(root), str(log), str(seed)],
            env=env,
            stderr=subprocess.PIPE,
        )
        wanted = done + rng.randint(1, 3)
        _wait(partial(_logged, log, wanted), proc, "the mover")
        time.sleep(rng.random() * 0.01)  # a random point inside the next move
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        if proc.stderr:
            proc.stderr.close()
    assert len(_lines(log)) >= 20 * stress
    assert all(json.loads(line) for line in _lines(log)[:-1])

    after = MemoryStore(root)  # a start finishes (or forgets) the move a kill interrupted
    found = [(m.scope, m.id, m.text) for scope in (None, "ws") for m in after.memories(scope)]
    assert sorted(t for _s, _i, t in found) == sorted(texts), found
    ids = [(i) for _s, i, _t in found]
    assert len(ids) == len(set(ids)), "an id is in two sets"
    for scope, memory_id, text in found:
        history = after.versions(scope, memory_id)
        assert text in {v.text for v in history}, (scope, memory_id)  # its history came along
    assert not (root / ".move.json").exists()
    assert after.problems() == []
    chat = after.chat_memory("ws").text
    assert all(chat.count(f"\n{text}\n") == 1 for text in texts)
