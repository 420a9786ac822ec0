"""Store measurements: each is a median of several runs, and every ratio compares numbers
taken in the same run (so they hold on any machine, busy or not)."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from store import GLOBAL, MemoryStore
from store.read import parse_index


def median_time(fn: Callable[[], Any], runs: int, setup: Callable[[], Any] | None = None) -> float:
    """The median wall time of ``fn`` over ``runs`` runs (``setup`` runs untimed before each)."""
    times = []
    for _ in range(runs):
        if setup is not None:
            setup()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def memory_files(root: Path) -> list[str]:
    """Every candidate memory file, listed the plain way."""
    files = [e.path for e in os.scandir(root / "global") if e.name.endswith(".md")]
    for ws in os.scandir(root / "workspaces"):
        files += [e.path for e in os.scandir(ws.path) if e.name.endswith(".md")]
    return files


def floor(root: Path) -> int:
    """The floor: list the folders and read every file's bytes, in plain Python."""
    total = 0
    for path in memory_files(root):
        with open(path, "rb") as f:
            total += len(f.read())
    return total


def floor_raw(root: Path) -> int:
    """A lower floor, for reference: the same with bare os.open/os.read/os.close."""
    total = 0
    for path in memory_files(root):
        fd = os.open(path, os.O_RDONLY)
        try:
            total += len(os.read(fd, 65537))
        finally:
            os.close(fd)
    return total


def peer(root: Path) -> int:
    """What a user would otherwise script: python-frontmatter on every file."""
    import frontmatter

    parsed = 0
    for path in memory_files(root):
        with open(path, "rb") as f:
            raw = f.read()
        try:
            frontmatter.loads(raw.decode("utf-8"))
            parsed += 1
        except Exception:  # noqa: BLE001 - a problem file: the peer just fails on it
            pass
    return parsed


def load_all(root: Path, *, join_index: bool = False) -> MemoryStore:
    """A start: open the store, then every scope's memories and the problems."""
    s = MemoryStore(root)
    for scope in [GLOBAL, *s.workspaces()]:
        s.memories(scope)
    s.problems()
    if join_index and s._index_writer is not None:
        s._index_writer.join()
    return s


def drop_index(root: Path) -> None:
    parse_index.remove(root)


def ensure_index(root: Path) -> None:
    load_all(root, join_index=True)
    if parse_index.load(root, MemoryStore(root).limits) is None:
        raise RuntimeError("the parse index was not written")


def stale_index(root: Path) -> None:
    """A parse index that holds no file as it is now: written, then every memory file's stat
    changed (its ctime, as a copy, a restore or a new checkout changes it, with the inode)."""
    ensure_index(root)
    for path in memory_files(root):
        os.chmod(path, os.stat(path).st_mode & 0o7777)
    # The first read after a change of ctime also updates each file's atime (relatime): done
    # here, so that the load measured pays for the index, not for the kernel's bookkeeping.
    floor(root)


def refresh_one(root: Path, runs: int) -> float:
    """refresh([one path]) after one file changed on disk (the store already loaded)."""
    s = load_all(root, join_index=True)
    scope = s.workspaces()[0]
    memory = s.memories(scope)[0]
    raw = memory.path.read_bytes()
    times = []
    for i in range(runs):
        memory.path.write_bytes(raw.replace(b"\n---\n", f"\n---\nEdit {i}.\n".encode(), 1))
        start = time.perf_counter()
        changed = s.refresh([memory.path])
        times.append(time.perf_counter() - start)
        assert changed == {memory.path}, changed
    memory.path.write_bytes(raw)
    s.refresh([memory.path])
    return statistics.median(times)


def writes(root: Path, runs: int) -> tuple[float, float]:
    """create and change (each saving a version in history), on a loaded store."""
    s = load_all(root, join_index=True)
    scope = s.workspaces()[-1]
    created: list[str] = []
    create_times, change_times = [], []
    for i in range(runs):
        start = time.perf_counter()
        m = s.create(scope, f"Benchmark memory {i}", f"Text number {i}.", enabled=False)
        create_times.append(time.perf_counter() - start)
        created.append(m.id)
    for i, memory_id in enumerate(created):
        start = time.perf_counter()
        s.change(scope, memory_id, text=f"Changed text {i}.")
        change_times.append(time.perf_counter() - start)
    for memory_id in created:
        s.delete(scope, memory_id)
        # leave no trace in the generated store beyond history (next runs see the same files)
    return statistics.median(create_times), statistics.median(change_times)


def hygiene(root: Path, runs: int) -> tuple[float, int, int]:
    """Duplicates and similar memories over the whole store (what the review screen shows),
    computed afresh each run; also how many groups of each were found."""
    from store.checks.duplicates import find_duplicates, find_similar

    s = load_all(root, join_index=True)
    data = {scope: s.memories(scope) for scope in [GLOBAL, *s.workspaces()]}
    dups, similar = find_duplicates(data), find_similar(data)
    return median_time(lambda: (find_duplicates(data), find_similar(data)), runs), len(dups), len(similar)


def chat_memory(root: Path, workspace: str, runs: int) -> tuple[float, int]:
    s = load_all(root, join_index=True)
    tokens = s.chat_memory(workspace).tokens
    return median_time(lambda: s.chat_memory(workspace), runs), tokens


_RSS_SCRIPT = """
import resource, sys
from store import GLOBAL, MemoryStore


def peak_kb():
    # ru_maxrss survives fork and exec on Linux (a child of a big parent starts "big"), so
    # prefer the kernel's high-water mark of this very process when there is one.
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


before = peak_kb()
s = MemoryStore(sys.argv[1])
n = sum(len(s.memories(scope)) for scope in [GLOBAL, *s.workspaces()])
s.problems()
if s._index_writer is not None:
    s._index_writer.join()
print(before, peak_kb(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, n)
"""


def peak_rss(root: Path) -> dict[str, float]:
    """Peak RSS of a fresh process that loads the whole store (cold: no index), in MB."""
    drop_index(root)
    out = subprocess.run(
        [sys.executable, "-c", _RSS_SCRIPT, str(root)],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parent.parent,
    ).stdout.split()
    before, after, maxrss, _n = (int(x) for x in out)
    return {"peak_mb": after / 1024, "baseline_mb": before / 1024, "ru_maxrss_mb": maxrss / 1024}


def machine() -> dict[str, Any]:
    import platform

    info: dict[str, Any] = {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
    }
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    info["cpu"] = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        info["load_average"] = os.getloadavg()
    except OSError:
        pass
    return info


def dump(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, default=str) + "\n")
