"""Pilot tests of the palette's "Sync assistant files": the same sync as ``oda-tui sync``, for
the selected scope, with the same refusals said in a notice."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

from oda_tui.text.safe import clean_block
from oda_tui.text.word_changes import marked
from store import GLOBAL, MemoryStore
from store.exchange.managed_block import find_block
from store.exchange.sync_targets import edited_line, sync
from tests.support.app import notices, palette_results, run_app, wait_until


async def run_sync_from_palette(pilot: Pilot[None]) -> None:
    await palette_results(pilot, "sync assistant")
    await pilot.press("enter")


async def test_the_palette_syncs_the_selected_workspace(
    tmp_path: Path, root: Path, store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.create(GLOBAL, "Tea", "Green tea, no sugar.")
    store.create("web", "Deploy", "Run migrations first.")
    project = tmp_path / "project"
    project.mkdir()
    (project / "CLAUDE.md").write_text("# Mine\n\nkeep\n")
    sync(project, ["CLAUDE.md"], store.chat_memory(GLOBAL).text)  # chosen once, with Global's chat
    (project / "AGENTS.md").write_text("no block: not touched\n")
    monkeypatch.chdir(project)
    async with run_app(root, "web", notifications=True) as (app, pilot, screen):
        assert screen.scope == "web"
        await run_sync_from_palette(pilot)
        await wait_until(
            pilot, lambda: "Run migrations first." in (project / "CLAUDE.md").read_text(), "the sync"
        )
        await wait_until(pilot, lambda: bool(notices(app)), "the notice")
        assert notices(app)[-1] == f"Synced CLAUDE.md in {project}."
    text = (project / "CLAUDE.md").read_text()
    assert text.startswith("# Mine\n\nkeep\n\n<!-- oda-memory: begin")
    assert store.chat_memory("web").text in text
    assert (project / "AGENTS.md").read_text() == "no block: not touched\n"


async def test_a_hand_edited_block_is_refused_in_a_notice(
    tmp_path: Path, root: Path, store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.create(GLOBAL, "[bold]Tea[/] \x1b[31m", "Green tea, no sugar.")
    sync(tmp_path, ["AGENTS.md"], store.chat_memory(GLOBAL).text)
    agents = tmp_path / "AGENTS.md"
    agents.write_text(agents.read_text().replace("no sugar", "two sugars"))
    edited = agents.read_bytes()
    store.create(GLOBAL, "Runner", "Use pytest.")
    monkeypatch.chdir(tmp_path)
    async with run_app(root, notifications=True) as (app, pilot, _):
        await run_sync_from_palette(pilot)
        await wait_until(pilot, lambda: bool(notices(app)), "the notice")
        [notice] = app._notifications
        assert notice.markup is False  # a title such as [bold]Tea[/] is shown as written
        assert "\x1b" not in notice.message and "[bold]Tea[/] " in notice.message
        block = find_block(edited.decode())
        assert block is not None
        diff = clean_block(marked(block.content(edited.decode()), store.chat_memory(GLOBAL).text))
        assert "[-two sugars.\n-]{+no sugar." in diff
        assert notice.message == f"{edited_line('AGENTS.md')}\n{diff}\nNothing was written."
    assert agents.read_bytes() == edited
