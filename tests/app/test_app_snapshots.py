"""Snapshot tests (pytest-textual-snapshot): main screen, history, problems, help, the
frontmatter as YAML, and the duplicates and review views.

The store is built with a fixed clock, in UTC, at a relative root, so every run draws the
same screen. Update the pictures with ``pytest tests/app/test_app_snapshots.py --snapshot-update``
after an intended change, and look at them before committing.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, OptionList, Static, TextArea

import store.memory_store
from oda_tui.app import OdaApp
from oda_tui.config.paths import CONFIG_ENV, STATE_ENV
from oda_tui.screens.help import HelpScreen
from store import GLOBAL, MemoryStore
from tests.support.app import main_screen, oda_app, settle, started, wait_until, write_raw

SIZES = [(80, 24), (120, 40)]


#: pytest-textual-snapshot's ``snap_compare``: the app, its terminal size and what to do before
#: the picture; True when the picture is the one kept.
SnapCompare = Callable[..., bool]
RunBefore = Callable[[Pilot[None]], Awaitable[None]]


@pytest.fixture
def fixed_clock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[MemoryStore]:
    """A store at ``memory`` in the current folder (the test's own), whose changes happen a
    minute apart from a fixed moment, in UTC; the app's own folders at ``config`` and ``state``
    there too (help names them: a path of the same length in every run draws the same screen)."""
    with monkeypatch.context() as patched:
        patched.setenv(CONFIG_ENV, "config")
        patched.setenv(STATE_ENV, "state")
        patched.setenv("TZ", "UTC")
        time.tzset()
        moments = (datetime(2024, 3, 5, 9, 0, tzinfo=UTC) + timedelta(minutes=i) for i in range(10_000))
        patched.setattr(store.memory_store, "now_utc", lambda: next(moments))
        patched.chdir(tmp_path)
        yield MemoryStore(tmp_path / "memory")
    time.tzset()  # once TZ is back as it was: the next test in this process has the suite's zone


@pytest.fixture
def fixed_store(fixed_clock: MemoryStore) -> Path:
    """A small store written at fixed moments; returns the relative root the app opens."""
    memories = fixed_clock
    style = memories.create(GLOBAL, "Code style", "Type hints everywhere.\nSmall functions.")
    memories.change(GLOBAL, style.id, text="Type hints everywhere.\nSmall pure functions.")
    memories.change(
        GLOBAL, style.id, text="Type hints.\nSmall pure functions.\nNo clever tricks.", via="chat"
    )
    memories.create(GLOBAL, "Reply language", "Reply in English, in short bullet points.")
    memories.create(GLOBAL, "Prefers uv", "Use uv, not pip.", source="ai", session_id="chat-42", via="chat")
    off = memories.create(GLOBAL, "[@click=app.quit]x[/] old note", "Turned off.")
    memories.set_enabled(GLOBAL, off.id, False)
    memories.create("web", "Stack", "Django 5, HTMX, PostgreSQL.")
    write_raw(
        memories.memory_path("web", "0badf11e"),
        "---\ntitle: [unclosed\nenabled: true\nsource: user\n---\n\nBroken YAML above.\n",
    )
    return Path("memory")


@pytest.fixture
def hygiene_store(fixed_clock: MemoryStore) -> Path:
    """Duplicates, similar memories and agent saves waiting for review, at fixed moments."""
    memories = fixed_clock
    memories.create(GLOBAL, "Prefers uv", "Use uv, not pip.", source="ai", session_id="chat-42", via="chat")
    memories.create("web", "uv, not pip", "use UV -- not pip!")
    memories.create(GLOBAL, "Reply language", "Reply in English.")
    memories.create("web", "Reply language", "Reply in English, with code first.")
    stack = memories.create("web", "Stack", "Django and HTMX.", source="ai", session_id="chat-42", via="chat")
    memories.change("web", stack.id, text="Django 5 and HTMX, on Fly.io.")
    memories.change("web", stack.id, text="Django 5, HTMX and Celery, on Fly.io.", via="chat")
    return Path("memory")


def same_picture(
    snap_compare: SnapCompare, root: Path, run_before: RunBefore, size: tuple[int, int] = (80, 24)
) -> bool:
    """The app on ``root`` (not watching), at ``size``, after ``run_before``: the picture kept?"""
    return snap_compare(OdaApp(root, watch=False), terminal_size=size, run_before=run_before)


async def _loaded(pilot: Pilot[None]) -> None:
    """The store read, the hygiene marks shown, and no cursor blinking: a snapshot taken a
    moment later, on a busy machine, draws the same."""
    screen = await started(pilot)
    await wait_until(pilot, lambda: oda_app(pilot).session.marks.latest is not None, "the hygiene marks")
    for field in screen.query("Input, TextArea"):
        assert isinstance(field, Input | TextArea)
        field.cursor_blink = False
    await settle(pilot)


def opened(key: str) -> RunBefore:
    """Loaded, then ``key`` pressed and its view's workers done."""

    async def run_before(pilot: Pilot[None]) -> None:
        await _loaded(pilot)
        await pilot.press(key)
        await settle(pilot)

    return run_before


def second_row(key: str, options: str, head: str, what: str) -> RunBefore:
    """``key``'s view opened, and its second row highlighted and shown beside the list."""

    async def run_before(pilot: Pilot[None]) -> None:
        await opened(key)(pilot)
        await pilot.press("down")
        view = pilot.app.screen
        await wait_until(pilot, lambda: shows_second(view, options, head), what)

    return run_before


def shows_second(screen: Screen[Any], options: str, head: str) -> bool:
    """The second row of a sub-screen's list is highlighted and shown beside it."""
    listed = screen.query_one(options, OptionList)
    if listed.highlighted != 1:
        return False
    first_line = str(listed.get_option_at_index(1).prompt).splitlines()[0]
    return first_line.split("  ")[0].strip() in str(screen.query_one(head, Static).content)


@pytest.mark.parametrize("size", SIZES)
def test_main_screen(snap_compare: SnapCompare, fixed_store: Path, size: tuple[int, int]) -> None:
    assert same_picture(snap_compare, fixed_store, _loaded, size)


@pytest.mark.parametrize("size", SIZES)
def test_history(snap_compare: SnapCompare, fixed_store: Path, size: tuple[int, int]) -> None:
    open_history = second_row("h", "#versions", "#version-head", "the older version")
    assert same_picture(snap_compare, fixed_store, open_history, size)


@pytest.mark.parametrize("size", SIZES)
def test_problems(snap_compare: SnapCompare, fixed_store: Path, size: tuple[int, int]) -> None:
    assert same_picture(snap_compare, fixed_store, opened("exclamation_mark"), size)


@pytest.mark.parametrize("size", SIZES)
def test_help(snap_compare: SnapCompare, fixed_store: Path, size: tuple[int, int]) -> None:
    async def open_help(pilot: Pilot[None]) -> None:
        await _loaded(pilot)
        await pilot.press("f1")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen), "the help")

    assert same_picture(snap_compare, fixed_store, open_help, size)


@pytest.mark.parametrize("size", SIZES)
def test_frontmatter_as_yaml(snap_compare: SnapCompare, fixed_store: Path, size: tuple[int, int]) -> None:
    async def open_block(pilot: Pilot[None]) -> None:
        await _loaded(pilot)
        await pilot.press("down", "down", "enter", "f2")  # the agent's memory: every field
        await settle(pilot)
        await pilot.press("down", "end", "backspace")  # "enabled: tru": named at once
        view = main_screen(pilot).editor.frontmatter
        await wait_until(
            pilot, lambda: "enabled: tru" in view.area.text.splitlines() and bool(view.problem), "the message"
        )

    assert same_picture(snap_compare, fixed_store, open_block, size)


def test_duplicates(snap_compare: SnapCompare, hygiene_store: Path) -> None:
    assert same_picture(snap_compare, hygiene_store, opened("D"))


def test_review(snap_compare: SnapCompare, hygiene_store: Path) -> None:
    open_review = second_row("r", "#review-list", "#review-head", "the second memory")
    assert same_picture(snap_compare, hygiene_store, open_review)
