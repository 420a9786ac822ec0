"""App measurements, headless with Textual's ``run_test``. Each returns numbers or raises
``NotMeasured`` with the reason: a number is never made up."""

from __future__ import annotations

import asyncio
import statistics
import time
from pathlib import Path
from typing import Any

from .measure import drop_index


class NotMeasured(Exception):
    """The measurement could not be taken; the message says why."""


def _app_class() -> Any:
    try:
        from oda_tui.app import OdaApp
    except Exception as exc:  # noqa: BLE001 - any import failure means "not measured"
        raise NotMeasured(f"oda_tui.app.OdaApp cannot be imported ({type(exc).__name__}: {exc})") from exc
    return OdaApp


class _Frames:
    """Timestamps of the frames an app composes (headless: composed, not written to a tty).

    ``wait(predicate)`` resolves at the first frame composed while ``predicate`` holds, so a
    measurement ends when the person would see the result, and no polling (which forces
    extra repaints and competes with the app's workers for the GIL) runs meanwhile.
    """

    def __init__(self) -> None:
        self.waiters: list[tuple[Any, asyncio.Future[float]]] = []

    def frame(self) -> None:
        now = time.perf_counter()
        for entry in list(self.waiters):
            predicate, future = entry
            try:
                holds = bool(predicate())
            except LookupError:  # no main screen (yet, or any more)
                holds = False
            if not future.done() and holds:
                future.set_result(now)
                self.waiters.remove(entry)

    async def wait(self, predicate: Any, timeout: float) -> float:
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.waiters.append((predicate, future))
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError as exc:
            raise NotMeasured(f"the app did not get there within {timeout} s") from exc


def _timed(app: Any) -> Any:
    """``app`` with a hook on every composed frame (``app.frames``); returns the app."""
    app.frames = _Frames()
    display = app._display

    def _display(screen: Any, renderable: Any) -> None:
        display(screen, renderable)
        if renderable is not None:
            app.frames.frame()

    app._display = _display
    return app


def _loaded(app: Any) -> bool:
    try:
        screen = app.main_screen
    except LookupError:
        return False
    return bool(getattr(screen, "loaded", False)) and screen.snapshot is not None


def _rows_painted(app: Any) -> bool:
    """The store is loaded and the memory list has painted its rows (not "Reading…")."""
    if not _loaded(app):
        return False
    return _table_painted(app.main_screen.table)


def _table_painted(table: Any) -> bool:
    """The memory list's last change of rows is in the frame being composed."""
    return bool(table.painted_generation == table.shown_generation)


async def _first_paint(root: Path, workspace: str | None) -> float:
    cls = _app_class()
    start = time.perf_counter()
    app = _timed(cls(root, workspace, watch=False))
    async with app.run_test(size=(120, 40)):
        end: float = await app.frames.wait(lambda: _rows_painted(app), 120)
        return end - start


async def _bare_start() -> float:
    from textual.app import App
    from textual.widgets import Static

    class Bare(App[None]):
        def compose(self) -> Any:
            yield Static("hello")

    start = time.perf_counter()
    app = _timed(Bare())
    async with app.run_test(size=(120, 40)):
        end: float = await app.frames.wait(lambda: True, 30)
        return end - start


def first_paint(root: Path, workspace: str | None, runs: int) -> dict[str, float]:
    """App start (the app object created) to the first composed frame that shows the loaded
    store's rows (cold: no index), beside a bare Textual app's start to its first frame,
    measured the same way in the same run."""
    paints, bares = [], []
    asyncio.run(_bare_start())  # import Textual and warm it up for both
    for _ in range(runs):
        drop_index(root)
        paints.append(asyncio.run(_first_paint(root, workspace)))
        bares.append(asyncio.run(_bare_start()))
    return {"app_first_paint_s": statistics.median(paints), "bare_textual_s": statistics.median(bares)}


async def _filter(root: Path, workspace: str, words: str) -> list[float]:
    """Per keystroke: from the key event reaching the app to the first frame composed with
    the list filtered by it (Pilot's own overhead is outside the interval)."""
    from textual import events

    cls = _app_class()
    arrived: dict[str, float] = {}

    def hook(message: Any) -> None:
        if isinstance(message, events.Key) and message.key not in arrived:
            arrived[message.key] = time.perf_counter()

    app = _timed(cls(root, workspace, watch=False))
    times: list[float] = []
    async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
        await app.frames.wait(lambda: _rows_painted(app), 120)
        screen = app.main_screen
        await pilot.press("slash")
        await pilot.pause()
        typed = ""
        for char in words:
            typed += char
            want = typed.casefold().split()
            key = char if char != " " else "space"
            arrived.pop(key, None)
            painted = asyncio.ensure_future(
                app.frames.wait(
                    lambda w=want: (
                        screen.browse.filter_words == w
                        and _filter_shown(screen)
                        and _table_painted(screen.table)
                    ),
                    10,
                )
            )
            await pilot.press(key)
            end = await painted
            times.append(end - arrived[key])
            await pilot.pause()
    return times


def _filter_shown(screen: Any) -> bool:
    """The list shows the current filter's result (a screen that filters in the background
    says so with ``filter_pending``)."""
    return not getattr(screen, "filter_pending", False)


def filter_keystroke(root: Path, workspace: str) -> dict[str, float]:
    """One keystroke in the filter (its repaint included) over the largest workspace."""
    times = asyncio.run(_filter(root, workspace, "deploy server"))
    return {"filter_p50_s": statistics.median(times), "filter_max_s": max(times)}


async def _watch(root: Path, workspace: str, writes: int) -> list[float]:
    """A file written by another process until the first frame composed that lists it."""
    app = _timed(_app_class()(root, workspace, watch=True))
    latencies: list[float] = []
    folder = root / "workspaces" / workspace
    async with app.run_test(size=(120, 40)) as pilot:
        await app.frames.wait(lambda: _rows_painted(app), 120)
        await pilot.pause(0.5)  # let the watcher start
        for i in range(writes):
            memory_id = f"ffff{i:04x}"
            content = f"---\ntitle: Watched {i}\nenabled: true\nsource: user\n---\n\nWritten outside.\n"

            def shown(memory_id: str = memory_id) -> bool:
                table = app.main_screen.table
                return table.has_memory(memory_id) and _table_painted(table)

            painted = asyncio.ensure_future(app.frames.wait(shown, 10))
            start = time.perf_counter()
            (folder / f"{memory_id}.md").write_text(content)
            end = await painted
            latencies.append(end - start)
            await pilot.pause(0.05)
        for i in range(writes):
            (folder / f"ffff{i:04x}.md").unlink(missing_ok=True)
    return latencies


def watch_latency(root: Path, workspace: str, writes: int) -> dict[str, float]:
    """A file written outside the app until the app's picture shows it (p50, p95)."""
    lat = sorted(asyncio.run(_watch(root, workspace, writes)))
    p95 = lat[min(len(lat) - 1, round(0.95 * (len(lat) - 1)))]
    return {"watch_p50_s": statistics.median(lat), "watch_p95_s": p95, "writes": len(lat)}
