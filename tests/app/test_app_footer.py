"""The footer follows the keys that apply, and recomposes only when they change."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets._footer import FooterKey

from oda_tui.keys.actions import BY_ID
from oda_tui.widgets.key_footer import KeyFooter
from store import GLOBAL, MemoryStore
from tests.support.app import footer_keys, run_app, settle


async def test_the_footer_follows_focus_and_skips_repeats(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    MemoryStore(root).create(GLOBAL, "One", "Text.")
    composes: list[int] = []
    real = KeyFooter.recompose

    async def counting(self: KeyFooter) -> None:
        composes.append(1)
        await real(self)

    monkeypatch.setattr(KeyFooter, "recompose", counting)
    async with run_app(root) as (_, pilot, screen):
        await settle(pilot)
        assert footer_keys(screen)["new_memory"] is True
        before = len(composes)
        screen.refresh_bindings()  # the same keys: nothing to do
        await settle(pilot)
        assert len(composes) == before
        assert footer_keys(screen)["new_memory"] is True
        await pilot.press("slash")  # typing in the filter: letter keys do not apply
        await settle(pilot)
        assert len(composes) == before + 1
        assert footer_keys(screen).get("new_memory", False) is False  # hidden or dimmed
        await pilot.press("escape")
        await settle(pilot)
        assert footer_keys(screen)["new_memory"] is True


async def test_the_footer_shows_the_keys_that_fit_in_order_of_use(root: Path) -> None:
    MemoryStore(root).create(GLOBAL, "One", "Text.")
    async with run_app(root, size=(200, 40)) as (_, pilot, screen):
        await settle(pilot)
        wide = list(footer_keys(screen))
        # At 200 columns the keys that used to be hidden are there, in the registry's order.
        review, problems, deleted, duplicates, history, copy, move = (
            BY_ID[i].action
            for i in (
                "view.review",
                "view.problems",
                "view.deleted",
                "view.duplicates",
                "memory.history",
                "memory.copy",
                "memory.move",
            )
        )
        assert {review, problems, deleted, duplicates, copy, move} <= set(wide)
        assert wide.index("new_memory") < wide.index(history) < wide.index("help") < wide.index(deleted)
        for width in (80, 120):
            await pilot.resize_terminal(width, 40)
            await settle(pilot)
            keys = list(footer_keys(screen))
            assert keys[-1] == wide[-1] == "command_palette"
            # Help and Quit always; the others are the first ones; all in the same order.
            assert {"help", "quit"} <= set(keys)
            assert keys == [k for k in wide if k in keys]
            others = [k for k in keys[:-1] if k not in ("help", "quit")]
            assert others == [k for k in wide[:-1] if k not in ("help", "quit")][: len(others)]
            footer = screen.query_one(KeyFooter)
            shown = [k for k in footer.query(FooterKey) if not k.has_class("-command-palette")]
            # Every key shown whole, none cut by the palette's key at the right.
            palette = footer.query_one(".-command-palette")
            assert all(k.region.right <= palette.region.x for k in shown)
            assert len(shown) < len(wide) - 1


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_help_and_a_way_out_are_always_in_the_footer(root: Path, size: tuple[int, int]) -> None:
    MemoryStore(root).create(GLOBAL, "One", "Text.")
    async with run_app(root, size=size) as (_, pilot, screen):
        await settle(pilot)
        footer = screen.query_one(KeyFooter)

        def shown() -> dict[str, str]:
            return {k.action: k.key_display for k in footer.query(FooterKey) if not k.disabled}

        assert shown()["help"] == "?" and shown()["quit"] == "q"
        # In the editor q and ? type: the footer offers the keys that still work there.
        screen.editor.text_area.focus()
        await settle(pilot)
        assert shown()["help"] == "f1" and shown()["quit"] == "^q"
        assert [k.action for k in footer.query(FooterKey)].count("quit") == 1
