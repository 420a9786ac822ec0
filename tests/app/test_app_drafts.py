"""Pilot tests: the editor's unsaved draft is kept when the app is ended from outside, and
offered back at the next start (saved, dropped, changed or deleted on disk meanwhile)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oda_tui.dialogs import ConflictDialog
from oda_tui.own_files.drafts import MAX_BYTES, draft_path, drafts_dir, keep, kept_drafts, new_draft
from store import GLOBAL, Memory, MemoryStore
from tests.support.app import (
    closed,
    notices,
    run_app,
    settle,
    static_text,
    wait_until,
    write_raw,
)
from tests.support.stores import TwoMemories


def kept(root: Path, base: Memory | None, title: str, text: str, *, scope: str | None = GLOBAL) -> Path:
    """A drafts file, as an app ended from outside leaves it."""
    path = keep(new_draft(root, scope if base is None else base.scope, base, title, text, True))
    assert path is not None
    return path


# -- keeping ----------------------------------------------------------------------------------


async def test_an_exit_from_outside_keeps_the_dirty_draft(root: Path, two: TwoMemories) -> None:
    first = two.first
    async with run_app(root) as (app, pilot, screen):
        await pilot.press("enter", "end", *" Mine.", "ctrl+t")  # ctrl+t: not bound in the editor
        assert screen.editor.is_dirty
        app.exit_from_outside()
        await closed(pilot)
    [draft] = kept_drafts(root).drafts
    assert (draft.scope, draft.memory_id) == (GLOBAL, first.id)
    assert (draft.title, draft.text, draft.enabled) == (first.title, first.text + " Mine.", True)
    assert not draft.changed_since(first)
    assert first.updated is not None
    assert draft.base_updated == first.updated.isoformat()
    assert draft.path == draft_path(root, GLOBAL, first.id)
    assert MemoryStore(root).get(GLOBAL, first.id).text == first.text  # never written to the store
    assert not list(root.rglob("*.json"))


@pytest.mark.usefixtures("two")
async def test_a_new_memory_not_yet_saved_is_kept_too(root: Path) -> None:
    async with run_app(root) as (app, pilot, _):
        await pilot.press("n", *"Tea", "enter", *"Green, no sugar.")
        app.exit_from_outside()
        await closed(pilot)
    [draft] = kept_drafts(root).drafts
    assert (draft.memory_id, draft.title, draft.text, draft.base_hash) == (
        None,
        "Tea",
        "Green, no sugar.",
        None,
    )


@pytest.mark.usefixtures("two")
async def test_nothing_is_kept_without_edits_or_on_a_quit_the_person_chose(root: Path) -> None:
    async with run_app(root) as (app, pilot, screen):
        app.exit_from_outside()  # a clean editor
        await closed(pilot)
    assert kept_drafts(root).drafts == []
    async with run_app(root) as (_, pilot, screen):
        await pilot.press("enter", *"More", "ctrl+q", "y")  # quit without saving
        await closed(pilot)
        assert screen.editor.is_dirty
    assert kept_drafts(root).drafts == []
    assert not drafts_dir().exists() or not list(drafts_dir().iterdir())


# -- offering back ----------------------------------------------------------------------------


async def test_a_kept_draft_comes_back_dirty_and_saving_it_removes_the_file(
    root: Path, two: TwoMemories
) -> None:
    _, first, second = two
    path = kept(root, second, "About me [b]", "Backend developer in Porto.")
    async with run_app(root, notifications=True) as (app, pilot, screen):
        await wait_until(pilot, lambda: screen.editor.memory_id == second.id, "the draft to come back")
        editor = screen.editor
        assert editor.is_dirty and editor.title_input.value == "About me [b]"
        assert editor.text_area.text == "Backend developer in Porto."
        assert screen.table.current_id == second.id
        assert screen.focused is editor.text_area
        assert notices(app)[-1] == (
            "Your unsaved edits to “About me [b]” were kept when the app was closed. "
            "They are back in the editor: Ctrl+S saves them, Ctrl+R drops them."
        )
        assert path.exists()
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not editor.is_dirty
        assert not path.exists()
    saved = MemoryStore(root).get(GLOBAL, second.id)
    assert (saved.title, saved.text) == ("About me [b]", "Backend developer in Porto.")
    assert MemoryStore(root).get(GLOBAL, first.id) == first


async def test_dropping_a_kept_draft_removes_the_file_and_keeps_the_memory(
    root: Path, two: TwoMemories
) -> None:
    first = two.first
    path = kept(root, first, first.title, "Reply at length.")
    async with run_app(root) as (_, pilot, screen):
        await wait_until(pilot, lambda: screen.editor.is_dirty, "the draft to come back")
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert screen.editor.text_area.text == first.text and not screen.editor.is_dirty
        assert not path.exists()
    assert MemoryStore(root).get(GLOBAL, first.id).text == first.text


async def test_a_draft_of_a_memory_changed_on_disk_asks_as_any_conflict(root: Path, two: TwoMemories) -> None:
    store, first, _ = two
    path = kept(root, first, first.title, "Reply in short bullet points. Mine.")
    file = store.memory_path(GLOBAL, first.id)  # changed by another program meanwhile
    file.write_text(file.read_text("utf-8").replace("short bullet", "THEIR"), "utf-8")
    async with run_app(root, notifications=True) as (app, pilot, screen):
        await wait_until(pilot, lambda: isinstance(app.screen, ConflictDialog), "the conflict prompt")
        assert (
            "Your unsaved edits to “Reply language” were kept when the app was closed, and the memory "
            "changed on disk since. They are back in the editor: Ctrl+S saves them, Ctrl+R drops them."
        ) in notices(app)
        await pilot.click("#mine")
        await settle(pilot)
        assert screen.editor.is_dirty and path.exists()
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not path.exists()
    fresh = MemoryStore(root)
    assert fresh.get(GLOBAL, first.id).text == "Reply in short bullet points. Mine."
    # The newer text on disk was not lost: it is kept as a version of the memory.
    external = [v.text for v in fresh.versions(GLOBAL, first.id) if v.source == "external"]
    assert external == ["Reply in THEIR points."]


async def test_reloading_theirs_keeps_the_draft_for_the_next_start(root: Path, two: TwoMemories) -> None:
    store, first, _ = two
    path = kept(root, first, first.title, "Mine.")
    store.change(GLOBAL, first.id, text="Theirs.")
    async with run_app(root) as (app, pilot, screen):
        await wait_until(pilot, lambda: isinstance(app.screen, ConflictDialog), "the conflict prompt")
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert screen.editor.text_area.text == "Theirs." and not screen.editor.is_dirty
        # The prompt opened by itself: what it dropped waits as a draft, offered at the next start.
        assert '"text": "Mine."' in path.read_text(encoding="utf-8")


async def test_a_draft_of_a_deleted_memory_is_offered_and_saving_creates_it_again(
    root: Path, two: TwoMemories
) -> None:
    store, first, _ = two
    path = kept(root, first, "Reply language", "Reply in Portuguese.")
    store.delete(GLOBAL, first.id)
    async with run_app(root, notifications=True) as (app, pilot, screen):
        await wait_until(pilot, lambda: screen.editor.orphan, "the draft to come back")
        editor = screen.editor
        assert editor.is_dirty and editor.text_area.text == "Reply in Portuguese."
        assert "deleted on disk" in static_text(editor.query_one("#editor-heading"))
        assert notices(app)[-1] == (
            "Your unsaved edits to “Reply language” were kept when the app was closed, but the memory "
            "was deleted on disk since. They are back in the editor; saving them creates it again, as "
            "a new memory with a new id (the deleted one stays under Recently deleted)."
        )
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not path.exists() and not editor.is_dirty
        [again] = [m for m in MemoryStore(root).memories(GLOBAL) if m.text == "Reply in Portuguese."]
        assert notices(app)[-1] == (
            f"Saved “Reply language” again, as a new memory (id {again.id}): the deleted one, with its "
            "versions, stays under Recently deleted."
        )


@pytest.mark.usefixtures("two")
async def test_a_new_memory_draft_comes_back_in_its_workspace(root: Path) -> None:
    path = kept(root, None, "Stack", "Django and HTMX.", scope="web")
    async with run_app(root, notifications=True) as (app, pilot, screen):
        await wait_until(pilot, lambda: screen.editor.is_new and screen.editor.is_dirty, "the draft")
        assert screen.scope == "web" and screen.editor.scope == "web"
        assert notices(app)[-1] == (
            "Your new memory “Stack” in web was not saved when the app was closed. It is back in the "
            "editor: Ctrl+S saves it, Ctrl+R drops it."
        )
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not path.exists()
    [memory] = MemoryStore(root).memories("web")
    assert (memory.title, memory.text) == ("Stack", "Django and HTMX.")


async def test_several_drafts_come_back_newest_first_one_per_start(root: Path, two: TwoMemories) -> None:
    _, first, second = two
    older = kept(root, first, first.title, "Older draft.")
    newer = kept(root, second, second.title, "Newer draft.")
    async with run_app(root, notifications=True) as (app, pilot, screen):
        await wait_until(pilot, lambda: screen.editor.is_dirty, "the draft")
        assert screen.editor.memory_id == second.id
        assert notices(app)[-1].endswith("1 more draft waits: one comes back each time the app starts.")
        await pilot.press("ctrl+s")
        await settle(pilot)
    assert older.exists() and not newer.exists()
    async with run_app(root) as (_, pilot, screen):
        await wait_until(pilot, lambda: screen.editor.is_dirty, "the other draft")
        assert screen.editor.memory_id == first.id
        assert screen.editor.text_area.text == "Older draft."


async def test_a_draft_kept_again_replaces_the_one_offered(root: Path, two: TwoMemories) -> None:
    store, first, _ = two
    path = kept(root, first, first.title, "Draft.")
    store.delete(GLOBAL, first.id)  # offered as a new memory: kept again under another name
    async with run_app(root) as (app, pilot, screen):
        await wait_until(pilot, lambda: screen.editor.orphan, "the draft")
        await pilot.press("end", *" More.")
        app.exit_from_outside()
        await closed(pilot)
    [draft] = kept_drafts(root).drafts
    assert not path.exists()
    assert (draft.memory_id, draft.text) == (None, "Draft. More.")


# -- what is not a draft ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [
        b"\xff\xfe not json at all",
        b'{"kind": "something-else", "format": 1}',
        b"[1, 2, 3]",
        b'{"kind": "oda-tui-draft", "format": 1, "root": "/elsewhere"}',
        b'{"kind": "oda-tui-draft", "format": 99}',
        b" " * (MAX_BYTES + 1),
    ],
    ids=["bytes", "foreign", "list", "other-root", "future", "too-large"],
)
async def test_a_damaged_foreign_or_huge_drafts_file_is_set_aside_with_a_notice(
    root: Path, content: bytes, two: TwoMemories
) -> None:
    first = two.first
    path = draft_path(root, GLOBAL, first.id)
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    async with run_app(root, notifications=True) as (app, pilot, screen):
        await wait_until(pilot, lambda: bool(notices(app)), "the notice")
        [notice] = notices(app)
        assert notice.startswith("A kept draft could not be read (")
        assert notice.endswith(f"it was set aside as {path}.unreadable.")
        assert not screen.editor.is_dirty and app.is_running
    assert not path.exists() and Path(f"{path}.unreadable").read_bytes() == content
    assert MemoryStore(root).get(GLOBAL, first.id) == first


async def test_a_draft_with_wrong_fields_is_set_aside(root: Path, two: TwoMemories) -> None:
    first = two.first
    path = kept(root, first, first.title, "Mine.")
    data = json.loads(path.read_text("utf-8"))
    data["memory_id"] = "../../etc"
    path.write_text(json.dumps(data), "utf-8")
    async with run_app(root, notifications=True) as (app, pilot, screen):
        await wait_until(pilot, lambda: bool(notices(app)), "the notice")
        assert "its fields are not a draft's" in notices(app)[0]
        assert not screen.editor.is_dirty


@pytest.mark.parametrize("scope", [GLOBAL, "web"])
async def test_a_new_memory_draft_comes_back_without_a_question_where_the_list_has_rows(
    root: Path, scope: str | None, two: TwoMemories
) -> None:
    store = two.store
    store.create("web", "Stack", "Django.")
    path = kept(root, None, "Tea", "Green.", scope=scope)
    async with run_app(root) as (app, pilot, screen):
        await wait_until(pilot, lambda: screen.editor.is_new and screen.editor.is_dirty, "the draft")
        await settle(pilot)
        assert app.screen is screen  # no question about discarding it
        assert screen.scope == scope and screen.editor.text_area.text == "Green."
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not path.exists()
    assert [m.title for m in MemoryStore(root).memories(scope)][-1] == "Tea"


async def test_quitting_without_saving_a_draft_offered_back_drops_it(root: Path, two: TwoMemories) -> None:
    first = two.first
    path = kept(root, first, first.title, "Mine.")
    async with run_app(root) as (_, pilot, screen):
        await wait_until(pilot, lambda: screen.editor.is_dirty, "the draft")
        await pilot.press("ctrl+q", "y")  # the person chose: quit without saving
        await closed(pilot)
    assert not path.exists()
    assert MemoryStore(root).get(GLOBAL, first.id).text == first.text


async def test_on_a_narrow_terminal_the_draft_comes_back_in_the_editor_on_screen(
    root: Path, two: TwoMemories
) -> None:
    first = two.first
    kept(root, first, first.title, "Mine.")
    async with run_app(root, size=(80, 24)) as (_, pilot, screen):
        await wait_until(pilot, lambda: screen.editor.is_dirty, "the draft")
        await settle(pilot)
        assert screen.has_class("-narrow") and screen.has_class("-detail")
        assert screen.editor.text_area.region.width > 0 and screen.focused is screen.editor.text_area


async def test_the_notice_names_the_keys_as_the_keymap_has_them(
    root: Path, config_folder: Path, two: TwoMemories
) -> None:
    write_raw(config_folder / "keymap.yaml", "editor.save: ctrl+w\neditor.revert: f5\n")
    second = two.second
    kept(root, second, "About me", "Backend developer in Porto.")
    async with run_app(root, notifications=True) as (app, pilot, screen):
        await wait_until(pilot, lambda: screen.editor.memory_id == second.id, "the draft to come back")
        assert notices(app)[-1].endswith("They are back in the editor: Ctrl+W saves them, F5 drops them.")
