"""Pilot tests: a memory folder the app cannot read is said in the list, the title bar and a
refused save, with the folder and the reason, never shown as an empty store; a ``--root`` that
does not exist is said in the list, as the command line says it.

The tests run as root, whom a folder's mode does not stop: the kernel's refusal is injected
(``tests/support/unreadable.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from store import GLOBAL, MemoryStore
from tests.support.app import notices, run_app, static_text, sub_title, wait_until
from tests.support.unreadable import refuse_folder


async def test_an_unreadable_global_folder_is_named_with_its_reason(
    root: Path, store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.create(GLOBAL, "Tea", "Green tea.")
    refuse_folder(monkeypatch, root / "global")
    async with run_app(root, notifications=True) as (app, pilot, screen):
        hint = static_text(screen.query_one("#list-empty"))
        assert f"The folder {root / 'global'} could not be read: Permission denied." in hint
        assert "There are no memories yet" not in hint
        assert "global/ could not be read: Permission denied (press !)" in sub_title(screen)
        # A new memory there is refused in words that name the folder.
        await pilot.press("n", *"Coffee", "tab", "tab", *"Black.", "ctrl+s")
        await wait_until(pilot, lambda: any("could not be opened" in n for n in notices(app)), "the refusal")
        assert notices(app)[-1] == (
            f"The memory could not be changed: the folder {root / 'global'} could not be opened"
            " (Permission denied)."
        )
        assert screen.editor.text_area.text == "Black."  # kept on screen


async def test_an_unreadable_workspace_folder_is_named_in_its_list(
    root: Path, store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.create(GLOBAL, "Tea", "Green tea.")
    store.create("web", "Stack", "Django.")
    refuse_folder(monkeypatch, root / "workspaces" / "web")
    async with run_app(root, "web") as (_app, _pilot, screen):
        assert screen.scope == "web"
        hint = static_text(screen.query_one("#list-empty"))
        assert f"The folder {root / 'workspaces' / 'web'} could not be read: Permission denied." in hint
        assert "workspaces/web/ could not be read" in sub_title(screen)


async def test_a_named_root_that_does_not_exist_is_said_in_the_list(tmp_path: Path) -> None:
    missing = tmp_path / "typo"
    async with run_app(missing, root_named=True) as (_app, _pilot, screen):
        hint = static_text(screen.query_one("#list-empty"))
        assert hint.startswith(f"The folder {missing} does not exist, so it holds no memories.")
        assert "press n to add the first one" in hint


async def test_a_fresh_installation_is_not_told_its_folder_is_missing(tmp_path: Path) -> None:
    async with run_app(tmp_path / "new", root_named=False) as (_app, _pilot, screen):
        hint = static_text(screen.query_one("#list-empty"))
        assert hint.startswith("There are no memories yet. Press n to add the first one")
