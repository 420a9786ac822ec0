"""Pilot test: where the terminal cannot show the app's symbols (TERM=linux), none is drawn."""

from __future__ import annotations

from pathlib import Path

from textual import _border
from textual.content import Content

from oda_tui.dialogs.confirm import ConfirmDialog
from oda_tui.text.glyphs import terminal_is_ascii
from oda_tui.widgets.ascii_drawing import draw_ascii
from store import GLOBAL, MemoryStore
from tests.support.app import run_app, screen_text, settle, wait_until, write_raw

SYMBOLS = "⭘⚠≡≈⏎▊"


def test_which_terminals_get_ascii() -> None:
    assert terminal_is_ascii({"TERM": "linux", "LANG": "C.UTF-8"})
    assert not terminal_is_ascii({"TERM": "xterm-256color", "ODA_TUI_ASCII": "0"})
    assert terminal_is_ascii({"TERM": "xterm-256color", "ODA_TUI_ASCII": "1"})
    # The locale the person set, whatever Python's UTF-8 mode says.
    assert terminal_is_ascii({"TERM": "xterm-256color", "LC_ALL": "C", "LANG": "en_US.UTF-8"})
    assert terminal_is_ascii({"TERM": "xterm-256color", "LANG": "POSIX"})
    assert terminal_is_ascii({"TERM": "xterm-256color", "LC_CTYPE": "en_US.ISO-8859-1"})
    assert not terminal_is_ascii({"TERM": "xterm-256color", "LC_ALL": "C.UTF-8"})
    assert not terminal_is_ascii({"TERM": "xterm-256color", "LANG": "de_DE.utf8@euro"})
    assert not terminal_is_ascii({"TERM": "xterm-256color", "LC_CTYPE": "en_US.UTF-8", "LANG": "C"})


async def test_no_symbol_the_linux_console_lacks_is_drawn(
    root: Path, store: MemoryStore, ascii_terminal: None
) -> None:
    store.create(GLOBAL, "Tea", "Green tea.")
    store.create("web", "Tea", "Green tea.")  # a duplicate in the web chat: the ≡ mark
    store.create(GLOBAL, "Bell\x07", "Escape \x1b[31m here.")
    write_raw(store.memory_path(GLOBAL, "0badf11e"), "no frontmatter\n")  # the ⚠ mark
    async with run_app(root) as (app, pilot, screen):
        await settle(pilot)
        await pilot.press("down", "down")
        shown = screen_text(app)
        assert not set(SYMBOLS) & set(shown), [c for c in SYMBOLS if c in shown]
        assert "Enter Edit" in shown and "* " in shown  # the footer's key and the header's icon
        assert "Global 2 !1" in shown  # the problem file mark
        meter = screen.query_one("#meter-label").render()
        assert isinstance(meter, Content) and "~ " in meter.plain
        # A control character reads as caret notation: never raw, never a symbol it lacks.
        assert "Bell^G" in shown and "^[[31m" in shown


def test_borders_drawn_with_blocks_keep_a_visible_frame_in_ascii() -> None:
    """A thick or tall border is drawn with blocks: in ASCII its lines are + - |, never spaces
    that only colour would show (NO_COLOR would leave a dialog with no frame)."""
    draw_ascii(True)
    try:
        assert _border.BORDER_CHARS["thick"] == (("+", "-", "+"), ("|", " ", "|"), ("+", "-", "+"))
        assert _border.BORDER_CHARS["tall"] == (("|", "-", "|"), ("|", " ", "|"), ("|", "-", "|"))
        assert _border.BORDER_CHARS["round"] == (("+", "-", "+"), ("|", " ", "|"), ("+", "-", "+"))
        assert _border.BORDER_CHARS["blank"] == ((" ", " ", " "), (" ", " ", " "), (" ", " ", " "))
    finally:
        draw_ascii(False)
    assert _border.BORDER_CHARS["thick"][0] == ("█", "▀", "█")


async def test_a_dialog_has_its_frame_in_ascii(root: Path, ascii_terminal: None) -> None:
    MemoryStore(root).create(GLOBAL, "Tea", "Green tea.")
    async with run_app(root, size=(100, 30)) as (app, pilot, _):
        await settle(pilot)
        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the delete question")
        await settle(pilot)
        box = app.screen.query_one(".dialog").region
        lines = [strip.text for strip in app.screen._compositor.render_strips()]
        top, bottom = lines[box.y][box.x : box.right], lines[box.bottom - 1][box.x : box.right]
        sides = {line[box.x] + line[box.right - 1] for line in lines[box.y + 1 : box.bottom - 1]}
    assert top == bottom == "+" + "-" * (box.width - 2) + "+"
    assert sides == {"||"}
