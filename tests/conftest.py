"""Shared fixtures: a fresh store in a temp folder, and raw file writing for hand-made files."""

from __future__ import annotations

from pathlib import Path

import pytest

from store import MemoryStore


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """An empty store root (not created yet, like a new installation)."""
    return tmp_path / "oda"


@pytest.fixture
def store(root: Path) -> MemoryStore:
    """A store on an empty root."""
    return MemoryStore(root)


def write_raw(path: Path, content: str | bytes) -> Path:
    """Write a file as another program would (no store involved)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return path


def memory_file(
    title: str = "T", text: str = "Body", *, enabled: str = "true", source: str = "user", extra: str = ""
) -> str:
    """A valid memory file's text, as a person would write it."""
    return f"---\ntitle: {title}\nenabled: {enabled}\nsource: {source}\n{extra}---\n\n{text}\n"


def started(root: Path) -> MemoryStore:
    """A store on ``root``, loaded, with its parse index written (a later start reads it)."""
    s = MemoryStore(root)
    s.workspaces()
    if s._index_writer is not None:
        s._index_writer.join()
    return s


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--stress", action="store_true", default=False, help="run the reliability harness 10x longer"
    )


@pytest.fixture
def stress(request: pytest.FixtureRequest) -> int:
    """How many times longer the reliability harness runs (10 with --stress, else 1)."""
    return 10 if request.config.getoption("--stress") else 1
