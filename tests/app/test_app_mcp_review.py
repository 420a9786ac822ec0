"""The app's review queue shows what an agent saved and changed through ``oda-tui mcp``, live."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.widgets import OptionList, Static

from oda_tui.screens.review import ReviewScreen
from oda_tui.text.diffing import word_diff
from store import MemoryStore, memory_fingerprint
from tests.support.app import open_view, run_app, settle, static_text, sub_title, wait_until
from tests.support.mcp import connect, ok


async def test_a_memory_saved_through_the_server_waits_in_review(root: Path) -> None:
    MemoryStore(root).create("web", "Mine", "Written by me.")
    # Watching the folder, as it does for a person.
    async with run_app(root, "web", watch=True) as (app, pilot, screen):
        async with connect(root, "web") as agent:
            saved = ok(await agent.call_tool("memory_save", {"title": "Stack", "text": "Django and HTMX."}))
            await wait_until(pilot, lambda: "1 to review (press r)" in sub_title(screen), "the save to show")
            view = await open_view(pilot, "r", ReviewScreen)
            assert [i.memory.id for i in view.items] == [saved["id"]]
            head = static_text(view.query_one("#review-head"))
            assert "The agent wrote:" in head
            # Accepted here, then changed again by the agent: it waits again, with the word diff.
            await pilot.press("a")
            await settle(pilot)
            await pilot.press("escape")
            await wait_until(pilot, lambda: "to review" not in sub_title(screen), "the accept to show")
            ok(
                await agent.call_tool(
                    "memory_change",
                    {"id": saved["id"], "text": "Django 5 and HTMX.", "version": saved["version"]},
                )
            )
            await wait_until(
                pilot, lambda: "1 to review (press r)" in sub_title(screen), "the change to show"
            )
            view = await open_view(pilot, "r", ReviewScreen)
            head = static_text(view.query_one("#review-head"))
            assert "Changed by a chat" in head and "What the agent changed" in head
            diff = view.query_one("#review-diff", Static).content
            assert isinstance(diff, Text)
            assert diff.plain == word_diff("Django and HTMX.", "Django 5 and HTMX.").plain


async def test_a_memory_the_agent_deleted_waits_in_review_and_can_be_restored(
    root: Path, store: MemoryStore
) -> None:
    mine = store.create("web", "Style", "Use tabs.")
    keep = store.create("web", "Keep", "Stays deleted once accepted.")
    async with run_app(root, "web", watch=True) as (app, pilot, screen):
        async with connect(root, "web") as agent:
            for memory in (mine, keep):
                ok(
                    await agent.call_tool(
                        "memory_delete", {"id": memory.id, "version": memory_fingerprint(memory)}
                    )
                )
            await wait_until(
                pilot, lambda: "2 to review (press r)" in sub_title(screen), "the deletions to show"
            )
            await pilot.press("r")
            view = app.screen
            assert isinstance(view, ReviewScreen)
            await wait_until(pilot, lambda: len(view.items) == 2, "the review list")
            assert {i.memory.id for i in view.items} == {mine.id, keep.id}
            # Accept one deletion: it stays deleted and leaves the list.
            listed = view.query_one("#review-list", OptionList)
            listed.highlighted = [i.memory.id for i in view.items].index(keep.id)
            await settle(pilot)
            head = static_text(view.query_one("#review-head"))
            assert "Deleted by a chat" in head and "waits under Recently deleted" in head
            await pilot.press("a")
            await wait_until(pilot, lambda: [i.memory.id for i in view.items] == [mine.id], "the accept")
            # Restore the other: it is back, and nothing waits any more.
            await pilot.press("e")
            await wait_until(pilot, lambda: view.items == [], "the restore")
    store.refresh()
    assert store.get("web", mine.id).text == "Use tabs."
    assert [d.id for d in store.deleted("web")] == [keep.id]
