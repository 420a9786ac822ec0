"""Pilot tests at 80x24 and 60x20: every dialog, however long what it shows (a long memory's
diff, a long title, a long question), fits the screen with its buttons whole on it; what does not
fit scrolls inside the dialog instead of pushing the buttons out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.containers import ScrollableContainer
from textual.geometry import Region
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, OptionList

from oda_tui.app import OdaApp
from oda_tui.dialogs import ConfirmDialog, ConflictDialog, SecretDialog
from oda_tui.dialogs.body import DialogBody
from oda_tui.dialogs.quit import QuitDialog
from oda_tui.dialogs.scope_picker import ScopePicker
from oda_tui.session.assistant_sync import ASK
from oda_tui.widgets.key_footer import KeyFooter
from store import GLOBAL, MemoryStore
from store.messages import KINDS, LOOKS_SECRET, describe_kinds
from tests.support.app import run_app, settle, wait_until

SMALL = [(80, 24), (60, 20)]
LONG_TITLE = ("A title long enough to need several lines in any dialog " * 3)[:120]
#: A title at the length limit in a script whose characters take two columns each.
WIDE_TITLE = ("長いお茶の題名と説明文" * 11)[:120]
#: Sixty lines, each of which the other program changes: a diff far taller than any screen.
LONG_TEXT = "\n".join(f"Line {n} about tea and coffee." for n in range(60))


def above_footer(app: OdaApp, dialog: Screen[Any]) -> Region:
    """The screen's rows above the dialog's key footer."""
    return Region(0, 0, app.size.width, dialog.query_one(KeyFooter).region.y)


def assert_within_screen(app: OdaApp, dialog: Screen[Any], parts: list[Widget]) -> None:
    """The dialog's box lies whole above its footer, and each of ``parts`` whole inside the box."""
    screen = above_footer(app, dialog)
    box = dialog.query_one(".dialog").region
    assert screen.contains_region(box), (box, screen)
    assert parts
    for part in parts:
        region = part.region
        assert region.height > 0 and box.contains_region(region), (part, region, box)


def buttons(dialog: Screen[Any]) -> list[Widget]:
    """The dialog's buttons."""
    return list(dialog.query(Button))


@pytest.mark.parametrize("size", SMALL)
async def test_the_conflict_prompt_of_a_long_memory_fits(root: Path, size: tuple[int, int]) -> None:
    store = MemoryStore(root)
    memory = store.create(GLOBAL, LONG_TITLE, LONG_TEXT)
    async with run_app(root, size=size, watch=True) as (app, pilot, screen):
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.editor.memory_id is not None, "the editor")
        await pilot.press("end", *" mine")
        path = store.memory_path(GLOBAL, memory.id)
        path.write_text(path.read_text(encoding="utf-8").replace("Line", "Row"), encoding="utf-8")
        await wait_until(pilot, lambda: isinstance(app.screen, ConflictDialog), "the conflict prompt")
        await settle(pilot)
        dialog = app.screen
        assert_within_screen(app, dialog, buttons(dialog))
        body = dialog.query_one(DialogBody)
        assert body.max_scroll_y > 0  # the diff scrolls in what room the buttons leave
        body.scroll_end(animate=False)
        await settle(pilot)
        assert_within_screen(app, dialog, buttons(dialog))  # scrolled to the end, still there
        assert dialog.query_one("#conflict-diff").region.bottom <= body.region.bottom


#: Where a project may well be: its path is quoted whole by the sync question.
DEEP_PROJECT = "/home/someone/work/clients/" + "/".join(f"a-rather-long-folder-name-{n}" for n in range(8))
ALL_FILES = "CLAUDE.md, AGENTS.md, GEMINI.md, .github/copilot-instructions.md"


