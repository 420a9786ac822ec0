"""Helpers for the app's pilot tests: start the app, wait for workers and for the screen to catch
up, open a view, and read what is drawn."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from textual.command import CommandList, CommandPalette
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static, TextArea
from textual.widgets._footer import FooterKey

from oda_tui.app import OdaApp
from oda_tui.screens import MainScreen
from oda_tui.session.first_read import FirstRead
from oda_tui.text import glyphs
from oda_tui.widgets.key_footer import KeyFooter

from .files import memory_file, write_raw

# The tests (and the snapshots) draw the Unicode symbols whatever TERM the suite runs under.
glyphs.use_ascii(False)

# Bounded polling, never a timed assertion: each step yields to the app for a moment.
MAX_POLLS = 1500
POLL_S = 0.02

#: The size most pilot tests run at: wide enough for the list and the editor side by side.
WIDE = (120, 40)

ScreenT = TypeVar("ScreenT", bound=Screen[Any])


class Running(NamedTuple):
    """An app started by ``run_app``: the app, its pilot and its main screen, loaded."""

    app: OdaApp
    pilot: Pilot[None]
    screen: MainScreen


@asynccontextmanager
async def run_app(
    root: Path,
    workspace: str | None = None,
    *,
    watch: bool = False,
    size: tuple[int, int] = WIDE,
    notifications: bool = False,
    first_read: FirstRead | None = None,
    root_named: bool = False,
) -> AsyncIterator[Running]:
    """The app on ``root`` under a pilot, once its store is loaded and its detail pane there (and,
    with ``watch``, its watch in place): what a person sees once it has started. ``root_named``:
    the root was named on purpose (``--root``, ``$ODA_HOME``), not the platform's default."""
    app = OdaApp(root, workspace, watch=watch, first_read=first_read, root_named=root_named)
    async with app.run_test(size=size, notifications=notifications) as pilot:
        screen = await started(pilot)
        yield Running(app, pilot, screen)


def main_screen(pilot: Pilot[None]) -> MainScreen:
    """The app's main screen (under any dialog)."""
    return oda_app(pilot).main_screen


def oda_app(pilot: Pilot[None]) -> OdaApp:
    """The app a pilot drives."""
    app = pilot.app
    assert isinstance(app, OdaApp)
    return app


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
    watcher = oda_app(pilot).watcher
    if watcher is not None:
        await wait_until(
            pilot, lambda: watcher.watching.is_set() and not watcher.has_pending, "the watch to be in place"
        )
    return screen


async def open_view(pilot: Pilot[None], key: str, kind: type[ScreenT]) -> ScreenT:
    """Press ``key`` on the main screen, check that it opened a view of ``kind`` at once, and
    wait for the view's workers: the view, typed."""
    await pilot.press(key)
    view = pilot.app.screen
    assert isinstance(view, kind), (type(view).__name__, kind.__name__)
    await settle(pilot)
    return view


async def palette_results(pilot: Pilot[None], search: str) -> CommandPalette:
    """Open the command palette, type ``search`` and wait for its results: the palette."""
    await pilot.press("ctrl+p", *search)
    palette = pilot.app.screen
    assert isinstance(palette, CommandPalette)
    await settle(pilot)
    await wait_until(pilot, lambda: palette_list(palette).option_count > 0, "the palette's results")
    return palette


def palette_list(palette: CommandPalette) -> CommandList:
    """The palette's list of hits."""
    return palette.query_one(CommandList)


async def yaml_view(pilot: Pilot[None], screen: MainScreen) -> TextArea:
    """From the editor's text, F2: the memory's frontmatter as YAML, once it is shown."""
    editor = screen.editor
    editor.text_area.focus()
    await pilot.press("f2")
    await wait_until(pilot, lambda: editor.raw_mode, "the raw frontmatter view")
    return editor.frontmatter.area


def notices(app: OdaApp) -> list[str]:
    """The notifications the app has shown, oldest first."""
    return [n.message for n in app._notifications]


def screen_text(app: OdaApp) -> str:
    """Everything on screen, as the terminal would receive it (text only)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def footer_keys(screen: Screen[Any]) -> dict[str, bool]:
    """Each key ``screen``'s footer shows, and whether it is enabled."""
    footer = screen.query_one(KeyFooter)
    return {key.action: not key.disabled for key in footer.query(FooterKey)}


def offered(screen: Screen[Any]) -> set[str]:
    """The actions ``screen``'s footer offers (shown and enabled)."""
    return {action for action, enabled in footer_keys(screen).items() if enabled}


def sub_title(screen: MainScreen) -> str:
    """The line under the main screen's title: the problem files, duplicates and reviews to see."""
    title = screen.sub_title
    assert title is not None
    return title


def focused(screen: Screen[Any]) -> Widget | None:
    """What has the focus on ``screen`` now (read afresh: a call, so a check before an await
    does not narrow what a check after it may find)."""
    return screen.focused


def cell_text(screen: MainScreen, memory_id: str, column: str) -> str:
    """The plain text of one cell of the memory list."""
    return screen.table.cell_text(memory_id, column)


def static_text(widget: object) -> str:
    """The text a Static shows."""
    assert isinstance(widget, Static)
    return str(widget.content)


__all__ = [
    "WIDE",
    "Running",
    "cell_text",
    "closed",
    "focused",
    "footer_keys",
    "main_screen",
    "memory_file",
    "notices",
    "oda_app",
    "offered",
    "open_view",
    "palette_list",
    "palette_results",
    "poll_until",
    "run_app",
    "screen_text",
    "settle",
    "started",
    "static_text",
    "sub_title",
    "wait_until",
    "write_raw",
    "yaml_view",
]
