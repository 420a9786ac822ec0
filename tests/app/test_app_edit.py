"""Pilot tests: create, edit, refuse, toggle, delete, filter, meter, preview and the guards."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Button, Input

from oda_tui.dialogs import ConfirmDialog
from oda_tui.dialogs.quit import QuitDialog
from oda_tui.text.format import count
from oda_tui.widgets.token_meter import TokenMeter
from store import GLOBAL, Memory, MemoryStore
from tests.support.app import (
    cell_text,
    closed,
    focused,
    memory_file,
    notices,
    run_app,
    screen_text,
    settle,
    static_text,
    wait_until,
    write_raw,
)
from tests.support.stores import TwoMemories


async def test_empty_store_says_how_to_add_the_first_memory(tmp_path: Path) -> None:
    async with run_app(tmp_path / "nothing-here") as (_, _, screen):
        hint = static_text(screen.query_one("#list-empty"))
        assert "There are no memories yet. Press n to add the first one" in hint
        assert screen.query_one("#list-pane").has_class("-empty")


async def test_create_a_memory(root: Path) -> None:
    async with run_app(root) as (_, pilot, screen):
        await pilot.press("n")
        editor = screen.editor
        assert editor.is_new and screen.focused is editor.title_input
        await pilot.press(*"Tea", "enter")
        assert focused(screen) is editor.text_area
        await pilot.press(*"Green, no sugar.")
        assert static_text(editor.query_one("#title-count")) == "3/120"
        assert static_text(editor.query_one("#text-count")) == "16/2,000"
        await pilot.press("ctrl+s")
        await settle(pilot)
        [memory] = MemoryStore(root).memories(GLOBAL)
        assert (memory.title, memory.text, memory.source) == ("Tea", "Green, no sugar.", "user")
        assert screen.table.memory_ids == [memory.id]
        assert screen.table.current_id == memory.id
        assert editor.memory_id == memory.id and not editor.is_dirty
        assert cell_text(screen, memory.id, "title") == "Tea"


async def test_edit_a_memory_and_revert(root: Path, two_and_web: TwoMemories) -> None:
    first = two_and_web.first
    async with run_app(root) as (_, pilot, screen):
        assert screen.editor.memory_id == first.id
        await pilot.press("enter")  # open in the editor: focus goes to the text
        editor = screen.editor
        assert screen.focused is editor.text_area
        await pilot.press("end", *" Always.")
        assert editor.is_dirty and editor.has_class("-dirty")
        await pilot.press("ctrl+r")
        assert not editor.is_dirty
        assert editor.text_area.text == first.text
        await pilot.press("end", *" Always.")
        await pilot.press("ctrl+s")
        await settle(pilot)
        saved = MemoryStore(root).get(GLOBAL, first.id)
        assert saved.text == "Reply in short bullet points. Always."
        assert not editor.is_dirty
        assert cell_text(screen, first.id, "length") == count(len(saved.text))


async def test_refused_edit_shows_the_exact_message_and_keeps_the_edits(
    root: Path, two_and_web: TwoMemories
) -> None:
    first = two_and_web.first
    expected = "A memory title is limited to 120 characters; this one has 130."
    async with run_app(root) as (app, pilot, screen):
        editor = screen.editor
        editor.title_input.focus()
        await wait_until(pilot, lambda: screen.focused is editor.title_input, "the title to have the focus")
        long_title = "x" * 130
        editor.title_input.value = long_title
        await wait_until(pilot, lambda: editor.validation == expected, "the title's check")
        # Live, as the person types: the store's message word for word and a red counter.
        assert editor.validation == expected
        assert static_text(editor.query_one("#title-count")) == "130/120"
        assert editor.query_one("#title-count").has_class("-over")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert editor.validation == expected
        assert editor.title_input.value == long_title  # the edits stay on screen
        assert editor.is_dirty
        assert notices(app) == [expected]
        assert MemoryStore(root).get(GLOBAL, first.id).title == "Reply language"


async def test_refused_new_memory_without_text(tmp_path: Path) -> None:
    async with run_app(tmp_path / "oda") as (_, pilot, screen):
        await pilot.press("n", *"Only a title", "ctrl+s")
        await settle(pilot)
        assert "A memory needs some text." in screen.editor.validation
        assert screen.editor.title_input.value == "Only a title"
        assert screen.editor.is_new


async def test_toggle_updates_row_meter_and_preview(root: Path, two_and_web: TwoMemories) -> None:
    store, first, _ = two_and_web
    async with run_app(root) as (_, pilot, screen):
        preview = screen.query_one("#preview-text")
        assert static_text(preview) == store.chat_memory(None).text
        await pilot.press("t")
        await settle(pilot)
        fresh = MemoryStore(root)
        assert fresh.get(GLOBAL, first.id).enabled is False
        assert cell_text(screen, first.id, "on") == "off"
        assert screen.editor.switch.value is False
        # Preview: exactly what a chat outside any workspace now receives.
        assert static_text(preview) == fresh.chat_memory(None).text
        assert "Reply language" not in static_text(preview)
        # Meter on Global: the workspace where the chat is largest.
        meter = screen.query_one(TokenMeter)
        assert meter.label.startswith(f"≈ {count(fresh.chat_tokens('web'))} / 8,000 tokens")
        assert "largest chat: web" in meter.label
        await pilot.press("t")
        await settle(pilot)
        assert MemoryStore(root).get(GLOBAL, first.id).enabled is True
        assert cell_text(screen, first.id, "on") == "on"


async def test_the_switch_is_part_of_the_draft(root: Path, two_and_web: TwoMemories) -> None:
    first = two_and_web.first
    async with run_app(root) as (_, pilot, screen):
        screen.editor.switch.focus()
        await pilot.press("enter")
        await settle(pilot)
        # Not saved yet: an edit like the title and the text, marked, and Ctrl+R takes it back.
        assert MemoryStore(root).get(GLOBAL, first.id).enabled is True
        assert screen.editor.is_dirty and cell_text(screen, first.id, "title") == f"● {first.title}"
        await pilot.press("ctrl+r")
        assert screen.editor.switch.value is True and not screen.editor.is_dirty
        await pilot.press("enter", "ctrl+s")
        await settle(pilot)
        assert MemoryStore(root).get(GLOBAL, first.id).enabled is False
        assert cell_text(screen, first.id, "on") == "off"
        assert not screen.editor.is_dirty


async def test_turning_on_with_a_new_text_is_all_or_nothing(root: Path, off_beside_big: Memory) -> None:
    async with run_app(root) as (_, pilot, screen):
        assert screen.editor.memory_id == off_beside_big.id
        screen.editor.text_area.load_text("y" * 900)  # on, this would take the chat over 500
        screen.editor.switch.focus()
        await pilot.press("enter", "ctrl+s")
        await settle(pilot)
        assert screen.editor.save_error is not None and "the limit is 500" in screen.editor.save_error
        after = MemoryStore(root).get(GLOBAL, off_beside_big.id)
        assert (after.enabled, after.text) == (False, "Short.")  # neither the switch nor the text
        assert screen.editor.is_dirty


async def test_delete_asks_first(root: Path, two_and_web: TwoMemories) -> None:
    _, first, second = two_and_web
    async with run_app(root) as (app, pilot, screen):
        await pilot.press("d")
        assert isinstance(app.screen, ConfirmDialog)
        assert "Delete “Reply language” from Global?" in app.screen.question
        await pilot.press("escape")
        await settle(pilot)
        assert len(MemoryStore(root).memories(GLOBAL)) == 2
        await pilot.press("d")
        await pilot.click("#yes")
        await settle(pilot)
        fresh = MemoryStore(root)
        assert [m.id for m in fresh.memories(GLOBAL)] == [second.id]
        assert [d.id for d in fresh.deleted(GLOBAL)] == [first.id]
        assert screen.table.memory_ids == [second.id]
        assert screen.editor.memory_id == second.id


async def test_filter_as_you_type(root: Path, two_and_web: TwoMemories) -> None:
    _, first, second = two_and_web
    async with run_app(root) as (_, pilot, screen):
        await pilot.press("slash")
        filter_input = screen.query_one("#filter", Input)
        assert screen.focused is filter_input
        await pilot.press(*"lisbon")  # in the text, not the title
        assert screen.table.memory_ids == [second.id]
        assert screen.editor.memory_id == second.id
        await pilot.press("backspace", "backspace", "backspace", "backspace", "backspace")
        await pilot.press("backspace", *"REPLY")  # any case, in the title
        assert screen.table.memory_ids == [first.id]
        await pilot.press("escape")
        assert screen.table.memory_ids == [first.id, second.id]
        assert not filter_input.has_class("-shown")


async def test_escape_in_the_list_clears_the_filter_and_the_title_keeps_the_scope(
    root: Path, two_and_web: TwoMemories
) -> None:
    _, first, second = two_and_web
    async with run_app(root) as (_, pilot, screen):
        await pilot.press("slash", *"lisbon", "enter")  # Enter: back to the list, filter kept
        assert screen.focused is screen.table
        assert screen.table.memory_ids == [second.id]
        assert screen.table.border_title == "Memories in Global · 1 of 2 match"
        await pilot.press("escape")
        assert screen.table.memory_ids == [first.id, second.id]
        assert screen.table.border_title == "Memories in Global · 2"
        assert screen.query_one("#filter", Input).value == ""
        assert screen.focused is screen.table


async def test_scope_switch_updates_list_meter_and_preview(root: Path, two_and_web: TwoMemories) -> None:
    store = two_and_web.store
    [stack] = store.memories("web")
    async with run_app(root) as (_, pilot, screen):
        screen.scopes.focus()
        await pilot.press("down")
        await settle(pilot)
        assert screen.scope == "web"
        assert screen.table.memory_ids == [stack.id]
        assert cell_text(screen, stack.id, "by") == "saved by the agent"  # the spec's words
        assert static_text(screen.query_one("#preview-text")) == store.chat_memory("web").text
        label = screen.query_one(TokenMeter).label
        assert label.startswith(f"≈ {count(store.chat_tokens('web'))} / 8,000 tokens")
        assert "saved by the agent" in static_text(screen.editor.query_one("#meta"))
        assert "sessionId s-1" in static_text(screen.editor.query_one("#meta"))  # the field as named


async def test_meter_over_the_limit_says_so_in_the_error_colour(root: Path, limited: MemoryStore) -> None:
    limited.create(GLOBAL, "Small", "word " * 10)
    # Files written by hand are not held to the chat limit, so the chat can go over it.
    for i, memory_id in enumerate(("0000000a", "0000000b", "0000000c")):
        write_raw(limited.memory_path(GLOBAL, memory_id), memory_file(f"Big {i}", "word " * 190))
    tokens = MemoryStore(root).chat_tokens(None)
    assert tokens > 500
    async with run_app(root) as (_, pilot, screen):
        meter = screen.query_one(TokenMeter)
        assert meter.has_class("-over")
        assert meter.label.startswith(f"≈ {count(tokens)} / 500 tokens")
        assert f"over the limit by {count(tokens - 500)}" in meter.label
        # Turning one off brings it back under the limit.
        await pilot.press("down", "t")
        await settle(pilot)
        tokens = MemoryStore(root).chat_tokens(None)
        assert meter.has_class("-over") is (tokens > 500)
        assert meter.label.startswith(f"≈ {count(tokens)} / 500 tokens")


async def test_a_change_over_the_chat_limit_is_refused_with_the_store_message(
    root: Path, limited: MemoryStore
) -> None:
    for i in range(2):
        limited.create(GLOBAL, f"Note {i}", "word " * 180)
    async with run_app(root) as (_, pilot, screen):
        await pilot.press("n", *"Note 3", "enter")
        screen.editor.text_area.insert("word " * 180)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert screen.editor.validation.startswith(
            "This change would bring the memory a chat receives to about"
        )
        assert screen.editor.validation.endswith("the limit is 500.")
        assert screen.editor.is_new and len(MemoryStore(root).memories(GLOBAL)) == 2


async def test_leaving_unsaved_edits_asks_first(root: Path, two_and_web: TwoMemories) -> None:
    _, first, second = two_and_web
    async with run_app(root) as (app, pilot, screen):
        await pilot.press("enter", "end", *" Edited.", "escape")
        assert screen.focused is screen.table and screen.editor.is_dirty
        await pilot.press("down")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("escape")  # keep editing
        await wait_until(pilot, lambda: not isinstance(app.screen, ConfirmDialog), "the question to close")
        assert screen.table.current_id == first.id
        assert screen.editor.memory_id == first.id and screen.editor.is_dirty
        await pilot.press("down")
        await pilot.press("y")  # discard
        await wait_until(pilot, lambda: screen.editor.memory_id == second.id, "the next memory to open")
        assert screen.editor.memory_id == second.id and not screen.editor.is_dirty
        assert MemoryStore(root).get(GLOBAL, first.id).text == first.text


@pytest.mark.usefixtures("two_and_web")
async def test_quit_with_unsaved_edits_asks_first(root: Path) -> None:
    async with run_app(root) as (app, pilot, screen):
        await pilot.press("enter", *"More", "ctrl+q")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("escape")
        assert app.is_running and screen.editor.is_dirty
        await pilot.press("ctrl+q", "y")
        await closed(pilot)


@pytest.mark.usefixtures("two_and_web")
async def test_narrow_terminal_shows_list_or_editor(root: Path) -> None:
    async with run_app(root, size=(80, 24)) as (_, pilot, screen):
        assert screen.has_class("-narrow")
        detail, browse = screen.query_one("#detail"), screen.query_one("#browse")
        assert browse.display and not detail.display
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.focused is screen.editor.text_area, "the editor")
        assert detail.display and not browse.display
        await pilot.press("escape")
        await wait_until(pilot, lambda: screen.focused is screen.table, "the list")
        assert browse.display and not detail.display
        await pilot.press("p")
        await wait_until(pilot, lambda: bool(detail.display), "the chat preview")
        assert detail.display
        assert static_text(screen.query_one("#preview-text")).startswith("# Memory")


async def test_a_row_with_unsaved_edits_is_marked(root: Path, two_and_web: TwoMemories) -> None:
    _, first, second = two_and_web
    async with run_app(root) as (_, pilot, screen):
        assert cell_text(screen, first.id, "title") == first.title
        screen.editor.text_area.focus()
        await pilot.press("x")
        assert cell_text(screen, first.id, "title") == f"● {first.title}"
        assert cell_text(screen, second.id, "title") == second.title
        await pilot.press("ctrl+r")
        assert cell_text(screen, first.id, "title") == first.title
        await pilot.press("x", "ctrl+s")  # saved: the mark goes too
        await settle(pilot)
        assert not screen.editor.is_dirty
        assert cell_text(screen, first.id, "title") == first.title


async def test_save_and_quit_saves_first(root: Path, two_and_web: TwoMemories) -> None:
    first = two_and_web.first
    async with run_app(root) as (app, pilot, _):
        await pilot.press("enter", "end", *" More", "ctrl+q")
        assert isinstance(app.screen, QuitDialog)
        assert [str(b.label) for b in app.screen.query(Button)] == [
            "s Save and quit",
            "y Quit without saving",
            "n Keep editing",
        ]
        await pilot.press("s")
        await wait_until(pilot, lambda: not app.is_running, "the app to quit after saving")
    assert MemoryStore(root).get(GLOBAL, first.id).text == first.text + " More"


@pytest.mark.usefixtures("two_and_web")
async def test_save_and_quit_stays_when_the_store_refuses(root: Path) -> None:
    async with run_app(root) as (app, pilot, screen):
        await pilot.press("enter")
        screen.editor.text_area.load_text("")  # a memory needs some text: the store refuses
        await pilot.press("ctrl+q", "s")
        await wait_until(pilot, lambda: screen.editor.save_error is not None, "the refusal")
        await settle(pilot)
        assert app.is_running and screen.editor.is_dirty
        assert screen.editor.save_error == "A memory needs some text."


@pytest.mark.usefixtures("two_and_web")
async def test_at_60_columns_the_scopes_pane_collapses_until_it_has_the_focus(root: Path) -> None:
    async with run_app(root, size=(60, 20)) as (app, pilot, screen):
        assert screen.scopes.outer_size.width <= 4  # a strip: its border and a column
        assert screen.table.outer_size.width >= 55  # the room goes to the titles
        screen.scopes.focus()
        await wait_until(pilot, lambda: screen.scopes.outer_size.width == 22, "the scopes pane to open")
        screen.table.focus()
        await pilot.resize_terminal(120, 40)
        await wait_until(
            pilot, lambda: app.size.width == 120 and not screen.has_class("-narrow"), "the resize"
        )
        assert screen.scopes.outer_size.width == 22  # wide enough: the pane is back for good


async def test_the_side_editor_reflows_when_the_window_widens(root: Path, store: MemoryStore) -> None:
    text = " ".join(f"word{i:02d}" for i in range(40))
    store.create(GLOBAL, "Long", text)
    async with run_app(root, size=(60, 20)) as (app, pilot, screen):
        await pilot.press("enter")  # narrow: the editor takes the whole window

        def shown() -> str:
            region = screen.editor.text_area.content_region
            strips = app.screen._compositor.render_strips()
            return " ".join(strips[y].text[region.x : region.right] for y in range(region.y, region.bottom))

        for size in [(120, 40), (160, 50), (64, 40), (130, 40)]:
            await pilot.resize_terminal(*size)
            # Every word shown whole inside the text area: nothing clipped at its edge.
            await wait_until(pilot, lambda: " ".join(shown().split()) == text, f"the text reflowed at {size}")


async def test_a_notice_at_80x24_leaves_the_list_and_the_meter_readable(
    root: Path, two_and_web: TwoMemories
) -> None:
    _, first, second = two_and_web
    async with run_app(root, size=(80, 24), notifications=True) as (app, pilot, screen):
        await pilot.press("t")
        await settle(pilot)
        assert notices(app)[-1] == f"“{first.title}” is turned off."

        def shown() -> str:
            return screen_text(app)

        await wait_until(pilot, lambda: "is turned off." in shown(), "the notice on screen")
        shown_text = shown()
        assert f"“{first.title}” is turned off." in shown_text  # the notice is there…
        assert screen.query_one(TokenMeter).label in shown_text  # …and the meter's words still read
        assert first.title in shown_text and second.title in shown_text
