"""Pilot tests of the palette's "Sync assistant files": the same sync as ``oda-tui sync``, for the
workspace the folder's files record (the app asks when they record none), with the same
refusals said in a notice."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.command import CommandList, CommandPalette
from textual.pilot import Pilot

from oda_tui.app import OdaApp
from oda_tui.dialogs.confirm import ConfirmDialog
from oda_tui.text.safe import clean_block
from oda_tui.text.word_changes import marked
from store import GLOBAL, MemoryStore
from store.exchange.managed_block import find_block, render_block
from store.exchange.sync_content import MemorySet
from store.exchange.sync_targets import edited_line, sync
from tests.support.app import started, wait_until


async def run_sync_from_palette(app: OdaApp, pilot: Pilot[None]) -> None:
    await pilot.press("ctrl+p", *"sync assistant")
    palette = app.screen
    assert isinstance(palette, CommandPalette)
    await wait_until(pilot, lambda: palette.query_one(CommandList).option_count > 0, "the palette's results")
    await pilot.press("enter")


def messages(app: OdaApp) -> list[str]:
    return [n.message for n in app._notifications]


async def test_the_palette_syncs_the_workspace_the_files_record_not_the_one_selected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "oda"
    store = MemoryStore(root)
    store.create(GLOBAL, "Tea", "Green tea, no sugar.")
    store.create("web", "Deploy", "Run migrations first.")
    store.create("docs", "Style", "Short sentences.")
    project = tmp_path / "project"
    project.mkdir()
    (project / "CLAUDE.md").write_text("# Mine\n\nkeep\n")
    sync(store, project, ["CLAUDE.md"], MemorySet("web"))  # chosen once, for web
    store.create("web", "Review", "Ask for a review.")
    (project / "AGENTS.md").write_text("no block: not touched\n")
    monkeypatch.chdir(project)
    app = OdaApp(root, "docs", watch=False)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        screen = await started(pilot)
        assert screen.scope == "docs"
        await run_sync_from_palette(app, pilot)
        await wait_until(
            pilot, lambda: "Ask for a review." in (project / "CLAUDE.md").read_text(), "the sync"
        )
        await wait_until(pilot, lambda: bool(messages(app)), "the notice")
        assert messages(app)[-1] == f"Synced CLAUDE.md in {project} with the memories of workspace web."
    text = (project / "CLAUDE.md").read_text()
    assert text.startswith("# Mine\n\nkeep\n\n<!-- oda-memory: begin memories=workspace:web ")
    assert "Short sentences." not in text and "Green tea" not in text
    assert (project / "AGENTS.md").read_text() == "no block: not touched\n"


async def test_files_that_record_no_workspace_make_the_app_ask(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "oda"
    store = MemoryStore(root)
    store.create("web", "Deploy", "Run migrations first.")
    agent = store.create("web", "Agent idea", "Deploy on Fridays.", source="ai", via="chat")
    project = tmp_path / "project"
    project.mkdir()
    legacy = "# Mine\n\n" + render_block("# Memory\n\nold\n", "\n") + "\n"  # written before blocks said whose
    (project / "AGENTS.md").write_text(legacy)
    monkeypatch.chdir(project)
    app = OdaApp(root, "web", watch=False)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await started(pilot)
        await run_sync_from_palette(app, pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the question")
        dialog = app.screen
        assert isinstance(dialog, ConfirmDialog)
        assert dialog.question.startswith(f"Write the memories of workspace web into AGENTS.md in {project}?")
        assert (project / "AGENTS.md").read_text() == legacy  # nothing before the answer
        await pilot.click("#yes")
        await wait_until(pilot, lambda: bool(messages(app)), "the notice")
        assert messages(app)[-1] == (
            f"Synced AGENTS.md in {project} with the memories of workspace web.\n"
            "1 memory an agent saved or changed is waiting for your review and was left out of the files: "
            "press r to review it, or sync with oda-tui sync --include-unreviewed."
        )
    text = (project / "AGENTS.md").read_text()
    block = find_block(text)
    assert block is not None and block.holds == "workspace:web"
    assert "Run migrations first." in text and agent.text not in text


async def test_a_hand_edited_block_is_refused_in_a_notice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "oda"
    store = MemoryStore(root)
    store.create("web", "[bold]Tea[/] \x1b[31m", "Green tea, no sugar.")
    sync(store, tmp_path, ["AGENTS.md"], MemorySet("web"))
    agents = tmp_path / "AGENTS.md"
    agents.write_text(agents.read_text().replace("no sugar", "two sugars"))
    edited = agents.read_bytes()
    store.create("web", "Runner", "Use pytest.")
    monkeypatch.chdir(tmp_path)
    app = OdaApp(root, watch=False)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await started(pilot)
        await run_sync_from_palette(app, pilot)
        await wait_until(pilot, lambda: bool(messages(app)), "the notice")
        [notice] = [n for n in app._notifications]
        assert notice.markup is False  # a title such as [bold]Tea[/] is shown as written
        assert "\x1b" not in notice.message and "[bold]Tea[/] " in notice.message
        block = find_block(edited.decode())
        assert block is not None
        after = "# Memory\n\n## [bold]Tea[/] \x1b[31m\n\nGreen tea, no sugar.\n\n## Runner\n\nUse pytest.\n"
        diff = clean_block(marked(block.content(edited.decode()), after))
        assert "[-two sugars.\n-]{+no sugar." in diff
        assert notice.message == f"{edited_line('AGENTS.md')}\n{diff}\nNothing was written."
    assert agents.read_bytes() == edited
