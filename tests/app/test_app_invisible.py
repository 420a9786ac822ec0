"""Bidirectional controls and zero-width characters are shown, never sent raw, and counts agree
with what the store keeps."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oda_tui.cli.output import visible
from oda_tui.text.invisible import BIDI_CONTROLS, ZERO_WIDTH
from oda_tui.text.safe import clean_block, clean_line, restore_controls
from store import GLOBAL, MemoryStore, entry_tokens
from tests.support.app import run_app, screen_text, settle, static_text
from tests.support.pty import PtyProcess, private_env

RLO_TITLE = "invoice \u202egnp.exe\u202c done"
HIDDEN_TEXT = "pass\u200bword and \u2066isolated\u2069 and\u200e marks\ufeff"
INVISIBLE = BIDI_CONTROLS + ZERO_WIDTH


@pytest.mark.parametrize("char", list(INVISIBLE))
def test_each_invisible_character_reads_as_its_escape_in_the_app_and_the_cli(char: str) -> None:
    shown = f"\\u{ord(char):04x}"
    assert clean_line(f"a{char}b") == f"a{shown}b"
    assert clean_block(f"a{char}\nb") == f"a{shown}\nb"
    assert visible(f"a{char}b") == f"a{shown}b"


@given(st.text(alphabet=st.sampled_from([*INVISIBLE, "a", " ", "\n", "\x1b", "\x9b"])))
def test_an_edit_of_shown_text_saves_the_characters_it_had(original: str) -> None:
    # Opening and saving unchanged gives back the very characters the file had.
    assert restore_controls(clean_block(original), original) == original


async def test_a_bidi_title_and_zero_width_text_never_reach_the_screen_raw(
    root: Path, store: MemoryStore
) -> None:
    memory = store.create(GLOBAL, RLO_TITLE, HIDDEN_TEXT)
    async with run_app(root) as (app, pilot, screen):
        assert screen.editor.memory_id == memory.id
        assert screen.editor.title_input.value == "invoice \\u202egnp.exe\\u202c done"
        assert "\\u200b" in screen.editor.text_area.text
        assert "\\u202e" in static_text(screen.editor.query_one("#editor-heading"))
        for strip in app.screen._compositor.render_strips():
            for segment in strip:
                assert not set(segment.text) & set(INVISIBLE), repr(segment.text)
        assert "invoice \\u202egnp.exe\\u202c done" in screen_text(app)
        # An edit elsewhere keeps the characters the file had.
        area = screen.editor.text_area
        area.focus()
        area.move_cursor(area.document.end)
        await pilot.press("!")
        await pilot.press("ctrl+s")
        await settle(pilot)
        saved = MemoryStore(root).get(GLOBAL, memory.id)
        assert (saved.title, saved.text) == (RLO_TITLE, HIDDEN_TEXT + "!")


async def test_counts_are_what_the_store_keeps(root: Path, store: MemoryStore) -> None:
    title = "a C1 control \x9b in it!"  # 21 characters, shown as 24
    text = "  " + "x" * 77 + "\n\n"  # 77 characters once trimmed, as the store keeps it
    memory = store.create(GLOBAL, title, text)
    off = store.create(GLOBAL, "Off one", "a memory that is off adds nothing")
    store.set_enabled(GLOBAL, off.id, False)
    async with run_app(root) as (_, pilot, screen):
        assert screen.editor.memory_id == memory.id
        assert len(screen.editor.title_input.value) == 24
        assert static_text(screen.editor.query_one("#title-count")) == "21/120"
        assert static_text(screen.editor.query_one("#text-count")) == "77/2,000"
        tokens = entry_tokens(memory.title, memory.text)
        assert static_text(screen.editor.query_one("#tokens")) == f"Adds ≈ {tokens} tokens to a chat"
        await pilot.press("down")
        await settle(pilot)
        assert screen.editor.memory_id == off.id
        tokens = entry_tokens(off.title, off.text)
        assert static_text(screen.editor.query_one("#tokens")) == (
            f"Would add ≈ {tokens} tokens to a chat once on"
        )


def test_the_real_terminal_receives_no_bidi_control(tmp_path: Path, root: Path) -> None:
    MemoryStore(root).create(GLOBAL, RLO_TITLE, HIDDEN_TEXT)
    app = PtyProcess(["--root", str(root)], private_env(tmp_path), size=(120, 40))
    try:
        app.wait_for_output(b"gnp.exe")
        # The editor's heading and title come with the detail pane, after the list.
        app.wait_for_output(b"isolated")
        written = app.output
        for char in INVISIBLE:
            assert char.encode("utf-8") not in written, repr(char)
        assert b"\\u202e" in written
    finally:
        app.terminate()
        app.wait()
