"""The ``oda-tui`` entry point: version, dispatch, usage errors, and no Textual for commands."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from oda_tui.cli.main import command_index
from tests.support.cli import Sample, run_cli


def test_version_and_help() -> None:
    r = run_cli("--version")
    assert (r.code, r.out) == (0, f"oda-tui {version('oda-tui')}\n")
    h = run_cli("--help")
    assert h.code == 0
    for name in ("check", "list", "show", "history", "context", "export"):
        assert f"\n  {name} " in h.out


def test_options_before_the_command_apply_to_it(sample: Sample) -> None:
    r = run_cli("--root", sample.root, "list", "--global", "--json")
    assert r.code == 0 and len(r.json()["memories"]) == 2
    assert command_index(["--root", "list", "show"]) == 2  # "list" is --root's value there
    assert command_index(["--workspace", "w"]) is None
    assert command_index(["notacommand"]) is None


def test_usage_errors_are_one_line_and_exit_2(tmp_path: Path) -> None:
    for args in (["list", "--bogus"], ["show"], ["list", "--global", "--all"], ["export", "-o"]):
        r = run_cli(*args, "--root", tmp_path)
        assert r.code == 2 and r.out == "", args
        assert r.err.count("\n") == 1 and "--help" in r.err, (args, r.err)


def test_commands_never_import_textual(sample: Sample) -> None:
    code = (
        "import sys\n"
        "from oda_tui.cli.main import main\n"
        f"codes = [main([c, '--root', {str(sample.root)!r}]) for c in ('list', 'check', 'context', 'export')]\n"
        "assert codes == [0, 0, 0, 0], codes\n"
        "loaded = [m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')]\n"
        # Rich's table of character widths, for aligning columns, and nothing else of Rich.
        "allowed = ('rich', 'rich._extension', 'rich.cells', 'rich._cell_widths', 'rich._unicode_data')\n"
        "loaded = [m for m in loaded if m not in allowed and not m.startswith('rich._unicode_data.')]\n"
        "assert not loaded, loaded\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=False, timeout=60)
    assert done.returncode == 0, done.stderr.decode()


def test_a_folder_in_place_of_a_memory_file_is_reported(root: Path) -> None:
    (root / "global").mkdir(parents=True)
    (root / "global" / "0000000f.md").mkdir()  # a folder where a memory file should be
    r = run_cli("check", "--root", root)
    assert r.code == 1 and r.err == ""
    assert r.out == f"{root / 'global' / '0000000f.md'}: A folder inside a memory set is not a memory.\n"


def test_an_unreadable_root_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Tests run as root, who reads any folder: the refusal the kernel would give is simulated.
    from oda_tui.cli import main as cli

    root = tmp_path / "oda"
    root.mkdir()
    real_listdir = os.listdir

    def listdir(path: str | os.PathLike[str] = ".") -> list[str]:
        if Path(path) == root:
            raise PermissionError(13, "Permission denied", str(path))
        return real_listdir(path)

    monkeypatch.setattr(os, "listdir", listdir)
    code = cli.main(["list", "--root", str(root)])
    captured = capsys.readouterr()
    assert (code, captured.err, captured.out) == (
        2,
        f"The store root {root} cannot be read: Permission denied.\n",
        "",
    )


def test_help_names_the_environment_and_the_keymap(tmp_path: Path) -> None:
    shown = run_cli("--help", env={"ODA_TUI_CONFIG": str(tmp_path / "config")}).out
    for name in ("ODA_HOME", "ODA_TUI_CONFIG", "ODA_TUI_STATE", "ODA_TUI_ASCII", "NO_COLOR"):
        assert f"\n  {name} " in shown, name
    assert str(tmp_path / "config" / "keymap.yaml") in shown


@pytest.mark.parametrize(
    "command", ["check", "list", "show", "history", "context", "export", "sync", "import"]
)
def test_each_commands_help_names_the_variables_it_reads(command: str) -> None:
    r = run_cli(command, "--help")
    assert r.code == 0
    assert "environment:\n  ODA_HOME " in r.out and "ODA_TUI_DEBUG" in r.out
    assert ("ODA_TUI_STATE" in r.out) == (command == "check")  # check --review reads the review marks
