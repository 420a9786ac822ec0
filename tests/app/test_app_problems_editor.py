"""The Problems screen's editor is an editor like the main one: leaving unsaved edits asks
first, the error line is not selected, a save keeps the focus, the file is checked as the
person types, the edits survive a closed terminal, and a newer outside save is never replaced."""

from __future__ import annotations

import os
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import OptionList, TextArea

from oda_tui.dialogs.confirm import ConfirmDialog
from oda_tui.own_files.file_drafts import file_draft, file_draft_path
from oda_tui.screens.main import MainScreen
from oda_tui.screens.problems import ProblemsScreen
from store import GLOBAL, MemoryStore
from tests.support.app import closed, notices, open_view, run_app, settle, static_text, wait_until, write_raw
from tests.support.files import memory_file

BROKEN = "---\ntitle: [unclosed\nenabled: true\nsource: user\n---\n\nText.\n"
#: The line the YAML error names, once `` XYZ`` is typed at its end.
TYPED = "enabled: true XYZ"


def two_problem_files(store: MemoryStore) -> tuple[Path, Path]:
    first = write_raw(store.memory_path(GLOBAL, "0badf11e"), BROKEN)
    second = write_raw(store.memory_path(GLOBAL, "0badf22e"), "no frontmatter\n")
    return first, second


async def typed_into_first(pilot: Pilot[None]) -> tuple[ProblemsScreen, TextArea]:
    """The Problems screen open on the first file, `` XYZ`` typed at the end of its error line."""
    problems = await open_view(pilot, "exclamation_mark", ProblemsScreen)
    raw = problems.query_one("#problem-raw", TextArea)
    await pilot.press("tab", "end", "space", "X", "Y", "Z")
    assert raw.has_focus and problems.is_dirty
    return problems, raw


async def test_esc_with_unsaved_edits_asks_first(root: Path, store: MemoryStore) -> None:
    first, _ = two_problem_files(store)
    async with run_app(root) as (app, pilot, _):
        problems, raw = await typed_into_first(pilot)
        await pilot.press("escape")
        assert isinstance(app.screen, ConfirmDialog)
        assert "Discard your unsaved changes to global/0badf11e.md?" in app.screen.question
        await pilot.press("n")  # keep editing
        assert pilot.app.screen is problems and TYPED in raw.text
        await pilot.press("escape", "y")  # discard
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
    assert first.read_text(encoding="utf-8") == BROKEN


async def test_moving_to_another_file_with_unsaved_edits_asks_first(root: Path, store: MemoryStore) -> None:
    two_problem_files(store)
    async with run_app(root) as (app, pilot, _):
        problems, raw = await typed_into_first(pilot)
        await pilot.press("shift+tab", "down")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")
        await settle(pilot)
        assert problems.query_one("#problem-list", OptionList).highlighted == 0
        assert problems.shown is not None and problems.shown.name == "0badf11e.md"
        assert TYPED in raw.text
        await pilot.press("down", "y")
        await settle(pilot)
        assert problems.shown is not None and problems.shown.name == "0badf22e.md"
        assert raw.text == "no frontmatter\n"


async def test_ctrl_q_with_unsaved_edits_asks_first(root: Path, store: MemoryStore) -> None:
    two_problem_files(store)
    async with run_app(root) as (app, pilot, _):
        problems, raw = await typed_into_first(pilot)
        await pilot.press("ctrl+q")
        assert isinstance(app.screen, ConfirmDialog)
        assert "Quit and discard your unsaved changes to global/0badf11e.md?" in app.screen.question
        await pilot.press("n")
        assert app.is_running and pilot.app.screen is problems and "XYZ" in raw.text
        await pilot.press("ctrl+q", "y")
        await closed(pilot)


