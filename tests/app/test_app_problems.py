"""Pilot tests of the problems view: fix a file in place, and open files in $EDITOR."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from textual.widgets import TextArea

from oda_tui.screens.problems import ProblemsScreen
from store import GLOBAL, MemoryStore
from tests.support.app import (
    memory_file,
    notices,
    open_view,
    run_app,
    settle,
    static_text,
    wait_until,
    write_raw,
)


def fake_editor(tmp_path: Path, script: str) -> Path:
    """An executable that edits the file named by its first argument."""
    path = tmp_path / "fake-editor"
    path.write_text(f"#!/bin/sh\n{script}\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


async def test_fix_a_problem_file_in_the_app(root: Path, store: MemoryStore) -> None:
    store.create(GLOBAL, "Fine", "A good one.")
    broken = write_raw(store.memory_path(GLOBAL, "0badf11e"), "Just text, no frontmatter.\n")
    write_raw(store.memory_path(GLOBAL, "00000000").parent / "notes.txt", "not a memory")
    async with run_app(root, size=(100, 30)) as (_, pilot, screen):
        problems = await open_view(pilot, "exclamation_mark", ProblemsScreen)
        kinds = [(e.kind, e.path.name if e.path else None) for e in problems.entries]
        assert kinds == [("problem", "0badf11e.md"), ("ignored", "notes.txt")]
        head = static_text(problems.query_one("#problem-head"))
        assert "The file does not start with a --- frontmatter block." in head
        raw = problems.query_one("#problem-raw", TextArea)
        assert raw.text == "Just text, no frontmatter.\n"
        raw.load_text(memory_file("Rescued", "Just text, no frontmatter."))
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert [e.kind for e in problems.entries] == ["ignored"]
        fresh = MemoryStore(root)
        assert fresh.problems() == []
        assert "Rescued" in [m.title for m in fresh.memories(GLOBAL)]
        assert broken.read_text(encoding="utf-8").startswith("---\ntitle: Rescued")
        await pilot.press("escape")
        assert "Rescued" in [screen.table.cell_text(i, "title") for i in screen.table.memory_ids]


async def test_yaml_error_line_is_marked(root: Path, store: MemoryStore) -> None:
    write_raw(
        store.memory_path(GLOBAL, "0badf11e"),
        "---\ntitle: [unclosed\nenabled: true\nsource: user\n---\n\nText.\n",
    )
    [problem] = MemoryStore(root).problems()
    assert problem.line is not None
    async with run_app(root, size=(100, 30)) as (_, pilot, _):
        problems = await open_view(pilot, "exclamation_mark", ProblemsScreen)
        assert f"(line {problem.line})" in static_text(problems.query_one("#problem-head"))
        raw = problems.query_one("#problem-raw", TextArea)
        # The cursor is on the line, nothing selected: the first key typed adds to it.
        line = raw.document.get_line(problem.line - 1)
        assert raw.cursor_location == (problem.line - 1, 0) and raw.selected_text == ""
        await pilot.press("tab")
        assert raw.has_focus and raw.selected_text == ""
        await pilot.press("Z")
        assert raw.document.get_line(problem.line - 1) == "Z" + line


async def test_open_a_problem_file_in_editor(
    tmp_path: Path, root: Path, store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = write_raw(store.memory_path(GLOBAL, "0badf11e"), "no frontmatter\n")
    editor = fake_editor(
        tmp_path,
        'printf -- "---\\ntitle: Fixed outside\\nenabled: true\\nsource: user\\n---\\n\\nOk.\\n" > "$1"',
    )
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", str(editor))
    async with run_app(root, size=(100, 30)) as (app, pilot, screen):
        problems = await open_view(pilot, "exclamation_mark", ProblemsScreen)
        await pilot.press("e")
        await settle(pilot)
        assert app.screen is problems and problems.entries == []
        assert broken.read_text(encoding="utf-8").startswith("---\ntitle: Fixed outside")
        await pilot.press("escape")
        assert screen.snapshot is not None
        assert [m.title for m in screen.snapshot.memories[GLOBAL]] == ["Fixed outside"]


async def test_open_a_memory_in_editor_and_a_missing_editor(
    tmp_path: Path, root: Path, store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = store.create(GLOBAL, "Tea", "Green.")
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", "no-such-editor-anywhere")
    async with run_app(root, size=(100, 30)) as (app, pilot, screen):
        await pilot.press("e")
        await settle(pilot)
        assert notices(app)[-1] == (
            "The editor “no-such-editor-anywhere” (from $VISUAL or $EDITOR) was not found."
        )
        editor = fake_editor(tmp_path, 'sed -i "s/Green./Green, no sugar./" "$1"')
        monkeypatch.setenv("EDITOR", str(editor))
        await pilot.press("e")
        await wait_until(
            pilot,
            lambda: screen.editor.text_area.text == "Green, no sugar.",
            "the editor to show the file as changed in $EDITOR",
        )
        assert MemoryStore(root).get(GLOBAL, memory.id).text == "Green, no sugar."


async def test_a_scope_of_only_problem_files_says_so_and_points_to_them(
    root: Path, store: MemoryStore
) -> None:
    write_raw(store.memory_path(GLOBAL, "0badf11e"), "Just text, no frontmatter.\n")
    async with run_app(root, size=(100, 30)) as (_, _, screen):
        hint = static_text(screen.query_one("#list-empty"))
        assert hint == (
            "No memories in Global: its only files are 1 problem file, not sent to chats. "
            "Press ! to see and fix them, or n to add a memory."
        )


async def test_delete_a_problem_file_its_bytes_wait_under_deleted(root: Path, store: MemoryStore) -> None:
    store.create(GLOBAL, "Fine", "A good one.")
    content = b"Just text, no frontmatter.\n"
    broken = write_raw(store.memory_path(GLOBAL, "0badf11e"), content)
    write_raw(store.memory_path(GLOBAL, "00000000").parent / "notes.txt", "not a memory")
    async with run_app(root, size=(100, 30)) as (app, pilot, _):
        problems = await open_view(pilot, "exclamation_mark", ProblemsScreen)
        await pilot.press("down")  # an ignored file cannot be deleted here
        assert not problems.check_action("delete", ())
        await pilot.press("up", "d")
        from oda_tui.dialogs import ConfirmDialog

        assert isinstance(app.screen, ConfirmDialog)
        assert app.screen.question == "Delete the problem file global/0badf11e.md?"
        await pilot.press("y")
        await settle(pilot)
        assert not broken.exists()
        assert [e.kind for e in problems.entries] == ["ignored"]
        [waiting] = MemoryStore(root).deleted(GLOBAL)
        assert waiting.id == "0badf11e" and waiting.problem
        # Restoring it brings the exact bytes back.
        MemoryStore(root).restore_deleted(GLOBAL, "0badf11e")
        assert broken.read_bytes() == content
