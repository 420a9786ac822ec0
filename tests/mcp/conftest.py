"""The MCP server's fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def made_root(root: Path) -> Path:
    """``root``, made: an existing, empty store folder (as a client configured for it finds it).
    A module whose tests all want it says ``pytestmark = pytest.mark.usefixtures("made_root")``."""
    root.mkdir()
    return root
