"""Pilot tests of memory hygiene: duplicates, secret-looking text, and review of the agent's saves."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.text import Text
from textual.widgets import Static

from oda_tui.dialogs import ConfirmDialog, SecretDialog
from oda_tui.own_files.review_marks import pending_review, reviewed_mark, state_path
from oda_tui.screens.duplicates import DuplicatesScreen
from oda_tui.screens.problems import ProblemsScreen
from oda_tui.screens.review import ReviewScreen
from oda_tui.text.diffing import ADDED, REMOVED, word_diff
from store import GLOBAL, MemoryStore
from store.write.rules import secret_refusal
from tests.support.app import (
    cell_text,
    notices,
    open_view,
    run_app,
    settle,
    static_text,
    sub_title,
    wait_until,
)

PASSWORD_TEXT = "Wifi at the office: password: Hunter2-office!"


def duplicate_store(root: Path) -> tuple[MemoryStore, str, str]:
    """Tea twice (Global and web, written differently) and two similar Coffee memories."""
    store = MemoryStore(root)
    tea = store.create(GLOBAL, "Tea", "Green tea, no sugar.")
    copy = store.create("web", "tea", "green tea — no sugar!")
    store.create(GLOBAL, "Coffee", "Black coffee.")
    store.create("web", "Coffee", "Black coffee in the morning.")
    return store, tea.id, copy.id


async def test_duplicates_keep_one_and_turn_the_others_off(root: Path) -> None:
    _, tea, copy = duplicate_store(root)
    async with run_app(root, size=(100, 30)) as (app, pilot, screen):
        await settle(pilot)
        assert cell_text(screen, tea, "on") == "on≡"
        assert "duplicates ≡ (press D)" in sub_title(screen)
        view = await open_view(pilot, "D", DuplicatesScreen)
        assert [(g.kind, g.where) for g in view.groups] == [
            ("duplicate", "Global + web"),
            ("similar", "Global + web"),
        ]
        head = static_text(view.query_one("#duplicate-head"))
        assert "Duplicates in Global + web:" in head and "▶ “Tea” in Global" in head
        # Keep the web copy: the Global one is turned off, and the group is gone.
        await pilot.press("down", "K")
        await settle(pilot)
        after = MemoryStore(root)
        assert (after.get(GLOBAL, tea).enabled, after.get("web", copy).enabled) == (False, True)
        assert after.duplicates() == []
        assert [g.kind for g in view.groups] == ["similar"]
        assert notices(app)[-1] == "Kept “tea”; turned off 1 other."
        # A similar group is not offered as duplicates: keep and delete are not offered at all.
        assert view.check_action("keep", ()) is False and view.check_action("delete_others", ()) is False
        shown = {b.action for _n, b, enabled, _t in view.active_bindings.values() if enabled}
        assert not shown & {"keep", "delete_others"}
        assert "Similar, not duplicates" in static_text(view.query_one("#duplicate-head"))
        await pilot.press("K")
        await settle(pilot)
        assert notices(app)[-1] == "Kept “tea”; turned off 1 other."
        assert [m.enabled for m in MemoryStore(root).memories("web")] == [True, True]
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen
        assert cell_text(screen, tea, "on") == "off"
        # The marks follow once the disk has been quiet for a moment.
        await wait_until(pilot, lambda: "(press D)" not in sub_title(screen), "the duplicates hint to go")


async def test_duplicates_delete_the_others_after_a_confirmation(root: Path) -> None:
    _, tea, copy = duplicate_store(root)
    async with run_app(root, size=(100, 30)) as (app, pilot, _):
        view = await open_view(pilot, "D", DuplicatesScreen)
        await pilot.press("d")
        dialog = app.screen
        assert isinstance(dialog, ConfirmDialog)
        assert dialog.question == "Delete 1 other copy of “Tea” (in web)?"
        await pilot.press("escape")
        await settle(pilot)
        assert [m.id for m in MemoryStore(root).memories("web") if m.title == "tea"] == [copy]
        await pilot.press("d", "y")
        await settle(pilot)
        after = MemoryStore(root)
        assert [d.id for d in after.deleted("web")] == [copy]
        assert after.versions("web", copy)  # history keeps everything
        assert after.get(GLOBAL, tea).enabled
        assert [g.kind for g in view.groups] == ["similar"]


@pytest.mark.slow
async def test_secret_looking_text_asks_before_a_new_memory_is_saved(root: Path) -> None:
    async with run_app(root) as (app, pilot, screen):
        await pilot.press("n", *"Wifi", "enter", *PASSWORD_TEXT, "ctrl+s")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, SecretDialog)
        assert dialog.what == "a password"
        assert dialog.question == "This text looks like it contains a password. Save it anyway?"
        assert dialog.detail == str(secret_refusal("Wifi", PASSWORD_TEXT, before=None))
        # No: nothing is saved and the edits stay.
        await pilot.press("n")
        await settle(pilot)
        assert MemoryStore(root).memories(GLOBAL) == []
        assert screen.editor.is_dirty and screen.editor.text_area.text == PASSWORD_TEXT
        assert notices(app)[-1] == "Not saved. Your edits are still in the editor."
        # Yes: saved as typed.
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, SecretDialog)
        await pilot.press("y")
        await settle(pilot)
        [memory] = MemoryStore(root).memories(GLOBAL)
        assert (memory.title, memory.text) == ("Wifi", PASSWORD_TEXT)
        assert not screen.editor.is_dirty
        assert screen.table.memory_ids == [memory.id]


async def test_the_stores_own_refusal_comes_before_the_secret_question(root: Path) -> None:
    async with run_app(root) as (app, pilot, screen):
        await pilot.press("n", *"password: Hunter2-office!", "ctrl+s")
        await settle(pilot)
        assert not isinstance(app.screen, SecretDialog)
        assert notices(app)[-1] == MemoryStore(root).check_text("")
        assert screen.editor.is_dirty and MemoryStore(root).memories(GLOBAL) == []


@pytest.mark.slow
async def test_secret_looking_text_asks_before_a_change_is_saved(root: Path) -> None:
    memory = MemoryStore(root).create(GLOBAL, "Deploy", "Deploy with fly deploy.")
    key = " Token: ghp_abcdefghijklmnopqrstuvwxyz0123456789"
    async with run_app(root) as (app, pilot, screen):
        await pilot.press("enter", "end", *key, "ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, SecretDialog)
        assert app.screen.what == "an API key or token"
        await pilot.press("escape")
        await settle(pilot)
        assert MemoryStore(root).get(GLOBAL, memory.id).text == "Deploy with fly deploy."
        assert screen.editor.text_area.text == "Deploy with fly deploy." + key
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert MemoryStore(root).get(GLOBAL, memory.id).text == "Deploy with fly deploy." + key
        # A later edit that adds no new secret is saved without asking.
        await pilot.press("end", *" Done.", "ctrl+s")
        await settle(pilot)
        assert not isinstance(app.screen, SecretDialog)
        assert MemoryStore(root).get(GLOBAL, memory.id).text.endswith(" Done.")


async def test_secret_looking_memories_are_warnings_in_the_problems_view(
    root: Path, store: MemoryStore
) -> None:
    memory = store.create("web", "Wifi", PASSWORD_TEXT, allow_secret=True)
    async with run_app(root) as (_, pilot, _):
        view = await open_view(pilot, "exclamation_mark", ProblemsScreen)
        [entry] = view.entries
        assert (entry.kind, entry.path, entry.scope) == ("secret", memory.path, "web")
        head = static_text(view.query_one("#problem-head"))
        assert store.secret_warnings()[0].message in head
        assert "still sent to chats (problem files are not)" in head


def review_store(root: Path) -> tuple[MemoryStore, list[str]]:
    """Three agent saves waiting for review: one created by a chat, one changed, one to delete."""
    store = MemoryStore(root)
    created = store.create(GLOBAL, "Prefers uv", "Use uv, not pip.", source="ai", via="chat")
    changed = store.create("web", "Stack", "Django and HTMX.", source="ai", via="chat")
    store.change("web", changed.id, text="Django 5 and HTMX.")  # the person's edit
    store.change("web", changed.id, text="Django 5, HTMX and Celery.", via="chat")
    doomed = store.create("web", "Mood", "The user was tired today.", source="ai", via="chat")
    store.create("web", "Mine", "Written by me.")
    return store, [created.id, changed.id, doomed.id]


async def test_review_accept_turn_off_and_delete(root: Path, state_folder: Path) -> None:
    store, (created, changed, doomed) = review_store(root)
    async with run_app(root) as (app, pilot, screen):
        await settle(pilot)
        assert "3 to review (press r)" in sub_title(screen)
        view = await open_view(pilot, "r", ReviewScreen)
        assert [i.memory.id for i in view.items] == [created, changed, doomed]
        assert "The agent wrote:" in static_text(view.query_one("#review-head"))
        # The diff of what the agent changed: the person's version struck, the chat's added.
        await pilot.press("down")
        head = static_text(view.query_one("#review-head"))
        assert "Changed by a chat" in head and "What the agent changed" in head
        diff = view.query_one("#review-diff", Static).content
        expected = word_diff("Django 5 and HTMX.", "Django 5, HTMX and Celery.")
        assert isinstance(diff, Text) and diff.plain == expected.plain
        struck = [diff.plain[s.start : s.end] for s in diff.spans if s.style == REMOVED]
        added = [diff.plain[s.start : s.end] for s in diff.spans if s.style == ADDED]
        assert struck and added and "Celery." in "".join(added)
        # Accept the first.
        await pilot.press("up", "a")
        await settle(pilot)
        assert reviewed_mark(store, GLOBAL, created) is not None
        assert state_path() == state_folder / "review.json" and state_path().exists()
        assert [i.memory.id for i in view.items] == [changed, doomed]
        # Turn the changed one off: off, and no longer waiting.
        await pilot.press("t")
        await settle(pilot)
        assert MemoryStore(root).get("web", changed).enabled is False
        assert [i.memory.id for i in view.items] == [doomed]
        # Delete the last, after a confirmation.
        await pilot.press("d")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await settle(pilot)
        assert [d.id for d in MemoryStore(root).deleted("web")] == [doomed]
        assert view.items == []
        assert "Nothing to review" in static_text(view.query_one("#review-head"))
        assert pending_review(MemoryStore(root)) == []
        await pilot.press("escape")
        await settle(pilot)
        await wait_until(pilot, lambda: "to review" not in sub_title(screen), "the review hint to go")


async def test_review_shows_a_chat_change_to_the_persons_own_memory(
    root: Path, store: MemoryStore, state_folder: Path
) -> None:
    mine = store.create(GLOBAL, "Tea", "Green tea, no sugar.")  # saved by the person
    store.change(GLOBAL, mine.id, text="Black tea, two sugars.", via="chat")
    async with run_app(root) as (_, pilot, screen):
        await settle(pilot)
        assert "1 to review (press r)" in sub_title(screen)
        view = await open_view(pilot, "r", ReviewScreen)
        assert [i.memory.id for i in view.items] == [mine.id]
        head = static_text(view.query_one("#review-head"))
        assert "“Tea” in Global, saved by you." in head and "Changed by a chat" in head
        diff = view.query_one("#review-diff", Static).content
        assert isinstance(diff, Text)
        assert diff.plain == word_diff("Green tea, no sugar.", "Black tea, two sugars.").plain


async def test_review_edit_opens_the_memory_in_the_editor(root: Path) -> None:
    _, (_, changed, _) = review_store(root)
    async with run_app(root) as (app, pilot, screen):
        await pilot.press("r")
        await settle(pilot)
        await pilot.press("down", "e")
        await settle(pilot)
        assert app.screen is screen
        assert (screen.scope, screen.editor.memory_id) == ("web", changed)
        assert screen.focused is screen.editor.text_area
        # Saving an edit is the person's own text: it no longer waits for review.
        await pilot.press("end", *" Redis too.", "ctrl+s")
        await settle(pilot)
        assert [i.memory.id for i in pending_review(MemoryStore(root))] != []
        assert changed not in [i.memory.id for i in pending_review(MemoryStore(root))]


async def test_duplicate_marks_follow_outside_changes_once_the_disk_is_quiet(tmp_path: Path) -> None:
    from tests.support.app import memory_file, write_raw

    root = tmp_path / "oda"
    store = MemoryStore(root)
    tea = store.create(GLOBAL, "Tea", "Green tea, no sugar.")
    async with run_app(root, watch=True, size=(100, 30)) as (_, pilot, screen):
        await settle(pilot)
        assert cell_text(screen, tea.id, "on") == "on"
        write_raw(root / "global" / "0000beef.md", memory_file("Tea again", "green TEA -- no sugar"))
        await wait_until(pilot, lambda: cell_text(screen, tea.id, "on") == "on≡", "the duplicate mark")
        assert "duplicates ≡ (press D)" in sub_title(screen)
        (root / "global" / "0000beef.md").unlink()
        await wait_until(pilot, lambda: cell_text(screen, tea.id, "on") == "on", "the mark to go")
