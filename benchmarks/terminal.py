"""First paint as a person sees it: the real ``oda-tui`` process started in a pseudo-terminal,
timed until two known memory titles are on the screen (the list's first row, and a row further
down the first screen), beside a bare Textual app that shows one Label, started and timed the
same way in the same run.

Each store is measured cold (no parse index at any start), warm (the parse index present) and,
at 10,000 memories, with a stale index (every file's stat changed since it was written, as after
a copy or a restore), and ``oda-tui --demo`` beside the same sample store opened with ``--root``;
every number is a median. The CPU time of each process (its own and its children's, up to the moment the screen
showed what was awaited) is measured beside the wall time: a busy machine disturbs it less.
"""

from __future__ import annotations

import os
import re
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from .generate import generate
from .measure import drop_index, ensure_index, stale_index

#: (memories, workspaces) of the stores measured.
STORES = ((10, 1), (10000, 100))
#: What a person waits for over a bare Textual app, by store size (seconds), cold and warm.
TARGETS = {10: 0.2, 10000: 0.4}
#: From this size on, a start with a stale parse index (every file's stat changed, as after a
#: copy or a restore) is measured too: it must be no slower than a cold one.
STALE_FROM = 1000
COLUMNS, LINES = 120, 40
TIMEOUT_S = 60.0

#: The first row's title: short enough for the list's title column at 120 columns, so what is
#: timed is the list showing it (a longer title is cut there, "Benchmark marker ti…", and only
#: the editor would show it whole, a frame later).
MARKER_TITLE = "Marker memory"
#: A title that sorts to ``LATER_ROW`` of the list (or its last row, in a smaller Global): a
#: start is timed until it is drawn too, so what is timed is the first screen, not one row.
LATER_TITLE = "Later row memory"
LATER_ROW = 25
BARE_LABEL = "Bare Textual label"
BARE_APP = f"""
from textual.app import App
from textual.widgets import Label

class Bare(App):
    def compose(self):
        yield Label({BARE_LABEL!r})

Bare().run()
"""

# Escape sequences: CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \\), and two-byte ones.
_ESCAPES = re.compile(
    rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_()][0-9A-Za-z]?"
)


class NotMeasured(Exception):
    """The terminal row could not be measured; the message says why."""


def oda_command(root: Path | None) -> list[str]:
    """The installed ``oda-tui`` console script beside this interpreter (else ``-m oda_tui``),
    on ``root``, or ``--demo`` when ``root`` is None."""
    script = Path(sys.executable).parent / "oda-tui"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "oda_tui"]
    return [*command, "--demo"] if root is None else [*command, "--root", str(root)]


def run_until_shown(
    argv: list[str], texts: tuple[str, ...], env: dict[str, str]
) -> tuple[list[float], float]:
    """Start ``argv`` in a new pseudo-terminal: the seconds until each of ``texts`` was on its
    screen, and the CPU seconds the process (with its children) had used when the last was
    (less sensitive to a busy machine)."""
    import fcntl
    import termios

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLUMNS, 0, 0))
    needles = [text.encode("utf-8") for text in texts]
    found: dict[bytes, float] = {}
    seen = b""
    start = time.perf_counter()
    process = subprocess.Popen(
        argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True, close_fds=True
    )
    os.close(slave)
    try:
        while True:
            left = TIMEOUT_S - (time.perf_counter() - start)
            if left <= 0:
                raise NotMeasured(f"{texts!r} were not on screen within {TIMEOUT_S:.0f} s")
            ready, _, _ = select.select([master], [], [], min(left, 1.0))
            if not ready:
                if process.poll() is not None:
                    raise NotMeasured(f"{argv[0]} exited ({process.returncode}) before showing {texts!r}")
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError as exc:  # the child closed the terminal
                raise NotMeasured(f"{argv[0]} closed its terminal before showing {texts!r}") from exc
            now = time.perf_counter() - start
            seen += chunk
            plain = _ESCAPES.sub(b"", seen)
            for needle in needles:
                if needle not in found and needle in plain:
                    found[needle] = now
            if len(found) == len(needles):
                os.kill(process.pid, signal.SIGSTOP)  # its CPU time as of now
                return [found[needle] for needle in needles], _end(process)
    finally:
        if process.returncode is None:
            _end(process)
        os.close(master)


