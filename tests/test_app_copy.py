"""Pilot test: copying a memory to another scope."""

from __future__ import annotations

from pathlib import Path

from app_support import settle, started

from oda_tui.app import OdaApp
from oda_tui.dialogs.scope_picker import ScopePicker
from store import GLOBAL, MemoryStore


async def test_copy_to_another_scope(tmp_path: Path) -> None:
    root = tmp_path / "oda"
    store = MemoryStore(root)
    memory = store.create(GLOBAL, "Tea", "Green.", source="ai", session_id="s-9", via="chat")
    store.create("web", "Stack", "Django.")
    app = OdaApp(root, watch=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await started(pilot)
        await pilot.press("c")
        assert isinstance(app.screen, ScopePicker)
        await pilot.press("enter")
        await settle(pilot)
        copies = [m for m in MemoryStore(root).memories("web") if m.title == "Tea"]
        assert [(m.text, m.source, m.session_id) for m in copies] == [("Green.", "ai", "s-9")]
        assert MemoryStore(root).get(GLOBAL, memory.id).text == "Green."
        assert [n.message for n in app._notifications][-1] == "Copied “Tea” to web."
