"""The app's fixtures: the stores its pilot tests open, all on the ``root`` fixture's folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from oda_tui.text import glyphs
from oda_tui.widgets.ascii_drawing import draw_ascii
from store import GLOBAL, Memory, MemoryStore
from tests.support.stores import TwoMemories, two_memories


@pytest.fixture
def two(root: Path) -> TwoMemories:
    """Global's "Reply language" and "About me" (see ``two_memories``)."""
    return two_memories(root)


@pytest.fixture
def two_and_web(two: TwoMemories) -> TwoMemories:
    """``two``, and "Stack" ("Django and HTMX.") in workspace web, saved by the agent in chat s-1."""
    two.store.create("web", "Stack", "Django and HTMX.", source="ai", session_id="s-1", via="chat")
    return two


@pytest.fixture
def off_beside_big(limited: MemoryStore) -> Memory:
    """In ``limited``: "Off" ("Short.", turned off) beside "Big" (1,700 characters, on), so that
    turning Off on with 900 characters of text would take the chat over its 500 tokens."""
    off = limited.create(GLOBAL, "Off", "Short.", enabled=False)
    limited.create(GLOBAL, "Big", "x" * 1700)
    return off


@pytest.fixture
def ascii_terminal() -> Iterator[None]:
    """The app drawn as on a terminal that shows ASCII only (the Linux console, ``LC_ALL=C``)."""
    glyphs.use_ascii(True)
    yield
    glyphs.use_ascii(False)
    draw_ascii(False)  # Textual's own characters again for the tests that follow
