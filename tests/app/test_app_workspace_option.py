"""``--workspace``: a key that is not valid is refused as the subcommands refuse it; one that
does not exist yet is said."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from store import GLOBAL, MemoryStore
from tests.support.app import run_app, static_text, wait_until
from tests.support.cli import run_cli


def test_a_workspace_key_that_is_not_valid_is_refused_before_the_app_opens(tmp_path: Path) -> None:
    for key in ("bad key", "../../x"):
        result = run_cli("--root", tmp_path / "oda", "--workspace", key)
        assert result.code == 2
        assert result.err == (
            f'The workspace key "{key}" is not valid: use letters, digits, dots, underscores and '
            "hyphens, beginning with a letter or digit, at most 255 characters.\n"
        )
    assert not (tmp_path / "oda").exists()


async def test_a_workspace_that_does_not_exist_yet_is_said(root: Path) -> None:
    MemoryStore(root).create(GLOBAL, "T", "text")
    async with run_app(root, "nope", size=(100, 30)) as (_, pilot, screen):
        hint = screen.query_one("#list-empty", Static)
        await wait_until(pilot, lambda: "nope" in static_text(hint), "the empty list's hint")
        assert static_text(hint) == (
            "There is no workspace “nope” yet: the first memory saved in it creates it. Press n to add one."
        )
