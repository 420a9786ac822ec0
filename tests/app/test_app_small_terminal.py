"""Pilot tests at 60x20: every line of every entry in the problems list can be read (no entry
loses its last line once the scrollbar takes its columns), and every button of the quit question
is on screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.geometry import Region
from textual.widgets import OptionList

from oda_tui.app import OdaApp
from oda_tui.dialogs.quit import QuitDialog
from oda_tui.screens.problems import ProblemsScreen
from store import GLOBAL, MemoryStore
from tests.support.app import memory_file, run_app, settle, wait_until, write_raw


def list_words(app: OdaApp, option_list: OptionList) -> str:
    """The words drawn inside the list's border, its lines joined by spaces."""
    region = option_list.region
    rows = [strip.text for strip in app.screen._compositor.render_strips()][region.y + 1 : region.bottom - 1]
    # Inside the border, without the scrollbar (drawn with the block characters).
    blocks = {code: " " for code in range(0x2580, 0x25A0)}
    inside = [row[region.x + 1 : region.right - 1].translate(blocks) for row in rows]
    return " ".join(" ".join(inside).split())


async def test_every_line_of_every_problem_is_drawn_at_60x20(root: Path, store: MemoryStore) -> None:
    store.create(GLOBAL, "Fine", "A good one.")
    write_raw(store.memory_path(GLOBAL, "0badf11e"), "no frontmatter\n")
    write_raw(store.memory_path(GLOBAL, "0badf12e"), "---\ntitle: [unclosed\n---\nx\n")
    write_raw(store.memory_path(GLOBAL, "0badf13e"), memory_file(enabled="maybe"))
    write_raw(store.memory_path("web", "0badf14e"), memory_file(title=""))
    write_raw(store.memory_path("web", "0badf15e"), b"\xff\xfe not UTF-8")
    async with run_app(root, size=(60, 20)) as (app, pilot, _):
        await pilot.press("exclamation_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, ProblemsScreen), "the problems")
        problems = app.screen
        assert isinstance(problems, ProblemsScreen)
        await wait_until(pilot, lambda: len(problems.entries) == 5, "the five problem files")
        option_list = problems.query_one("#problem-list", OptionList)
        assert option_list.show_vertical_scrollbar  # more than fits: the list scrolls
        for index, entry in enumerate(problems.entries):
            option_list.highlighted = index
            await settle(pilot)
            message = " ".join(entry.message.split())
            assert message in list_words(app, option_list), (index, message)


def drawn_in(app: OdaApp, region: Region) -> str:
    """The lines drawn in ``region`` of the screen."""
    rows = [strip.text for strip in app.screen._compositor.render_strips()][region.y : region.bottom]
    return "\n".join(row[region.x : region.right] for row in rows)


@pytest.mark.parametrize("size", [(60, 20), (70, 24), (80, 24), (120, 40)])
async def test_the_quit_question_shows_its_three_buttons_whole(root: Path, size: tuple[int, int]) -> None:
    MemoryStore(root).create(GLOBAL, "Tea", "Green tea.")
    async with run_app(root, size=size) as (app, pilot, screen):
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.editor.memory_id is not None, "the editor")
        await pilot.press("end", *" More", "ctrl+q")
        await wait_until(pilot, lambda: isinstance(app.screen, QuitDialog), "the quit question")
        shown = drawn_in(app, app.screen.query_one(".dialog").region)  # not the footer: the dialog
        for label in ("s Save and quit", "y Quit without saving", "n Keep editing"):
            assert label in shown, label
