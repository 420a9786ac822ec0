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

REPO = Path(__file__).resolve().parent.parent
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
