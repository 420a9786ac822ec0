"""The help names the documentation's section for where it is, and that section exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from oda_tui.keys.actions import MAIN_HELP, Place
from oda_tui.screens.help import DOCS_SECTIONS, docs_anchor, docs_line

APP_PAGE = Path(__file__).resolve().parents[2] / "docs" / "app.md"


def anchors() -> set[str]:
    text = APP_PAGE.read_text(encoding="utf-8")
    return {docs_anchor(title) for title in re.findall(r"^#{2,4} (.+)$", text, flags=re.MULTILINE)}


@pytest.mark.parametrize("section", sorted(set(DOCS_SECTIONS.values()) | {"Keys"}))
def test_each_section_the_help_names_is_a_heading_of_the_page(section: str) -> None:
    assert docs_anchor(section) in anchors()


def test_the_help_of_a_screen_names_its_own_section() -> None:
    assert "“History” (docs/app.md#history " in docs_line((Place.HISTORY, Place.SCREENS, Place.APP))
    assert "“The main screen” (docs/app.md#the-main-screen " in docs_line(MAIN_HELP)
    assert "“Keys” (docs/app.md#keys " in docs_line((Place.APP,))


def test_the_anchor_is_the_one_mkdocs_makes() -> None:
    assert docs_anchor("ASCII terminals and `NO_COLOR`") == "ascii-terminals-and-no_color"
    assert docs_anchor("Your own keys (keymap)") == "your-own-keys-keymap"
