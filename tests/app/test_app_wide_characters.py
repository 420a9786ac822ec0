"""Wide and joined characters measured as the terminal draws them: a row holding a skin-toned
emoji keeps its right border, and an emoji joined by zero-width joiners (a family) is one
picture, not a run of escapes. Checked in tmux, a real terminal emulator."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from oda_tui.text.safe import clean_block, clean_line
from store import GLOBAL, MemoryStore
from tests.support.tmux import app_in_tmux

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
THUMBS = "\U0001f44d\U0001f3fd"


def test_a_joiner_inside_an_emoji_is_kept_and_a_lone_one_is_shown() -> None:
    assert clean_line(f"Family {FAMILY} here") == f"Family {FAMILY} here"
    assert clean_block(f"{FAMILY}\n") == f"{FAMILY}\n"
    assert clean_line("pass\u200dword") == "pass\\u200dword"
    assert clean_line(f"{FAMILY[0]}\u200d end") == f"{FAMILY[0]}\\u200d end"
    assert clean_line("\u200b") == "\\u200b"  # the other zero-width characters: as before


@pytest.mark.slow
@pytest.mark.parametrize("width", [80, 120])
def test_rows_with_wide_emoji_keep_their_border_in_tmux(tmp_path: Path, width: int) -> None:
    root = tmp_path / "oda"
    store = MemoryStore(root)
    store.create(GLOBAL, f"Thumbs {THUMBS} up", "Fine.")
    store.create(GLOBAL, f"Family {FAMILY} here", "All of us.")
    store.create(GLOBAL, "Plain title", "Nothing wide.")
    with app_in_tmux(tmp_path, "--root", str(root), size=(width, 24)) as tmux:
        lines = tmux.wait_for("Plain title")
    rows = {name: next(line for line in lines if name in line) for name in ("Thumbs", "Family", "Plain")}
    # Each row ends its cells (the tokens column) at the list's right border, where tmux drew it.
    for name, row in rows.items():
        assert re.search(r"\+\d+ │", row), (name, row)
    assert FAMILY in rows["Family"] and "\\u200d" not in rows["Family"]
