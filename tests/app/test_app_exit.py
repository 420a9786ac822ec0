"""The real app on a real pseudo-terminal: a lost terminal or SIGTERM always ends it, and the
demo's folder goes with it."""

from __future__ import annotations

import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.support.pty import HANG_GUARD_SECONDS, PtyProcess, private_env

#: Among the suite's longest: started first (see ``tests/conftest.py``).
pytestmark = pytest.mark.slow

#: Textual's own shutdown hung on a dead terminal about once in seven closes; twenty closes
#: catch such a hang with about 95% certainty, and every run of the suite tries again.
HANG_UPS = 14
EIO_ONLY = 6
TERMINATIONS = 2
AT_ONCE = 6
#: A title of the demo store: on screen means the app is up.
DEMO_TITLE = b"Code style"


def demo_then(tmp: Path, ending: str) -> tuple[int | None, list[Path], bytes]:
    """Open ``oda-tui --demo`` on a new terminal, wait until it shows the sample, end it by
    ``ending``; the exit code (None: still running at the hang guard), what is left in the
    temporary folder, and what the app wrote."""
    env = private_env(tmp)
    app = PtyProcess(["--demo"], env, controlling=ending != "eio")
    app.wait_for_output(DEMO_TITLE)
    if ending == "sigterm":
        app.terminate()
    else:
        app.hang_up()
    code = app.wait()
    return code, sorted(Path(env["TMPDIR"]).iterdir()), app.output


def test_a_lost_terminal_or_sigterm_always_ends_the_demo_and_removes_its_folder(tmp_path: Path) -> None:
    endings = ["hangup"] * HANG_UPS + ["eio"] * EIO_ONLY + ["sigterm"] * TERMINATIONS
    with ThreadPoolExecutor(AT_ONCE) as pool:
        runs = list(pool.map(demo_then, [tmp_path / f"run{i}" for i in range(len(endings))], endings))
    hung = [ending for ending, (code, _, _) in zip(endings, runs, strict=True) if code is None]
    assert not hung, f"still running after the hang guard: {hung}"
    for ending, (code, left, _) in zip(endings, runs, strict=True):
        assert left == [], (ending, left)
        # 128 + the signal, as a shell reports a process the signal ended.
        assert code == 128 + (signal.SIGTERM if ending == "sigterm" else signal.SIGHUP), (ending, code)


# A process whose "app" never finishes shutting down, or finishes when asked (``polite``).
GUARDED = """
import sys, threading
from pathlib import Path
from oda_tui.exit_guard import ExitGuard

left = Path(sys.argv[1])
cleanups = Path(sys.argv[2])
asked = threading.Event()

def cleanup():
    left.unlink()
    with cleanups.open("a") as f:
        f.write("cleaned\\n")

guard = ExitGuard(asked.set if sys.argv[3] == "polite" else (lambda: None), cleanup)
guard.install()
print("ready", flush=True)
asked.wait()
guard.cleanup_now()
sys.exit(guard.exit_code())
"""


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM])
@pytest.mark.parametrize("app", ["polite", "hung"])
def test_the_guard_ends_the_process_and_cleans_up_once_whatever_the_app_does(
    tmp_path: Path, signum: int, app: str
) -> None:
    left, cleanups = tmp_path / "demo-folder", tmp_path / "cleanups"
    left.write_text("x")
    child = subprocess.Popen(
        [sys.executable, "-c", GUARDED, str(left), str(cleanups), app],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
    )
    assert child.stdout is not None and child.stdout.readline() == b"ready\n"
    child.send_signal(signum)
    try:
        code = child.wait(HANG_GUARD_SECONDS)
    except subprocess.TimeoutExpired:
        child.kill()
        raise
    assert code == 128 + signum
    assert not left.exists() and cleanups.read_text() == "cleaned\n"
