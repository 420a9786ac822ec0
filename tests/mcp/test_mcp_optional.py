"""The MCP server is an optional extra: the app and the other commands never import the SDK."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SDK = ("mcp", "mcp_types")


def loaded_after(code: str) -> list[str]:
    """The SDK's top-level modules loaded once ``code`` ran in a fresh interpreter."""
    probe = f"{code}\nimport sys\nprint('loaded:' + ','.join(sorted({{m.split('.')[0] for m in sys.modules}} & {set(SDK)!r})))\n"
    out = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, check=True)
    last = out.stdout.strip().splitlines()[-1]
    assert last.startswith("loaded:")
    return [m for m in last.removeprefix("loaded:").split(",") if m]


def test_the_app_does_not_import_the_sdk() -> None:
    assert loaded_after("import oda_tui.app, oda_tui.cli, oda_tui.cli.subcommands") == []


def test_bare_help_and_other_commands_do_not_import_the_sdk(tmp_path: Path) -> None:
    help_run = "import contextlib, io\nfrom oda_tui.cli.main import main\n"
    help_run += "with contextlib.redirect_stdout(io.StringIO()):\n"
    help_run += "    try:\n        main(['--help'])\n    except SystemExit:\n        pass\n"
    assert loaded_after(help_run) == []
    listing = f"from oda_tui.cli.main import main\nmain(['list', '--root', {str(tmp_path)!r}])"
    assert loaded_after(listing) == []


def test_the_probe_does_see_the_sdk_when_the_server_is_loaded() -> None:
    # The check above can fail: loading the server does pull the SDK in.
    assert loaded_after("import oda_tui.mcp.server") == ["mcp", "mcp_types"]


def test_without_the_extra_the_command_says_how_to_get_it(tmp_path: Path) -> None:
    # The SDK made unimportable (a None entry in sys.modules), as on an install without the extra.
    code = (
        "import sys\nsys.modules['mcp'] = None\nsys.modules['mcp_types'] = None\n"
        "from oda_tui.cli.main import main\n"
        f"sys.exit(main(['mcp', '--root', {str(tmp_path)!r}]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip() == "oda-tui mcp needs the mcp extra: pip install 'oda-tui[mcp]'"
