"""Pilot tests: Ctrl+R drops the edits but keeps them, so a second Ctrl+R brings them back; an
empty new memory says nothing about the rules a save would break."""

from __future__ import annotations

from pathlib import Path

from store import GLOBAL, MemoryStore
from tests.support.app import notices, offered, run_app, settle


async def test_a_second_ctrl_r_brings_the_dropped_edits_back(root: Path, store: MemoryStore) -> None:
    memory = store.create(GLOBAL, "Tea", "Green tea.")
    async with run_app(root, notifications=True) as (app, pilot, screen):
        editor = screen.editor
        await pilot.press("enter", "end", *" Hot, please.")
        editor.title_input.value = "Tea, hot"
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert (editor.title_input.value, editor.text_area.text) == ("Tea", "Green tea.")
        assert not editor.is_dirty
        assert notices(app)[-1] == "Your edits were dropped. Ctrl+R again brings them back."
        assert "revert" in offered(screen)  # the key that brings them back is offered
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert (editor.title_input.value, editor.text_area.text) == ("Tea, hot", "Green tea. Hot, please.")
        assert editor.is_dirty
        assert notices(app)[-1] == "Your edits are back."
        await pilot.press("ctrl+s")
        await settle(pilot)
    assert MemoryStore(root).get(GLOBAL, memory.id).text == "Green tea. Hot, please."


async def test_a_new_memorys_dropped_text_comes_back_too(root: Path) -> None:
    async with run_app(root) as (_app, pilot, screen):
        editor = screen.editor
        await pilot.press("n", *"Coffee", "tab", "tab", *"Black, no sugar.")
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert editor.is_new and (editor.title_input.value, editor.text_area.text) == ("", "")
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert (editor.title_input.value, editor.text_area.text) == ("Coffee", "Black, no sugar.")


async def test_the_dropped_edits_are_not_brought_to_another_memory(root: Path, store: MemoryStore) -> None:
    store.create(GLOBAL, "Tea", "Green tea.")
    store.create(GLOBAL, "Coffee", "Black.")
    async with run_app(root) as (_app, pilot, screen):
        editor = screen.editor
        await pilot.press("enter", "end", *" Hot.", "ctrl+r", "escape", "down")
        await settle(pilot)
        assert editor.title_input.value == "Coffee"
        assert "revert" not in offered(screen)
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert editor.text_area.text == "Black." and not editor.is_dirty
        await pilot.press("up")  # back on Tea: its dropped edits went with the move
        await settle(pilot)
        assert editor.title_input.value == "Tea" and "revert" not in offered(screen)


async def test_an_empty_new_memory_states_no_rule(root: Path) -> None:
    async with run_app(root) as (_app, pilot, screen):
        editor = screen.editor
        await pilot.press("n")
        await settle(pilot)
        assert editor.validation == ""
        await pilot.press("x", "ctrl+r")
        await settle(pilot)
        assert editor.validation == ""
        # Saving it empty is refused, in the store's words.
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "A memory needs a title." in editor.validation
