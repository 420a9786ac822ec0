"""The command line's fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import Sample, build_sample


@pytest.fixture
def sample(root: Path) -> Sample:
    """The sample store on ``root``: two global memories (one off, saved by the agent) and one in
    workspace proj (see ``build_sample``)."""
    return build_sample(root)
