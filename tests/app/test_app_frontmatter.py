"""Pilot tests: the editor shows every field of the frontmatter, the one token figure, and
edits the block itself as YAML (F2), checked as typed and saved byte for byte."""

from __future__ import annotations

from pathlib import Path

from store import GLOBAL, MemoryStore, entry_tokens
from tests.support.app import cell_text, run_app, settle, static_text, wait_until, write_raw, yaml_view

FILE = (
    "---\n"
    "title: Prefers uv\n"
    "enabled: true\n"
    "source: ai\n"
    "sessionId: chat-7f3a\n"
    "created: 2026-11-29T21:52:34.123Z\n"
    "updated: 2026-11-29T21:52:34.123Z\n"
    "mood: sunny  # an unknown key\n"
    "---\n"
    "\n"
    "Use uv, not pip.\n"
)


def made(tmp_path: Path) -> Path:
    root = tmp_path / "oda"
    write_raw(root / "global" / "0123abcd.md", FILE)
    return root


async def test_the_editor_shows_every_field_and_the_one_token_figure(tmp_path: Path) -> None:
    root = made(tmp_path)
    async with run_app(root) as (_, pilot, screen):
        meta = static_text(screen.editor.query_one("#meta"))
        assert "saved by the agent" in meta and "sessionId chat-7f3a" in meta
        assert "created 2026-11-29" in meta and "updated 2026-11-29" in meta
        assert "Other fields: mood: sunny" in meta
        figure = entry_tokens("Prefers uv", "Use uv, not pip.")
        assert static_text(screen.editor.query_one("#tokens")) == (f"Adds ≈ {figure} tokens to a chat")
        # The list shows the same figure, marked as what the memory adds, and the spec's words.
        assert cell_text(screen, "0123abcd", "tokens") == f"+{figure}"
        assert cell_text(screen, "0123abcd", "by") == "saved by the agent"
        # The figure follows the typing.
        screen.editor.title_input.focus()
        await pilot.press("end", *"extended title")
        assert static_text(screen.editor.query_one("#tokens")) == (
            f"Adds ≈ {entry_tokens('Prefers uvextended title', 'Use uv, not pip.')} tokens to a chat"
        )


async def test_f2_edits_the_block_as_yaml_with_the_stores_messages(tmp_path: Path) -> None:
    root = made(tmp_path)
    path = root / "global" / "0123abcd.md"
    async with run_app(root) as (_, pilot, screen):
        editor = screen.editor
        area = await yaml_view(pilot, screen)
        assert area.text == FILE.split("---\n")[1].rstrip("\n")
        assert editor.frontmatter.problem is None
        # A typing mistake is named at once, in the store's words, and saving it is refused.
        area.move_cursor((1, len("enabled: true")))
        await pilot.press("backspace", "backspace", "backspace", "backspace")
        assert editor.frontmatter.problem == "The frontmatter fields enabled are missing or invalid."
        await pilot.press(*"false")
        assert editor.frontmatter.problem is None
        # Any field is in reach: the unknown key too.
        area.move_cursor((6, len("mood: ")))
        await pilot.press("delete", "delete", "delete", "delete", "delete", *"rainy")
        assert editor.is_dirty
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: not editor.is_dirty, "the block to be saved")
        await settle(pilot)
        expected = FILE.replace("enabled: true", "enabled: false").replace("sunny", "rainy")
        assert path.read_text() == expected  # every other byte as written
        memory = MemoryStore(root).get(GLOBAL, "0123abcd")
        assert memory.enabled is False and memory.extra == {"mood": "rainy"}
        assert screen.snapshot is not None
        assert screen.snapshot.find(GLOBAL, "0123abcd") == memory
        assert cell_text(screen, "0123abcd", "on") == "off"
        # F2 again: back to the form, which shows the saved values.
        await pilot.press("f2")
        assert not editor.raw_mode and not editor.switch.value
        assert "mood: rainy" in static_text(editor.query_one("#meta"))


async def test_an_unsaved_block_is_guarded_and_reverted(tmp_path: Path) -> None:
    root = made(tmp_path)
    async with run_app(root) as (_, pilot, screen):
        editor = screen.editor
        await yaml_view(pilot, screen)
        await pilot.press(*"x")
        assert editor.is_dirty
        await pilot.press("f2")  # refused while the block has unsaved edits
        assert editor.raw_mode
        await pilot.press("ctrl+r")
        assert not editor.is_dirty and editor.frontmatter.area.text == FILE.split("---\n")[1].rstrip("\n")
        await pilot.press("f2")
        assert not editor.raw_mode
    assert (root / "global" / "0123abcd.md").read_text() == FILE
