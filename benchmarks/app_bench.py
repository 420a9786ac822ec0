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


async def _until(predicate: Any, pilot: Any, timeout: float) -> None:
    deadline = time.perf_counter() + timeout
    while not predicate():
        if time.perf_counter() > deadline:
            raise NotMeasured(f"the app did not get there within {timeout} s")
        await pilot.pause(0.005)


def _loaded(app: Any) -> bool:
    try:
        screen = app.main_screen
    except LookupError:
        return False
    return bool(getattr(screen, "loaded", False)) and screen.snapshot is not None


async def _first_paint(root: Path, workspace: str | None) -> float:
    cls = _app_class()
    start = time.perf_counter()
    app = cls(root, workspace, watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await _until(lambda: _loaded(app), pilot, 120)
        await pilot.pause()
        return time.perf_counter() - start


async def _bare_start() -> float:
    from textual.app import App
    from textual.widgets import Static

    class Bare(App[None]):
        def compose(self) -> Any:
            yield Static("hello")

    start = time.perf_counter()
    app = Bare()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        return time.perf_counter() - start


def first_paint(root: Path, workspace: str | None, runs: int) -> dict[str, float]:
    """App start to the first full paint of the loaded store (cold: no index), beside a bare
    Textual app's start measured in the same run."""
    paints, bares = [], []
    for _ in range(runs):
        drop_index(root)
        paints.append(asyncio.run(_first_paint(root, workspace)))
        bares.append(asyncio.run(_bare_start()))
    return {"app_first_paint_s": statistics.median(paints), "bare_textual_s": statistics.median(bares)}


async def _filter(root: Path, workspace: str, words: str) -> list[float]:
    cls = _app_class()
    app = cls(root, workspace, watch=False)
    times: list[float] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await _until(lambda: _loaded(app), pilot, 120)
        screen = app.main_screen
        await pilot.press("slash")
        await pilot.pause()
        for char in words:
            before = list(screen.filter_words)
            start = time.perf_counter()
            await pilot.press(char if char != " " else "space")
            await _until(lambda b=before, c=char: screen.filter_words != b or c == " ", pilot, 10)
            await pilot.pause()
            times.append(time.perf_counter() - start)
    return times


def filter_keystroke(root: Path, workspace: str) -> dict[str, float]:
    """One keystroke in the filter (its repaint included) over the largest workspace."""
    times = asyncio.run(_filter(root, workspace, "deploy server"))
    return {"filter_p50_s": statistics.median(times), "filter_max_s": max(times)}


async def _watch(root: Path, workspace: str, writes: int) -> list[float]:
    cls = _app_class()
    app = cls(root, workspace, watch=True)
    latencies: list[float] = []
    folder = root / "workspaces" / workspace
    async with app.run_test(size=(120, 40)) as pilot:
        await _until(lambda: _loaded(app), pilot, 120)
        await pilot.pause(0.5)  # let the watcher start
        for i in range(writes):
            memory_id = f"ffff{i:04x}"
            content = f"---\ntitle: Watched {i}\nenabled: true\nsource: user\n---\n\nWritten outside.\n"
            start = time.perf_counter()
            (folder / f"{memory_id}.md").write_text(content)

            def shown(memory_id: str = memory_id) -> bool:
                snap = app.main_screen.snapshot
                return snap is not None and any(m.id == memory_id for m in snap.memories.get(workspace, ()))

            await _until(shown, pilot, 10)
            latencies.append(time.perf_counter() - start)
        for i in range(writes):
            (folder / f"ffff{i:04x}.md").unlink(missing_ok=True)
    return latencies


def watch_latency(root: Path, workspace: str, writes: int) -> dict[str, float]:
    """A file written outside the app until the app's picture shows it (p50, p95)."""
    lat = sorted(asyncio.run(_watch(root, workspace, writes)))
    p95 = lat[min(len(lat) - 1, round(0.95 * (len(lat) - 1)))]
    return {"watch_p50_s": statistics.median(lat), "watch_p95_s": p95, "writes": len(lat)}
