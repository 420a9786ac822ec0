"""``oda-tui --demo`` ended during its start-up, before its first frame: by SIGTERM or by its
terminal closing, while its folder is being made, while the sample store is written, or as
the app begins to draw. Its temporary folder goes with it every time.

Each ending waits for evidence of where the start-up is (the folder, the sample's files, the
first bytes on the terminal), never for a time.
"""

from __future__ import annotations

import signal
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.support.pty import HANG_GUARD_SECONDS, PtyProcess, private_env

#: Where the start-up is when it is ended: the demo's folder exists; the sample store is being
#: written; the app has begun to write to the terminal (the list not yet on it).
MOMENTS = ("folder", "store", "drawing")
ENDINGS = ("sigterm", "hangup")


def _when(tmp: Path, app: PtyProcess, moment: str) -> bool:
    folders = list(tmp.glob("oda-demo-*"))
    if moment == "folder":
        return bool(folders)
    if moment == "store":
        return any((f / "memory" / "global").is_dir() for f in folders)
    return bool(app.output)


def end_early(tmp: Path, moment: str, ending: str) -> tuple[int | None, list[Path], bool]:
    """Start the demo, end it at ``moment`` by ``ending``; the exit code (None: it still ran
    at the hang guard), what is left in its temporary folder, and whether the list was
    already on screen (then the moment was missed: the start-up was over)."""
    env = private_env(tmp)
    temp = Path(env["TMPDIR"])
    app = PtyProcess(["--demo"], env)
    deadline = time.monotonic() + HANG_GUARD_SECONDS
    while not _when(temp, app, moment) and app.process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.001)  # polling for the moment, not waiting for a time
    late = b"Reply language" in app.output
    if ending == "sigterm":
        app.terminate()
    else:
        app.hang_up()
    code = app.wait()
    return code, sorted(temp.iterdir()), late


def test_a_demo_ended_during_its_start_up_leaves_no_folder(tmp_path: Path) -> None:
    cases = [(moment, ending) for moment in MOMENTS for ending in ENDINGS]
    with ThreadPoolExecutor(3) as pool:
        runs = list(
            pool.map(
                lambda case: end_early(tmp_path / f"{case[0]}-{case[1]}", *case),
                cases,
            )
        )
    for (moment, ending), (code, left, _late) in zip(cases, runs, strict=True):
        assert code is not None, f"{moment}/{ending}: still running at the hang guard"
        assert left == [], (moment, ending, left)
        assert code == 128 + (signal.SIGTERM if ending == "sigterm" else signal.SIGHUP), (
            moment,
            ending,
            code,
        )
    # The moments were met before the first frame (a busy machine may let one slip past it).
    assert sum(late for _code, _left, late in runs) < len(runs)
