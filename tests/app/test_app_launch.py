"""Opening the app from the command line: what a bare start imports (the store, read first,
but no subcommand and no Textual), a root that is not a folder, and a demo that keeps to its
own folder. The app itself is replaced by a stand-in that
records what the process looks like when the app would open."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.support.pty import private_env

# A stand-in for oda_tui.app: reports the loaded modules and where config and state would go.
STAND_IN = """
import json, sys, types
from pathlib import Path

class OdaApp:
    crash_line = None
    return_code = 0

    def __init__(self, root, workspace=None, *, first_read=None, root_named=False):
        self.root = Path(root)
        self.first_read = first_read

    def call_from_thread(self, callback):
        callback()

    def exit(self):
        pass

    def run(self):
        loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("oda_tui", "store", "textual", "rich"))
        read = self.first_read
        report = {
            "loaded": loaded,
            "root": str(self.root),
            "read_root": None if read is None else str(read.store.root),
            "read_done": read is not None and read.wait(30) and read.snapshot is not None,
        }
        if "--write" in sys.argv:
            from oda_tui.own_files.review_marks import state_dir
            from oda_tui.config.theming import config_dir, save_theme
            save_theme("demo-choice")
            state_dir().mkdir(parents=True, exist_ok=True)
            (state_dir() / "review.json").write_text("{}")
            report.update(config=str(config_dir()), state=str(state_dir()))
        Path(sys.argv[1]).write_text(json.dumps(report))

app = types.ModuleType("oda_tui.app")
app.OdaApp = OdaApp
sys.modules["oda_tui.app"] = app
from oda_tui.cli.main import main
sys.exit(main([a for a in sys.argv[2:] if a != "--write"]))
"""

#: What opening the app may load of this project before the app itself, besides the store
#: (read before Textual is imported, so the first frame can show it).
OPENING = {
    "oda_tui",
    "oda_tui.cli",
    "oda_tui.cli.main",
    "oda_tui.config",
    "oda_tui.config.paths",
    "oda_tui.exit_guard",
    "oda_tui.cli.subcommands",  # the list of the subcommands' names, nothing more
    "oda_tui.cli.parser",
    "oda_tui.cli.errors",
    "oda_tui.session",
    "oda_tui.session.first_read",
    "oda_tui.session.snapshot",
    "oda_tui.app",  # the stand-in
}


def open_with_stand_in(tmp: Path, *args: str) -> tuple[int, dict[str, Any], str]:
    report = tmp / "report.json"
    done = subprocess.run(
        [sys.executable, "-c", STAND_IN, str(report), *args],
        capture_output=True,
        env=private_env(tmp),
        timeout=60,
        check=False,
    )
    data = json.loads(report.read_text()) if report.exists() else {}
    return done.returncode, data, done.stderr.decode()


def test_a_bare_start_reads_the_store_before_textual_and_imports_no_subcommand(tmp_path: Path) -> None:
    code, report, err = open_with_stand_in(tmp_path, "--root", str(tmp_path / "oda"))
    assert code == 0, err
    loaded = {m for m in report["loaded"] if m.split(".")[0] != "store"}
    assert loaded <= OPENING, sorted(loaded - OPENING)
    assert "store.memory_store" in report["loaded"]
    # The app was handed the store's first read, begun before Textual was imported.
    assert (report["read_root"], report["read_done"]) == (str(tmp_path / "oda"), True)


def test_a_root_that_is_a_file_is_refused_before_the_app_opens(tmp_path: Path, root: Path) -> None:
    root.write_text("not a folder")
    code, report, err = open_with_stand_in(tmp_path, "--root", str(root))
    assert (code, report, err) == (2, {}, f"The store root {root} is not a folder.\n")
    assert root.read_text() == "not a folder"


def test_the_demo_keeps_config_and_state_in_its_own_folder_and_removes_it(tmp_path: Path) -> None:
    code, report, err = open_with_stand_in(tmp_path, "--demo", "--write")
    assert code == 0, err
    demo = Path(str(report["root"])).parent
    assert demo.parent == tmp_path / "tmp"
    assert Path(str(report["config"])).parent == demo and Path(str(report["state"])).parent == demo
    assert not demo.exists()  # removed on the way out, the theme and marks with it
    home = tmp_path / "home"
    assert [p for p in home.rglob("*") if "oda-tui" in p.name] == []
    assert err == f"The demo store in {report['root']} was removed.\n"
