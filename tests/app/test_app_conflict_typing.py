"""The conflict prompt opens by itself while the person types: no letter typed next answers
it with a choice that drops text, and what Reload theirs drops is kept as a draft first."""

from __future__ import annotations

from pathlib import Path

from oda_tui.dialogs import ConflictDialog
from oda_tui.own_files.drafts import draft_path, drafts_dir, kept_drafts
from store import GLOBAL
from tests.support.app import notices, run_app, settle, wait_until
from tests.support.stores import TwoMemories


def edit_outside(path: Path, old: str, new: str) -> None:
    """Change a memory file as another program would."""
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


async def test_typing_on_into_the_prompt_discards_nothing(root: Path, two: TwoMemories) -> None:
    store, first, _ = two
    async with run_app(root, watch=True) as (app, pilot, screen):
        await pilot.press("enter", "end", *" A paragraph typed here.")
        edit_outside(store.memory_path(GLOBAL, first.id), "short bullet", "THEIR")
        await wait_until(pilot, lambda: isinstance(app.screen, ConflictDialog), "the conflict prompt")
        await pilot.press(*" more")  # the next word, typed before the prompt was seen
        await settle(pilot)
        assert isinstance(app.screen, ConflictDialog)  # no letter answered it
        assert screen.editor.text_area.text.endswith(" A paragraph typed here.")
        assert screen.editor.is_dirty


async def test_reload_theirs_keeps_the_dropped_edits_as_a_draft(root: Path, two: TwoMemories) -> None:
    store, first, _ = two
    async with run_app(root, watch=True, notifications=True) as (app, pilot, screen):
        await pilot.press("enter", "end", *" A paragraph typed here.")
        edit_outside(store.memory_path(GLOBAL, first.id), "short bullet", "THEIR")
        await wait_until(pilot, lambda: isinstance(app.screen, ConflictDialog), "the conflict prompt")
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert screen.editor.text_area.text == "Reply in THEIR points."
        assert any("kept as a draft" in n and "next time the app starts" in n for n in notices(app))
    [draft] = kept_drafts(root).drafts
    assert draft.path == draft_path(root, GLOBAL, first.id, drafts_dir())
    assert draft.text == "Reply in short bullet points. A paragraph typed here."
    # And it comes back at the next start.
    async with run_app(root) as (app, pilot, screen):
        await wait_until(pilot, lambda: screen.editor.is_dirty, "the draft back in the editor")
        assert screen.editor.text_area.text.endswith("A paragraph typed here.")