def _end(process: subprocess.Popen[bytes]) -> float:
    """Stop the measured process and anything it started (nothing of a person's is at stake:
    the store is a generated one); the CPU seconds it used."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    _pid, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime


def add_markers(root: Path) -> None:
    """Two Global memories: one created before every other, so it is the list's first row, and
    one created just before the one at ``LATER_ROW`` (or after the last), so it is that row."""
    from store.format.fields import Document
    from store.format.parse import parse_bytes
    from store.limits import Limits

    created: list[datetime] = []
    for path in (root / "global").glob("*.md"):
        document = parse_bytes(path.read_bytes(), Limits())
        if isinstance(document, Document) and document.fields.created is not None:
            created.append(document.fields.created)
    created.sort()
    # The marker at the top is row 1, so the later one goes before the (LATER_ROW - 1)th.
    later = created[LATER_ROW - 2] - timedelta(microseconds=1000) if len(created) >= LATER_ROW - 1 else None
    _write_marker(root / "global" / "0000beef.md", MARKER_TITLE, datetime(2020, 1, 1, tzinfo=UTC))
    _write_marker(root / "global" / "0000bee5.md", LATER_TITLE, later or datetime(2030, 1, 1, tzinfo=UTC))


def _write_marker(path: Path, title: str, created: datetime) -> None:
    from store.format.parse import Fields, render_new

    fields = Fields(
        title=title, enabled=True, source="user", session_id=None, created=created, updated=created
    )
    path.write_bytes(render_new(fields, "A marker row.").encode("utf-8"))


Start = tuple[list[float], float]


def _medians(
    label: str,
    start: str,
    odas: list[Start],
    bares: list[Start],
    target: float | None,
) -> dict[str, Any]:
    """The medians of one row: the first screen is drawn when its last awaited title is."""
    oda_s = statistics.median(max(times) for times, _cpu in odas)
    first_s = statistics.median(times[0] for times, _cpu in odas)
    bare_s = statistics.median(max(times) for times, _cpu in bares)
    oda_cpu = statistics.median(cpu for _t, cpu in odas)
    bare_cpu = statistics.median(cpu for _t, cpu in bares)
    return {
        "store": label,
        "start": start,
        "runs": len(odas),
        "bare_s": bare_s,
        "oda_s": oda_s,
        "first_row_s": first_s,
        "over_bare_s": oda_s - bare_s,
        "target_s": target,
        "bare_cpu_s": bare_cpu,
        "oda_cpu_s": oda_cpu,
        "over_bare_cpu_s": oda_cpu - bare_cpu,
        "oda_all_s": [max(times) for times, _cpu in odas],
        "oda_cpu_all_s": [cpu for _t, cpu in odas],
        "bare_all_s": [max(times) for times, _cpu in bares],
        "bare_cpu_all_s": [cpu for _t, cpu in bares],
        "load_average": os.getloadavg(),
    }


def _store_rows(base: Path, env: dict[str, str], bare: list[str], runs: int) -> list[dict[str, Any]]:
    """Cold and warm starts at each store size, each beside the bare app."""
    rows = []
    for memories, workspaces in STORES:
        root = base / f"store-{memories}"
        generate(root, memories, workspaces)
        add_markers(root)
        oda = oda_command(root)
        awaited = (MARKER_TITLE, LATER_TITLE)
        label = f"{memories:,} memories / {workspaces} ws"
        drop_index(root)
        run_until_shown(oda, awaited, env)
        colds: list[Start] = []
        warms: list[Start] = []
        stales: list[Start] = []
        bares: list[Start] = []
        for _ in range(runs):
            drop_index(root)
            colds.append(run_until_shown(oda, awaited, env))
            ensure_index(root)
            warms.append(run_until_shown(oda, awaited, env))
            if memories >= STALE_FROM:
                stale_index(root)
                stales.append(run_until_shown(oda, awaited, env))
            bares.append(run_until_shown(bare, (BARE_LABEL,), env))
        rows.append(_medians(label, "cold", colds, bares, TARGETS.get(memories)))
        rows.append(_medians(label, "warm", warms, bares, TARGETS.get(memories)))
        if stales:
            rows.append(_medians(label, "stale index", stales, bares, TARGETS.get(memories)))
        print(f"  terminal: {memories} memories measured", file=sys.stderr)
        shutil.rmtree(root, ignore_errors=True)
    return rows


def _demo_rows(base: Path, env: dict[str, str], bare: list[str], runs: int) -> list[dict[str, Any]]:
    """``--demo`` (its sample store built at every start, in a fresh temp folder) beside the
    same sample store, built once, opened with ``--root`` (cold)."""
    from oda_tui.demo.folder import sweep_stale_demo_folders
    from oda_tui.demo.sample import FIRST_TITLE, GLOBAL_MEMORIES, build_demo_store

    sample = build_demo_store(base / "sample" / "memory")
    # Where a person's demo goes (in memory, unless $TMPDIR says otherwise).
    demo_env = {k: v for k, v in env.items() if k != "TMPDIR"}
    # The first row, and the fourth (the fifth is too long to show whole in the list).
    awaited = (FIRST_TITLE, GLOBAL_MEMORIES[3][0])
    demos: list[Start] = []
    samples: list[Start] = []
    bares: list[Start] = []

    def demo() -> None:
        demos.append(run_until_shown(oda_command(None), awaited, demo_env))

    def root() -> None:
        drop_index(sample)
        samples.append(run_until_shown(oda_command(sample), awaited, env))

    for run in range(runs):
        # Each goes first every other run: what a start leaves behind (the page cache, a
        # folder to sweep) falls on both alike.
        for start in (demo, root) if run % 2 == 0 else (root, demo):
            start()
        bares.append(run_until_shown(bare, (BARE_LABEL,), env))
    rows = [
        _medians("the demo's sample", "--root", samples, bares, None),
        _medians("the demo's sample", "--demo", demos, bares, None),
    ]
    rows[1]["target_s"] = rows[0]["over_bare_s"]  # no slower than the same store opened with --root
    sweep_stale_demo_folders()  # each demo was killed outright at its first frame
    print("  terminal: the demo measured", file=sys.stderr)
    return rows


def terminal_first_paint(runs: int = 5) -> list[dict[str, Any]]:
    """The medians of ``runs`` starts of oda-tui (cold, warm, ``--demo``) and of a bare
    Textual app, alternated, and the differences."""
    with tempfile.TemporaryDirectory(prefix="oda-bench-tty-") as tmp:
        base = Path(tmp)
        env = {
            **os.environ,
            "TERM": "xterm-256color",
            "COLORTERM": "truecolor",
            # Never the person's own config or state.
            "ODA_TUI_CONFIG": str(base / "config"),
            "ODA_TUI_STATE": str(base / "state"),
        }
        env.pop("TEXTUAL", None)
        # Python caches compiled modules on a person's machine (a wheel install compiles them
        # up front); a sandbox that turns that off would time the compiler, not the app.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        bare = [sys.executable, "-c", BARE_APP]
        run_until_shown(bare, (BARE_LABEL,), env)  # the page cache and .pyc files, for both
        return _store_rows(base, env, bare, runs) + _demo_rows(base, env, bare, runs)


def table(rows: list[dict[str, Any]]) -> str:
    """The terminal rows as a Markdown table."""
    lines = [
        "| store (in a pty) | start | bare Textual | oda-tui: first row | first screen | over bare "
        "| target | CPU over bare | load |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        target = f"<= {r['target_s'] * 1000:+.0f} ms" if r.get("target_s") is not None else "-"
        load = r.get("load_average")
        lines.append(
            f"| {r['store']} | {r['start']} | {r['bare_s'] * 1000:.0f} ms "
            f"| {r.get('first_row_s', r['oda_s']) * 1000:.0f} ms "
            f"| {r['oda_s'] * 1000:.0f} ms | {r['over_bare_s'] * 1000:+.0f} ms | {target} "
            f"| {r['over_bare_cpu_s'] * 1000:+.0f} ms | {load[0]:.1f} |"
            if load
            else f"| {r['store']} | {r['start']} | {r['bare_s'] * 1000:.0f} ms | - "
            f"| {r['oda_s'] * 1000:.0f} ms | {r['over_bare_s'] * 1000:+.0f} ms | {target} "
            f"| {r['over_bare_cpu_s'] * 1000:+.0f} ms | - |"
        )
    return "\n".join(lines)
