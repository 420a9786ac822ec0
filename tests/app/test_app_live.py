"""Pilot tests with the real watcher: outside edits, conflicts, new folders, problems, bursts."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.content import Content
from textual.widgets import Static

from oda_tui.dialogs import ConflictDialog
from oda_tui.session.first_read import FirstRead
from oda_tui.text.diffing import ADDED, REMOVED, word_diff
from oda_tui.widgets.scope_list import option_id
from store import GLOBAL, MemoryStore
from tests.support.app import (
    cell_text,
    memory_file,
    notices,
    run_app,
    settle,
    sub_title,
    wait_until,
    write_raw,
)
from tests.support.stores import TwoMemories


def edit_outside(path: Path, old: str, new: str) -> None:
    """Change a memory file as another program (an editor, git) would."""
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


async def test_an_outside_edit_shows_without_losing_the_cursor(root: Path, two: TwoMemories) -> None:
    store, first, second = two
    async with run_app(root, watch=True) as (_, pilot, screen):
        await pilot.press("down")
        assert screen.table.current_id == second.id
        edit_outside(store.memory_path(GLOBAL, first.id), "Reply language", "Reply in Portuguese")
        await wait_until(
            pilot,
            lambda: cell_text(screen, first.id, "title") == "Reply in Portuguese",
            "the outside edit to reach the list",
        )
        assert screen.table.current_id == second.id
        assert screen.editor.memory_id == second.id


async def test_the_open_memory_reloads_silently_without_edits(root: Path, two: TwoMemories) -> None:
    store, first, _ = two
    async with run_app(root, watch=True) as (app, pilot, screen):
        edit_outside(store.memory_path(GLOBAL, first.id), "short bullet", "long flowing")
        await wait_until(
            pilot,
            lambda: screen.editor.text_area.text == "Reply in long flowing points.",
            "the editor to reload",
        )
        assert not isinstance(app.screen, ConflictDialog)
        assert not screen.editor.is_dirty


async def test_conflict_reload_theirs(root: Path, two: TwoMemories) -> None:
    store, first, _ = two
    async with run_app(root, watch=True) as (app, pilot, screen):
        await pilot.press("enter", "end", *" Mine.")
        assert screen.editor.is_dirty
        edit_outside(store.memory_path(GLOBAL, first.id), "short bullet", "THEIR")
        await wait_until(pilot, lambda: isinstance(app.screen, ConflictDialog), "the conflict prompt")
        # The dialog shows what differs, from theirs to mine, word by word.
        diff = app.screen.query_one("#conflict-diff-text", Static).render()
        assert isinstance(diff, Content)
        assert diff.plain == "Reply in THEIR short bullet points. Mine."
        struck = word_diff("Reply in THEIR points.", "Reply in short bullet points. Mine.")
        assert [struck.plain[sp.start : sp.end] for sp in struck.spans] == ["THEIR", "short bullet", " Mine."]
        assert [str(sp.style) for sp in struck.spans] == [REMOVED, ADDED, ADDED]
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert screen.editor.text_area.text == "Reply in THEIR points."
        assert not screen.editor.is_dirty


async def test_conflict_keep_mine_saves_theirs_as_an_external_version(root: Path, two: TwoMemories) -> None:
    store, first, _ = two
    async with run_app(root, watch=True) as (app, pilot, screen):
        await pilot.press("enter", "end", *" Mine.")
        edit_outside(store.memory_path(GLOBAL, first.id), "short bullet", "THEIR")
        await wait_until(pilot, lambda: isinstance(app.screen, ConflictDialog), "the conflict prompt")
        await pilot.click("#mine")
        await settle(pilot)
        assert screen.editor.text_area.text == "Reply in short bullet points. Mine."
        assert screen.editor.is_dirty
        await pilot.press("ctrl+s")
        await settle(pilot)
        fresh = MemoryStore(root)
        assert fresh.get(GLOBAL, first.id).text == "Reply in short bullet points. Mine."
        external = [v for v in fresh.versions(GLOBAL, first.id) if v.source == "external"]
        assert [v.text for v in external] == ["Reply in THEIR points."]


async def test_new_workspace_problem_file_and_deletion_appear(root: Path, two: TwoMemories) -> None:
    store, first, second = two
    async with run_app(root, watch=True) as (_, pilot, screen):
        new_file = store.memory_path("notes", "abcdef12")
        write_raw(new_file, memory_file("From another program", "Hello."))
        await wait_until(
            pilot,
            lambda: screen.snapshot is not None and "notes" in screen.snapshot.workspaces(),
            "the new workspace",
        )
        screen.scopes.get_option(option_id("notes"))  # listed
        write_raw(store.memory_path(GLOBAL, "0badf11e"), "no frontmatter here\n")
        await wait_until(
            pilot,
            lambda: screen.snapshot is not None and len(screen.snapshot.problems) == 1,
            "the problem file",
        )
        prompt = screen.scopes.get_option(option_id(GLOBAL)).prompt
        assert str(prompt).endswith(" ⚠1")
        assert "1 problem file" in sub_title(screen)
        store.memory_path(GLOBAL, second.id).unlink()
        await wait_until(pilot, lambda: screen.table.memory_ids == [first.id], "the deleted file to go")


async def test_deleting_the_open_memory_on_disk_keeps_unsaved_edits(root: Path, two: TwoMemories) -> None:
    store, first, _ = two
    async with run_app(root, watch=True, notifications=True) as (app, pilot, screen):
        await pilot.press("enter", "end", *" Keep me.")
        store.memory_path(GLOBAL, first.id).unlink()
        await wait_until(pilot, lambda: screen.editor.orphan, "the editor to notice")
        assert screen.editor.text_area.text.endswith("Keep me.")
        assert notices(app)[-1] == (
            "“Reply language” was deleted on disk. Your edits are still here; saving them creates it "
            "again, as a new memory with a new id (the deleted one stays under Recently deleted)."
        )
        await pilot.press("ctrl+s")
        await settle(pilot)
        texts = [m.text for m in MemoryStore(root).memories(GLOBAL)]
        assert "Reply in short bullet points. Keep me." in texts


async def test_a_burst_of_500_files_costs_one_repaint(root: Path, two: TwoMemories) -> None:
    store = two.store
    folder = store.memory_path(GLOBAL, "00000000").parent
    contents = [memory_file(f"Note {i}", f"Body {i}.") for i in range(500)]
    async with run_app(root, watch=True) as (_, pilot, screen):
        before = screen.outside_repaints
        for i, content in enumerate(contents):
            (folder / f"{i:08x}.md").write_text(content, encoding="utf-8")
        await wait_until(pilot, lambda: len(screen.table.memory_ids) == 502, "all 500 files to show")
        assert screen.outside_repaints == before + 1


@pytest.mark.usefixtures("two")
async def test_own_saves_do_not_echo_back_as_outside_changes(root: Path) -> None:
    async with run_app(root, watch=True) as (app, pilot, screen):
        watcher = app.watcher
        assert watcher is not None
        batches = watcher.batches
        await pilot.press("enter", "end", *" Saved here.", "ctrl+s")
        await settle(pilot)
        await wait_until(pilot, lambda: watcher.batches > batches, "the watcher to see the save")
        await wait_until(pilot, lambda: not watcher.has_pending, "the refresh to finish")
        assert screen.outside_repaints == 0
        assert not isinstance(app.screen, ConflictDialog)


async def test_a_single_outside_write_shows_without_waiting_for_quiet(
    root: Path, two: TwoMemories, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = two.store
    async with run_app(root, watch=True) as (app, pilot, screen):
        watcher = app.watcher
        assert watcher is not None
        # The disk never goes quiet: only a refresh that paints at once (the leading edge)
        # can show the change; one that waits for a quiet period never would.
        monkeypatch.setattr(watcher, "quiet_for", lambda: 0.0)
        write_raw(store.memory_path(GLOBAL, "abcdef12"), memory_file("From another program", "Hi."))
        await wait_until(pilot, lambda: screen.table.has_memory("abcdef12"), "the outside write to show")
        assert screen.outside_repaints == 1
        assert screen.table.painted_generation == screen.table.shown_generation


async def test_the_yaml_view_follows_the_disk_and_reload_theirs_keeps_its_edits(
    root: Path, two: TwoMemories
) -> None:
    store, first, _ = two
    path = store.memory_path(GLOBAL, first.id)
    async with run_app(root, watch=True) as (app, pilot, screen):
        editor = screen.editor
        await pilot.press("enter", "f2")
        await wait_until(pilot, lambda: editor.raw_mode, "the YAML view")
        area = editor.frontmatter.area
        # Unchanged here: an outside edit shows in the block at once.
        edit_outside(path, "title: Reply language", "title: Reply tongue")
        await wait_until(pilot, lambda: "title: Reply tongue" in area.text, "the block to follow the disk")
        assert not editor.is_dirty
        # Edited here and there: the conflict question. A draft holds no block, so reloading
        # theirs (which would drop it) keeps the block's edits; Ctrl+R in the editor drops them.
        area.move_cursor((0, len("title: Reply tongue")))
        await pilot.press(*" mine")
        edit_outside(path, "title: Reply tongue", "title: Reply theirs")
        await wait_until(pilot, lambda: isinstance(app.screen, ConflictDialog), "the conflict prompt")
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert "title: Reply tongue mine" in area.text and editor.is_dirty
        await pilot.press("ctrl+r")  # the editor's revert, asked for
        await wait_until(pilot, lambda: "mine" not in area.text, "the block's edits dropped")
        assert not editor.is_dirty


@pytest.mark.usefixtures("two")
async def test_a_file_written_after_the_first_read_and_before_the_watch_still_shows(root: Path) -> None:
    first_read = FirstRead(root)
    assert first_read.wait(60) and first_read.snapshot is not None  # a hang guard only
    late = write_raw(root / "global" / "0123abcd.md", memory_file("Written meanwhile", "Before the watch."))
    async with run_app(root, first_read=first_read, watch=True) as (app, _, screen):
        # The watch began after the read; its first comparison found the file written between.
        assert cell_text(screen, "0123abcd", "title") == "Written meanwhile"
        assert late.name in {m.path.name for m in app.session.store.memories(GLOBAL)}
