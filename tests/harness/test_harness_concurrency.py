"""Concurrency harness: four processes change the same memories at once (versions_kept 100).
No change is lost, no version is duplicated, and the only exceptions are the spec's refusals."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from store import GLOBAL, MemoryStore

#: Among the suite's longest: started first (see ``tests/conftest.py``).
pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
PROCESSES = 4

_CHANGER = """
import json, sys
from store import MemoryStore, StoreError
root, proc, ids, rounds = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(","), int(sys.argv[4])
store = MemoryStore(root)
for i in range(rounds):
    memory_id = ids[(i + proc) % len(ids)]
    text = f"process {proc} change {i}"
    try:
        store.change(None, memory_id, text=text, via="chat")
    except StoreError as exc:
        print(json.dumps({"refused": str(exc)}), flush=True)
        continue
    except BaseException as exc:
        print(json.dumps({"error": repr(exc)}), flush=True)
        raise
    print(json.dumps({"id": memory_id, "text": text}), flush=True)
"""


def test_four_processes_lose_no_change(root: Path, stress: int) -> None:
    root.mkdir(mode=0o700)
    (root / "settings.yaml").write_text("versions_kept: 100\n")
    store = MemoryStore(root)
    # 18 changes per process and 3 memories (x stress): about 25 versions each, under the 100 kept.
    ids = [store.create(GLOBAL, f"Shared {n}", f"Start {n}").id for n in range(3 * stress)]
    rounds = 18 * stress
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _CHANGER, str(root), str(p), ",".join(ids), str(rounds)],
            cwd=REPO,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for p in range(PROCESSES)
    ]
    accepted: dict[str, list[str]] = {i: [] for i in ids}
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        for line in out.splitlines():
            record = json.loads(line)
            assert "error" not in record, record
            assert "refused" not in record, record  # no limit is near: nothing to refuse
            accepted[record["id"]].append(record["text"])
    assert sum(map(len, accepted.values())) == PROCESSES * rounds

    store.refresh()
    for memory_id, texts in accepted.items():
        versions = store.versions(GLOBAL, memory_id)
        names = [v.name for v in versions]
        contents = [(v.title, v.text) for v in versions]
        assert len(names) == len(set(names)), "a version name was used twice"
        assert len(contents) == len(set(contents)), "a version was kept twice"
        kept = {v.text for v in versions}
        missing = [t for t in texts if t not in kept]
        assert not missing, missing
        # The file holds the newest version.
        assert store.get(GLOBAL, memory_id).text == versions[0].text
