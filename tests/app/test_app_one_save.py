"""Pilot tests: a save from the app is one store call and one version; every kind of save (the
form, the frontmatter block, a problem file's fix) asks before writing secret-looking text."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import TextArea

from oda_tui.dialogs.secret import SecretDialog
from oda_tui.screens.problems import ProblemsScreen
from store import GLOBAL, Memory, MemoryStore
from tests.support.app import (
    memory_file,
    notices,
    open_view,
    run_app,
    settle,
    wait_until,
    write_raw,
    yaml_view,
)

PASSWORD_TEXT = "Wifi at the office: password: Hunter2-office!"


async def test_a_refused_save_leaves_no_version_and_no_switch_change(
    root: Path, limited: MemoryStore, off_beside_big: Memory
) -> None:
    off = off_beside_big
    path = limited.memory_path(GLOBAL, off.id)
    before, versions = path.read_bytes(), limited.versions(GLOBAL, off.id)
    async with run_app(root) as (_, pilot, screen):
        assert screen.editor.memory_id == off.id
        screen.editor.text_area.load_text("y" * 900)  # on, this would take the chat over 500
        screen.editor.switch.focus()
        await pilot.press("enter", "ctrl+s")
        await wait_until(pilot, lambda: screen.editor.save_error is not None, "the refusal")
        assert "the limit is 500" in (screen.editor.save_error or "")
        # Not a byte written: no switch turned on and back (that would rewrite ``updated``).
        assert path.read_bytes() == before
        assert MemoryStore(root).versions(GLOBAL, off.id) == versions
        assert screen.editor.is_dirty and screen.editor.switch.value is True


async def test_the_switch_and_the_text_are_saved_together_as_one_version(
    root: Path, store: MemoryStore
) -> None:
    memory = store.create(GLOBAL, "Tea", "Green.")
    async with run_app(root) as (app, pilot, screen):
        screen.editor.text_area.load_text("Green, no sugar.")
        screen.editor.switch.focus()
        await pilot.press("enter", "ctrl+s")
        await wait_until(pilot, lambda: not screen.editor.is_dirty, "the save")
        assert notices(app)[-1] == "Saved “Tea”."
    after = MemoryStore(root)
    assert (after.get(GLOBAL, memory.id).enabled, after.get(GLOBAL, memory.id).text) == (
        False,
        "Green, no sugar.",
    )
    assert [v.text for v in after.versions(GLOBAL, memory.id)] == ["Green, no sugar.", "Green."]


async def test_a_frontmatter_save_asks_about_secret_looking_text(root: Path, store: MemoryStore) -> None:
    memory = store.create(GLOBAL, "Wifi", "The office network.")
    path = store.memory_path(GLOBAL, memory.id)
    async with run_app(root) as (app, pilot, screen):
        editor = screen.editor
        area = await yaml_view(pilot, screen)
        area.load_text(area.text.replace("title: Wifi", "title: 'password: Hunter2-office!'"))
        before = path.read_bytes()
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, SecretDialog), "the secret question")
        dialog = app.screen
        assert isinstance(dialog, SecretDialog) and dialog.what == "a password"
        await pilot.press("n")
        await settle(pilot)
        assert path.read_bytes() == before and editor.is_dirty
        assert notices(app)[-1] == "Not saved. Your edits are still in the editor."
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, SecretDialog), "the question again")
        await pilot.press("y")
        await wait_until(pilot, lambda: not editor.is_dirty, "the block to be saved")
    assert MemoryStore(root).get(GLOBAL, memory.id).title == "password: Hunter2-office!"


async def test_a_problem_file_fix_asks_about_secret_looking_text(root: Path) -> None:
    broken = write_raw(MemoryStore(root).memory_path(GLOBAL, "0badf11e"), "Just text, no frontmatter.\n")
    async with run_app(root, size=(100, 30)) as (app, pilot, _):
        problems = await open_view(pilot, "exclamation_mark", ProblemsScreen)
        raw = problems.query_one("#problem-raw", TextArea)
        raw.load_text(memory_file("Wifi", PASSWORD_TEXT))
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, SecretDialog), "the secret question")
        await pilot.press("n")
        await settle(pilot)
        assert broken.read_text(encoding="utf-8") == "Just text, no frontmatter.\n"
        assert raw.text == memory_file("Wifi", PASSWORD_TEXT)
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, SecretDialog), "the question again")
        await pilot.press("y")
        # Fixed: no problem file now, and the memory is listed as a secret warning instead.
        await wait_until(
            pilot, lambda: [e.kind for e in problems.entries] == ["secret"], "the fix to be read"
        )
    assert [m.text for m in MemoryStore(root).memories(GLOBAL)] == [PASSWORD_TEXT]


async def test_save_and_quit_waits_for_the_answer_about_a_secret(root: Path) -> None:
    memory = MemoryStore(root).create(GLOBAL, "Wifi", "The office network.")
    async with run_app(root) as (app, pilot, screen):
        screen.editor.text_area.load_text(PASSWORD_TEXT)
        await pilot.press("ctrl+q", "s")
        await wait_until(pilot, lambda: isinstance(app.screen, SecretDialog), "the secret question")
        assert app.is_running and "Not quit: the edits are not saved yet." in notices(app)
        assert MemoryStore(root).get(GLOBAL, memory.id).text == "The office network."
