"""Shared fixtures: a fresh store in a temp folder, the app's own folders private to each test,
and the harness's length."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from oda_tui.config.paths import CONFIG_ENV, STATE_ENV
from store import MemoryStore
from tests.support.stores import limited_store

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


@pytest.fixture(scope="session")
def examples_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where a hypothesis test makes a folder of each example's own (its tmp_path is one for all
    its examples): under this run's temp folder, like every other file a test writes."""
    return tmp_path_factory.mktemp("examples")


@pytest.fixture
def limited(root: Path) -> MemoryStore:
    """A store on an empty root whose chats are limited to 500 tokens (``settings.yaml``)."""
    return limited_store(root)


@pytest.fixture
def config_folder(tmp_path: Path) -> Path:
    """The app's config folder in this test (keymap, themes, the theme chosen): not made yet."""
    return tmp_path / "config"


@pytest.fixture
def state_folder(tmp_path: Path) -> Path:
    """The app's state folder in this test (review marks, drafts, the crash log): not made yet."""
    return tmp_path / "state"


@pytest.fixture(autouse=True)
def private_app_folders(config_folder: Path, state_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never the person's own config and state folders, and never ones another test wrote in:
    each test (the app in process, and every process it starts) has its own."""
    monkeypatch.setenv(CONFIG_ENV, str(config_folder))
    monkeypatch.setenv(STATE_ENV, str(state_folder))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``slow`` first, the others after in their order: pytest-xdist hands the
    tests out in this order, so the longest ones start while every worker is busy, rather than
    one of them running alone at the end while the other workers have finished."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--stress", action="store_true", default=False, help="run the reliability harness 10x longer"
    )


@pytest.fixture
def stress(request: pytest.FixtureRequest) -> int:
    """How many times longer the reliability harness runs (10 with --stress, else 1)."""
    return 10 if request.config.getoption("--stress") else 1
