"""Quality gate: the store is a library a chat runtime can import as it is — it never imports
the UI (textual, rich, oda_tui)."""

from __future__ import annotations

import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import store

REPO = Path(__file__).resolve().parents[2]
FORBIDDEN = ("textual", "rich", "oda_tui")


def test_importing_every_store_module_loads_no_ui() -> None:
    modules = [f"store.{m.name}" for m in pkgutil.iter_modules(store.__path__)]
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"store pulled in: {out.stdout.strip()}"


def test_import_linter_contract_holds() -> None:
    linter = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    if not Path(linter).exists():
        pytest.skip("import-linter is not installed")
    result = subprocess.run([linter], cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def _modules_after(statement: str) -> set[str]:
    code = f"import sys\n{statement}\nprint(','.join(sorted(sys.modules)))\n"
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    return set(out.stdout.strip().split(","))


def test_the_main_screen_does_not_import_the_app() -> None:
    # The app composes the screens; a screen reaches the store through the session.
    assert "oda_tui.app" not in _modules_after("import oda_tui.screens.main")


def test_opening_the_app_leaves_what_the_first_frame_does_not_need_for_later() -> None:
    loaded = _modules_after("import oda_tui.app")
    later = {
        "oda_tui.screens.history",
        "oda_tui.screens.deleted",
        "oda_tui.screens.problems",
        "oda_tui.screens.duplicates",
        "oda_tui.screens.review",
        "oda_tui.screens.help",
        "oda_tui.dialogs.confirm",
        "oda_tui.dialogs.conflict",
        "oda_tui.dialogs.secret",
        "oda_tui.own_files.hygiene",
        "oda_tui.text.diffing",
        "oda_tui.keys.palette",
        "oda_tui.external_editor",
    }
    assert loaded & later == set()