def question_dialogs() -> dict[str, ConfirmDialog]:
    """Each question the app asks, with the longest text it may well hold (a title at its limit
    in two-column characters, a project deep in folders)."""
    return {
        "delete": ConfirmDialog(
            f"Delete “{WIDE_TITLE}” from Global?",
            yes="Delete",
            detail="It moves to Recently deleted, where you can restore it. Your unsaved edits to it are lost.",
        ),
        "quit": QuitDialog(
            f"Quit and discard your unsaved changes to “{WIDE_TITLE}”?",
            yes="Quit without saving",
            no="Keep editing",
        ),
        "secret": SecretDialog(describe_kinds(KINDS), LOOKS_SECRET.format(what=describe_kinds(KINDS))),
        "sync": ConfirmDialog(
            ASK.format(key="web", names=ALL_FILES, project=DEEP_PROJECT), yes="Sync", danger=False
        ),
    }


@pytest.mark.parametrize("size", SMALL)
@pytest.mark.parametrize("name", sorted(question_dialogs()))
async def test_every_question_fits_with_its_longest_text(
    root: Path, size: tuple[int, int], name: str
) -> None:
    MemoryStore(root).create(GLOBAL, "Tea", "Green tea.")
    async with run_app(root, size=size) as (app, pilot, _):
        dialog = question_dialogs()[name]
        await app.push_screen(dialog)
        await settle(pilot)
        assert_within_screen(app, dialog, buttons(dialog))
        for scroller in dialog.query(ScrollableContainer):
            scroller.scroll_end(animate=False)
        await settle(pilot)
        # Scrolled to the end, the last words are in view above the buttons (not under them).
        last = list(dialog.query(".dialog-question, .dialog-detail"))[-1]
        top_of_buttons = min(button.region.y for button in buttons(dialog))
        assert last.region.bottom <= top_of_buttons, (last.region, top_of_buttons)


@pytest.mark.parametrize("size", SMALL)
async def test_the_scope_picker_fits_with_a_long_title_and_many_workspaces(
    root: Path, size: tuple[int, int]
) -> None:
    MemoryStore(root).create(GLOBAL, "Tea", "Green tea.")
    async with run_app(root, size=size) as (app, pilot, _):
        picker = ScopePicker(f"Move “{LONG_TITLE}” to:", [None, *(f"ws-{n}" for n in range(30))])
        await app.push_screen(picker)
        await settle(pilot)
        choices = picker.query_one("#scope-choices", OptionList)
        assert_within_screen(app, picker, [choices])
        assert choices.region.height >= 5
        assert picker.focused is choices
        # "New workspace…", then a key that is not one: the field and the rule shown under the list.
        choices.highlighted = choices.option_count - 1
        await pilot.press("enter", *"no/slash", "enter")
        await settle(pilot)
        assert picker.has_class("-new")
        assert_within_screen(
            app, picker, [choices, picker.query_one("#new-key"), picker.query_one("#new-key-problem")]
        )


async def test_tab_reaches_the_text_only_when_it_scrolls(root: Path) -> None:
    store = MemoryStore(root)
    memory = store.create(GLOBAL, "Notes", LONG_TEXT)
    async with run_app(root, size=(80, 24), watch=True) as (app, pilot, screen):
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.editor.memory_id is not None, "the editor")
        await pilot.press("end", *" mine")
        path = store.memory_path(GLOBAL, memory.id)
        path.write_text(path.read_text(encoding="utf-8").replace("Line", "Row"), encoding="utf-8")
        await wait_until(pilot, lambda: isinstance(app.screen, ConflictDialog), "the conflict prompt")
        await settle(pilot)
        dialog = app.screen
        body = dialog.query_one(DialogBody)
        await pilot.press("tab")  # from Keep mine, round to the text
        assert dialog.focused is body
        await pilot.press("pagedown")
        await settle(pilot)
        assert body.scroll_y > 0
        await pilot.press("k")
        await settle(pilot)
        # A short question: Tab goes from button to button only.
        question = ConfirmDialog("Delete “Notes” from Global?", yes="Delete")
        await app.push_screen(question)
        await settle(pilot)
        seen = set()
        for _ in range(4):
            await pilot.press("tab")
            seen.add(question.focused)
        assert seen == set(question.query(Button))
