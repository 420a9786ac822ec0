"""Pilot tests: the title bar keeps the app's name beside what needs a look, and each item's
key, at 80 columns as at 120."""

from __future__ import annotations

from pathlib import Path

import pytest

from oda_tui.app import OdaApp
from store import GLOBAL, MemoryStore
from tests.support.app import run_app, sub_title, wait_until, write_raw


def header_line(app: OdaApp) -> str:
    """The header's line as drawn."""
    return app.screen._compositor.render_strips()[0].text


@pytest.mark.parametrize("width", [80, 120, 200])
async def test_the_title_bar_keeps_the_name_and_every_items_key(
    root: Path, store: MemoryStore, width: int
) -> None:
    store.create(GLOBAL, "Tea", "Green tea.")
    store.create(GLOBAL, "Tea again", "Green tea.")  # a duplicate
    store.create(GLOBAL, "Stack", "Django.", source="ai", via="chat")  # to review
    write_raw(store.memory_path(GLOBAL, "0badf11e"), "no frontmatter\n")  # a problem file
    async with run_app(root, size=(width, 24)) as (app, pilot, screen):
        await wait_until(pilot, lambda: "duplicates" in sub_title(screen), "the marks")
        await wait_until(pilot, lambda: "duplicates" in header_line(app), "the marks drawn")
        line = header_line(app)
        assert "Oda memory" in line
        if width >= 120:
            for item in ("1 problem file (press !)", "1 to review (press r)", "duplicates ≡ (press D)"):
                assert item in line, (item, line)
        else:  # in short, each with its key first, as the footer shows keys
            for item in ("! 1 problem", "r 1 to review", "D duplicates ≡"):
                assert item in line, (item, line)
        assert "…" not in line.split("D duplicates ≡")[0].split("(press D)")[0]  # no item is cut
        if width >= 200:
            assert str(root) in line


async def test_the_title_bar_is_fitted_again_when_the_terminal_narrows(
    root: Path, store: MemoryStore
) -> None:
    store.create(GLOBAL, "Stack", "Django.", source="ai", via="chat")  # to review
    async with run_app(root, size=(120, 24)) as (app, pilot, screen):
        await wait_until(pilot, lambda: "to review" in sub_title(screen), "the marks")
        await wait_until(pilot, lambda: "to review" in header_line(app), "the marks drawn")
        assert "1 to review (press r)" in header_line(app)
        await pilot.resize_terminal(60, 24)
        fitted = "Oda memory — 1 to review (press r)"
        await wait_until(
            pilot, lambda: header_line(app).split("⭘")[1].strip() == fitted, "the line fitted again"
        )
        line = header_line(app)
        assert line.split("⭘")[1].strip() == "Oda memory — 1 to review (press r)", line
