"""Shared fixtures: a fresh store in a temp folder, and raw file writing for hand-made files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from store import MemoryStore

# pytest-xdist's workers set COLUMNS and LINES, which would override the size of every terminal
# a test gives a real process (and the width the command line wraps at): a test sees the same
# environment whether the suite runs in one process or in several.
for _name in ("COLUMNS", "LINES"):
    os.environ.pop(_name, None)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """An empty store root (not created yet, like a new installation)."""
    return tmp_path / "oda"


@pytest.fixture
def store(root: Path) -> MemoryStore:
    """A store on an empty root."""
    return MemoryStore(root)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--stress", action="store_true", default=False, help="run the reliability harness 10x longer"
    )


@pytest.fixture
def stress(request: pytest.FixtureRequest) -> int:
    """How many times longer the reliability harness runs (10 with --stress, else 1)."""
    return 10 if request.config.getoption("--stress") else 1