async def test_after_saving_a_file_still_broken_the_focus_stays_in_the_editor(
    root: Path, store: MemoryStore
) -> None:
    first, _ = two_problem_files(store)
    async with run_app(root) as (_, pilot, _):
        problems, raw = await typed_into_first(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert first.read_text(encoding="utf-8").startswith("---\ntitle: [unclosed\n" + TYPED)
        assert raw.has_focus and not problems.is_dirty
        await pilot.press("e")  # typed, not the list's "open in $EDITOR"
        assert TYPED + "e" in raw.text


async def test_the_file_is_checked_again_as_the_person_types(root: Path, store: MemoryStore) -> None:
    write_raw(store.memory_path(GLOBAL, "0badf11e"), BROKEN)
    async with run_app(root) as (_, pilot, _):
        problems = await open_view(pilot, "exclamation_mark", ProblemsScreen)
        raw = problems.query_one("#problem-raw", TextArea)
        check = problems.query_one("#problem-check")
        await pilot.press("tab", "up", "home", *["right"] * 7, "delete")  # "[" gone: a memory
        await wait_until(pilot, lambda: "is a memory" in static_text(check), "the check as typed")
        assert raw.text.startswith("---\ntitle: unclosed\n")
        await pilot.press("home", "backspace")  # the title line joins the --- line
        expected = MemoryStore(root).check_file(raw.text.encode())
        assert expected is not None
        await wait_until(pilot, lambda: expected[0] in static_text(check), "the store's words as typed")


async def test_problems_edits_survive_a_closed_terminal(root: Path, store: MemoryStore) -> None:
    first, _ = two_problem_files(store)
    async with run_app(root) as (app, pilot, _):
        await typed_into_first(pilot)
        app.exit_from_outside()  # the terminal was closed
        await closed(pilot)
    async with run_app(root, notifications=True) as (app, pilot, _):
        assert any("0badf11e.md in Problems were kept" in n for n in notices(app))
        problems = await open_view(pilot, "exclamation_mark", ProblemsScreen)
        raw = problems.query_one("#problem-raw", TextArea)
        await wait_until(pilot, lambda: TYPED in raw.text, "the draft back")
        assert problems.is_dirty
        await pilot.press("tab", "ctrl+s")
        await settle(pilot)
    assert first.read_text(encoding="utf-8").startswith("---\ntitle: [unclosed\n" + TYPED)


async def test_a_newer_outside_save_is_not_replaced_and_the_edits_stay(
    root: Path, store: MemoryStore
) -> None:
    first, _ = two_problem_files(store)
    theirs = "---\ntitle: [still broken, but newer\n---\n\ntheir paragraph\n"
    async with run_app(root, notifications=True) as (app, pilot, _):
        problems, raw = await typed_into_first(pilot)
        tmp = first.with_name("editor.tmp")
        tmp.write_text(theirs, encoding="utf-8")
        os.replace(tmp, first)  # another program saves the file, still broken
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert first.read_text(encoding="utf-8") == theirs
        assert TYPED in raw.text and problems.is_dirty
        assert any("another program saved this file" in n for n in notices(app))


async def test_a_fix_over_a_newer_outside_memory_keeps_it_as_a_version(
    root: Path, store: MemoryStore
) -> None:
    first, _ = two_problem_files(store)
    async with run_app(root) as (_, pilot, _):
        problems = await open_view(pilot, "exclamation_mark", ProblemsScreen)
        raw = problems.query_one("#problem-raw", TextArea)
        first.write_text(memory_file("Theirs", "saved by another program"), encoding="utf-8")
        raw.load_text(memory_file("Mine", "fixed in the app"))
        await pilot.press("ctrl+s")
        await settle(pilot)
    fresh = MemoryStore(root)
    assert fresh.get(GLOBAL, "0badf11e").title == "Mine"
    assert [(v.source, v.title) for v in fresh.versions(GLOBAL, "0badf11e")] == [
        ("settings", "Mine"),
        ("external", "Theirs"),
    ]


async def test_a_file_saved_as_a_memory_leaves_the_list_without_a_question(
    root: Path, store: MemoryStore
) -> None:
    first, second = two_problem_files(store)
    async with run_app(root) as (app, pilot, _):
        problems = await open_view(pilot, "exclamation_mark", ProblemsScreen)
        raw = problems.query_one("#problem-raw", TextArea)
        await pilot.press("tab", "up", "home", *["right"] * 7, "delete", "ctrl+s")  # "[" gone: a memory
        await settle(pilot)
        assert pilot.app.screen is problems  # no question: nothing unsaved was dropped
        assert [e.path for e in problems.entries] == [second]
        await wait_until(pilot, lambda: raw.text == "no frontmatter\n", "the next file shown")
    assert MemoryStore(root).get(GLOBAL, "0badf11e").title == "unclosed"


async def test_a_draft_of_a_file_fixed_since_says_where_its_text_is(root: Path, store: MemoryStore) -> None:
    first, _ = two_problem_files(store)
    async with run_app(root) as (app, pilot, _):
        await typed_into_first(pilot)
        app.exit_from_outside()
        await closed(pilot)
    first.write_text(memory_file("Fixed outside", "Another program fixed it."), encoding="utf-8")
    async with run_app(root, notifications=True) as (app, _, _):
        [said] = [n for n in notices(app) if "0badf11e.md in Problems" in n]
        assert "no longer a problem file" in said and file_draft_path(root, "global/0badf11e.md").name in said
        assert file_draft(root, "global/0badf11e.md") is not None  # still kept: it is the person's text


async def test_edits_stay_when_their_file_leaves_the_list(root: Path, store: MemoryStore) -> None:
    first, _ = two_problem_files(store)
    async with run_app(root) as (app, pilot, _):
        problems, raw = await typed_into_first(pilot)
        first.write_text(memory_file("Fixed outside", "Another program fixed it."), encoding="utf-8")
        problems.session.store.refresh()
        problems.load()  # the list read again (as after any change made here)
        await settle(pilot)
        assert pilot.app.screen is problems  # no question opened by itself
        assert TYPED in raw.text and problems.is_dirty
        assert problems.shown == first  # a save writes them to their own file, never another
