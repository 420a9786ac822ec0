"""Helpers for the app's pilot tests: wait for workers and for the screen to catch up."""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import Callable

from textual.pilot import Pilot

from oda_tui.app import OdaApp
from oda_tui.screens import MainScreen
from oda_tui.text import glyphs

from .files import memory_file, write_raw

# The app reads (and on a theme change writes) its config folder: never the real one in tests.
os.environ.setdefault("ODA_TUI_CONFIG", tempfile.mkdtemp(prefix="oda-tui-config-"))
# Review marks are app state: never the person's own state folder either.
os.environ.setdefault("ODA_TUI_STATE", tempfile.mkdtemp(prefix="oda-tui-state-"))

# The tests (and the snapshots) draw the Unicode symbols whatever TERM the suite runs under.
glyphs.use_ascii(False)

# Bounded polling, never a timed assertion: each step yields to the app for a moment.
MAX_POLLS = 1500
POLL_S = 0.02


def main_screen(pilot: Pilot[None]) -> MainScreen:
    """The app's main screen (under any dialog)."""
    app = pilot.app
    assert isinstance(app, OdaApp)
    return app.main_screen


async def settle(pilot: Pilot[None]) -> None:
    """Wait until every store worker (not the watcher) has finished and its message is painted."""
    app = pilot.app
    for _ in range(MAX_POLLS):
        busy = [w for w in app.workers if w.group != "watcher" and not w.is_finished]
        if busy:
            await app.workers.wait_for_complete(busy)
        await pilot.pause()
        if not [w for w in app.workers if w.group != "watcher" and not w.is_finished]:
            return
    raise AssertionError("workers did not finish")


async def wait_until(pilot: Pilot[None], condition: Callable[[], bool], what: str) -> None:
    """Poll until ``condition`` holds (the watcher runs in real time), else fail naming ``what``."""
    for _ in range(MAX_POLLS):
        if condition():
            await settle(pilot)
            if condition():
                return
        await pilot.pause(POLL_S)
    raise AssertionError(f"timed out waiting for: {what}")


async def poll_until(pilot: Pilot[None], condition: Callable[[], bool], what: str) -> None:
    """Poll until ``condition`` holds without waiting for the workers (for a test that holds the
    store lock, which they wait for), else fail naming ``what``."""
    for _ in range(MAX_POLLS):
        if condition():
            return
        await pilot.pause(POLL_S)
    raise AssertionError(f"timed out waiting for: {what}")


async def closed(pilot: Pilot[None]) -> None:
    """Wait until the app has stopped running (after its exit was asked for); the app has no
    screen left to pause on, so this polls the event loop itself."""
    app = pilot.app
    for _ in range(MAX_POLLS):
        if not app.is_running:
            return
        await asyncio.sleep(POLL_S)
    raise AssertionError("the app did not close")


async def started(pilot: Pilot[None]) -> MainScreen:
    """Wait for the initial load and the detail pane and, when the app watches the disk, for the watch to be in
    place and its first comparison done; return the main screen."""
    screen = main_screen(pilot)
    await wait_until(pilot, lambda: screen.loaded and screen.detail_ready, "the store to load")
    app = pilot.app
    assert isinstance(app, OdaApp)
    watcher = app.watcher
    if watcher is not None:
        await wait_until(
            pilot, lambda: watcher.watching.is_set() and not watcher.has_pending, "the watch to be in place"
        )
    return screen


def cell_text(screen: MainScreen, memory_id: str, column: str) -> str:
    """The plain text of one cell of the memory list."""
    return screen.table.cell_text(memory_id, column)


def static_text(widget: object) -> str:
    """The text a Static shows."""
    from textual.widgets import Static

    assert isinstance(widget, Static)
    return str(widget.content)


__all__ = [
    "cell_text",
    "main_screen",
    "memory_file",
    "settle",
    "started",
    "static_text",
    "wait_until",
    "write_raw",
]
