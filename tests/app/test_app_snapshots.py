"""Snapshot tests (pytest-textual-snapshot): main screen, history, problems, help, the
frontmatter as YAML, and the duplicates and review views.

The store is built with a fixed clock, in UTC, at a relative root, so every run draws the
same screen. Update the pictures with ``pytest tests/app/test_app_snapshots.py --snapshot-update``
after an intended change, and look at them before committing.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from textual.screen import Screen
from textual.widgets import OptionList, Static

import store.memory_store
from oda_tui.app import OdaApp
from oda_tui.screens.help import HelpScreen
from store import GLOBAL, MemoryStore
from tests.support.app import settle, started, wait_until, write_raw

SIZES = [(80, 24), (120, 40)]


@pytest.fixture
def fixed_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A small store written at fixed moments; returns the relative root the app opens."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    moments = (datetime(2024, 3, 5, 9, 0, tzinfo=UTC) + timedelta(minutes=i) for i in range(10_000))
    monkeypatch.setattr(store.memory_store, "now_utc", lambda: next(moments))
    monkeypatch.chdir(tmp_path)
    root = Path("memory")
    memories = MemoryStore(tmp_path / "memory")
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
    yield root
    time.tzset()


async def _loaded(pilot) -> None:  # type: ignore[no-untyped-def]
    """The store read, the hygiene marks shown, and no cursor blinking: a snapshot taken a
    moment later, on a busy machine, draws the same."""
    screen = await started(pilot)
    await wait_until(pilot, lambda: pilot.app.session.marks.latest is not None, "the hygiene marks")
    for field in screen.query("Input, TextArea"):
        field.cursor_blink = False
    await settle(pilot)


def shows_second(screen: Screen[None], options: str, head: str) -> bool:
    """The second row of a sub-screen's list is highlighted and shown beside it."""
    listed = screen.query_one(options, OptionList)
    if listed.highlighted != 1:
        return False
    first_line = str(listed.get_option_at_index(1).prompt).splitlines()[0]
    return first_line.split("  ")[0].strip() in str(screen.query_one(head, Static).content)


@pytest.mark.parametrize("size", SIZES)
def test_main_screen(snap_compare, fixed_store: Path, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(OdaApp(fixed_store, watch=False), terminal_size=size, run_before=_loaded)


@pytest.mark.parametrize("size", SIZES)
def test_history(snap_compare, fixed_store: Path, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    async def open_history(pilot) -> None:  # type: ignore[no-untyped-def]
        await _loaded(pilot)
        await pilot.press("h")
        await settle(pilot)
        await pilot.press("down")
        history = pilot.app.screen
        await wait_until(
            pilot, lambda: shows_second(history, "#versions", "#version-head"), "the older version"
        )

    assert snap_compare(OdaApp(fixed_store, watch=False), terminal_size=size, run_before=open_history)


@pytest.mark.parametrize("size", SIZES)
def test_problems(snap_compare, fixed_store: Path, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    async def open_problems(pilot) -> None:  # type: ignore[no-untyped-def]
        await _loaded(pilot)
        await pilot.press("exclamation_mark")
        await settle(pilot)

    assert snap_compare(OdaApp(fixed_store, watch=False), terminal_size=size, run_before=open_problems)


@pytest.mark.parametrize("size", SIZES)
def test_help(snap_compare, fixed_store: Path, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    async def open_help(pilot) -> None:  # type: ignore[no-untyped-def]
        await _loaded(pilot)
        await pilot.press("f1")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen), "the help")

    assert snap_compare(OdaApp(fixed_store, watch=False), terminal_size=size, run_before=open_help)


@pytest.mark.parametrize("size", SIZES)
def test_frontmatter_as_yaml(snap_compare, fixed_store: Path, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    async def open_block(pilot) -> None:  # type: ignore[no-untyped-def]
        await _loaded(pilot)
        await pilot.press("down", "down", "enter", "f2")  # the agent's memory: every field
        await settle(pilot)
        await pilot.press("down", "end", "backspace")  # "enabled: tru": named at once
        view = pilot.app.main_screen.editor.frontmatter
        await wait_until(
            pilot, lambda: "enabled: tru" in view.area.text.splitlines() and bool(view.problem), "the message"
        )

    assert snap_compare(OdaApp(fixed_store, watch=False), terminal_size=size, run_before=open_block)


@pytest.fixture
def hygiene_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Duplicates, similar memories and agent saves waiting for review, at fixed moments."""
    monkeypatch.setenv("TZ", "UTC")
    monkeypatch.setenv("ODA_TUI_STATE", str(tmp_path / "state"))
    time.tzset()
    moments = (datetime(2024, 3, 5, 9, 0, tzinfo=UTC) + timedelta(minutes=i) for i in range(10_000))
    monkeypatch.setattr(store.memory_store, "now_utc", lambda: next(moments))
    monkeypatch.chdir(tmp_path)
    memories = MemoryStore(tmp_path / "memory")
    memories.create(GLOBAL, "Prefers uv", "Use uv, not pip.", source="ai", session_id="chat-42", via="chat")
    memories.create("web", "uv, not pip", "use UV -- not pip!")
    memories.create(GLOBAL, "Reply language", "Reply in English.")
    memories.create("web", "Reply language", "Reply in English, with code first.")
    stack = memories.create("web", "Stack", "Django and HTMX.", source="ai", session_id="chat-42", via="chat")
    memories.change("web", stack.id, text="Django 5 and HTMX, on Fly.io.")
    memories.change("web", stack.id, text="Django 5, HTMX and Celery, on Fly.io.", via="chat")
    yield Path("memory")
    time.tzset()


def test_duplicates(snap_compare, hygiene_store: Path) -> None:  # type: ignore[no-untyped-def]
    async def open_duplicates(pilot) -> None:  # type: ignore[no-untyped-def]
        await _loaded(pilot)
        await pilot.press("D")
        await settle(pilot)

    assert snap_compare(
        OdaApp(hygiene_store, watch=False), terminal_size=(80, 24), run_before=open_duplicates
    )


def test_review(snap_compare, hygiene_store: Path) -> None:  # type: ignore[no-untyped-def]
    async def open_review(pilot) -> None:  # type: ignore[no-untyped-def]
        await _loaded(pilot)
        await pilot.press("r")
        await settle(pilot)
        await pilot.press("down")
        review = pilot.app.screen
        await wait_until(
            pilot, lambda: shows_second(review, "#review-list", "#review-head"), "the second memory"
        )

    assert snap_compare(OdaApp(hygiene_store, watch=False), terminal_size=(80, 24), run_before=open_review)
