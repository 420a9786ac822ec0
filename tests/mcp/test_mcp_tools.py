"""The MCP tools in process (the SDK's in-memory client): every tool, every refusal word for word."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oda_tui.own_files.review_marks import mark_reviewed, pending_review
from store import (
    GLOBAL,
    MemoryStore,
    change_note,
    entry_tokens,
    estimate_tokens,
    format_timestamp,
    memory_fingerprint,
)
from store import messages as store_msg
from tests.support.mcp import MODES, connect, ok, refused, text
from tests.support.stores import limited_store

pytestmark = [pytest.mark.parametrize("mode", MODES), pytest.mark.usefixtures("made_root")]


def memory_files(root: Path) -> list[Path]:
    """The memory files (the history folder holds versions, not memories)."""
    return sorted(p for p in root.rglob("*.md") if "history" not in p.relative_to(root).parts)


def written(root: Path) -> list[tuple[Path, bytes]]:
    """Every file a person's memories live in: memories and versions (not the parse cache)."""
    return sorted((p, p.read_bytes()) for p in root.rglob("*") if p.is_file() and ".index" not in p.parts)


async def test_the_tools_are_listed_with_strict_arguments(root: Path, mode: str) -> None:
    async with connect(root, mode=mode) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        instructions = client.instructions or ""
    if mode != "legacy":  # a client pinned to 2026 skips discovery; "auto" discovers
        async with connect(root, mode="auto") as client:
            instructions = client.instructions or ""
    # A client may share one server among its conversations: each starts with the whole memory.
    assert "At the start of each conversation, and after your context was compacted, call memory_read" in (
        instructions
    )
    assert "memory_read(since=REV) returns what changed since revision REV" in instructions
    assert "The person reviews every change you make" in instructions
    assert list(tools) == [
        "memory_list",
        "memory_get",
        "memory_read",
        "memory_save",
        "memory_change",
        "memory_delete",
    ]
    save = tools["memory_save"].input_schema
    assert save["required"] == ["title", "text"] and save["additionalProperties"] is False
    assert tools["memory_change"].input_schema["required"] == ["id"]
    assert tools["memory_read"].input_schema["properties"]["since"]["type"] == "string"
    listing, reading = tools["memory_list"].annotations, tools["memory_read"].annotations
    assert listing is not None and listing.read_only_hint and listing.idempotent_hint
    assert reading is not None and reading.read_only_hint and reading.idempotent_hint


async def test_save_without_a_workspace_goes_to_global_as_the_agent(root: Path, mode: str) -> None:
    async with connect(root, mode=mode) as client:
        data = ok(await client.call_tool("memory_save", {"title": "Tea", "text": "Likes green tea."}))
        again = ok(await client.call_tool("memory_save", {"title": "Uv", "text": "Use uv."}))
    store = MemoryStore(root)
    memory = store.get(GLOBAL, data["id"])
    assert (memory.title, memory.text, memory.source, memory.enabled) == (
        "Tea",
        "Likes green tea.",
        "ai",
        True,
    )
    assert memory.created is not None and memory.updated is not None
    assert data == {
        "id": memory.id,
        "version": memory_fingerprint(memory),
        "scope": None,
        "title": "Tea",
        "enabled": True,
        "source": "ai",
        "tokens": entry_tokens("Tea", "Likes green tea."),
        "text": "Likes green tea.",
        "session_id": memory.session_id,
        "created": format_timestamp(memory.created),
        "updated": format_timestamp(memory.updated),
        "saved": True,
        "chat": {"workspace": None, "tokens": data["chat"]["tokens"], "limit": 8000},
        "message": f'Saved the memory "Tea" (id {memory.id}) in Global. It applies from the next step.',
        "revision": data["revision"],
    }
    # One MCP session, one sessionId; the first version's source is a chat.
    assert memory.session_id and memory.session_id == store.get(GLOBAL, again["id"]).session_id
    assert [v.source for v in store.versions(GLOBAL, memory.id)] == ["chat"]


async def test_save_in_a_workspace_and_each_session_has_its_own_id(root: Path, mode: str) -> None:
    async with connect(root, "proj", mode=mode) as client:
        first = ok(await client.call_tool("memory_save", {"title": "A", "text": "one"}))
    async with connect(root, "proj", mode=mode) as client:
        second = ok(await client.call_tool("memory_save", {"title": "B", "text": "two"}))
    store = MemoryStore(root)
    assert first["scope"] == second["scope"] == "proj"
    assert store.get("proj", first["id"]).session_id != store.get("proj", second["id"]).session_id


async def test_list_shows_global_then_the_workspace_on_and_off(
    root: Path, store: MemoryStore, mode: str
) -> None:
    g = store.create(GLOBAL, "Global one", "everywhere")
    off = store.create("proj", "Off one", "not sent", enabled=False)
    store.create("other", "Elsewhere", "another workspace")
    async with connect(root, "proj", mode=mode) as client:
        result = await client.call_tool("memory_list", {})
    data = ok(result)
    assert json.loads(text(result)) == data  # a client that shows only text sees the same facts
    assert [(m["id"], m["scope"], m["enabled"], m["source"]) for m in data["memories"]] == [
        (g.id, None, True, "user"),
        (off.id, "proj", False, "user"),
    ]
    assert data["memories"][0]["tokens"] == entry_tokens("Global one", "everywhere")
    assert data["chat"] == {"workspace": "proj", "tokens": store.chat_tokens("proj"), "limit": 8000}


async def test_change_keeps_versions_and_answers_an_unchanged_change_with_the_note(
    root: Path, store: MemoryStore, mode: str
) -> None:
    mine = store.create("proj", "Stack", "Django.")
    async with connect(root, "proj", mode=mode) as client:
        version = memory_fingerprint(mine)
        data = ok(
            await client.call_tool("memory_change", {"id": mine.id, "text": "Django 5.", "version": version})
        )
        assert data["changed"] is True and data["tokens"] == entry_tokens("Stack", "Django 5.")
        same = await client.call_tool("memory_change", {"id": mine.id, "title": "Stack"})
    assert (
        not same.is_error
        and text(same) == store_msg.UNCHANGED == "The memory already had that title and text."
    )
    store.refresh()
    assert store.get("proj", mine.id).text == "Django 5."
    assert [v.source for v in store.versions("proj", mine.id)] == ["chat", "settings"]


async def test_every_change_refusal_is_the_spec_sentence(root: Path, store: MemoryStore, mode: str) -> None:
    mine = store.create("proj", "Stack", "Django.")
    elsewhere = store.create("other", "Not here", "another workspace's")
    (root / "workspaces" / "proj" / "0badf11e.md").write_text("no frontmatter\n", "utf-8")
    before = written(root)
    async with connect(root, "proj", mode=mode) as client:

        async def change(**args: object) -> str:
            return refused(await client.call_tool("memory_change", args))

        assert await change(id=mine.id) == "Give a new title, a new text, or both."
        assert await change(id=mine.id, title="  ") == "A memory needs a title."
        version = memory_fingerprint(mine)
        assert await change(id=mine.id, text="\n \n", version=version) == "A memory needs some text."
        assert await change(id=mine.id, title="t" * 121) == (
            "A memory title is limited to 120 characters; this one has 121."
        )
        assert await change(id=mine.id, text="x" * 2001, version=version) == (
            "A memory is limited to 2000 characters; this one has 2001. "
            "Shorten it or split it into several memories."
        )
        for unknown in ("12345678", elsewhere.id, "not-an-id"):
            assert await change(id=unknown, text="x") == (
                f'No memory with the id "{unknown}" exists in this chat\'s memory. '
                "Call memory_list for the current ids."
            )
        assert await change(id="0badf11e", text="x") == (
            "The memory could not be changed: its file has a problem: "
            "The file does not start with a --- frontmatter block."
        )
    assert written(root) == before


async def test_an_id_in_both_global_and_the_workspace_is_not_guessed(
    root: Path, store: MemoryStore, mode: str
) -> None:
    g = store.create(GLOBAL, "Twin", "global")
    (root / "workspaces" / "proj").mkdir(parents=True)
    (root / "workspaces" / "proj" / f"{g.id}.md").write_bytes(g.path.read_bytes())
    async with connect(root, "proj", mode=mode) as client:
        message = refused(await client.call_tool("memory_change", {"id": g.id, "text": "x"}))
    assert message == (
        f"The memory could not be changed: the id {g.id} is in both Global and workspace proj; "
        "the person can tell them apart in oda-tui."
    )


async def test_the_token_limit_refuses_with_the_spec_sentence(tmp_path: Path, mode: str) -> None:
    for workspace in ("proj", None):
        root = tmp_path / f"oda-{workspace}"
        store = limited_store(root)
        for n in range(3):
            store.create(workspace, f"Note {n}", "x" * 500)
        would_be = estimate_tokens(store.chat_memory(workspace).text + "\n## More\n\n" + "y" * 500 + "\n")
        async with connect(root, workspace, mode=mode) as client:
            message = refused(await client.call_tool("memory_save", {"title": "More", "text": "y" * 500}))
        chat = "a chat" if workspace is None else f"a chat in workspace {workspace}"
        assert message == (
            f"This change would bring the memory {chat} receives to about {would_be} tokens; the limit is 500."
        )
        assert len(memory_files(root)) == 3


async def test_save_refusals_are_the_spec_sentences_and_write_nothing(root: Path, mode: str) -> None:
    async with connect(root, mode=mode) as client:

        async def save(title: str, text: str) -> str:
            return refused(await client.call_tool("memory_save", {"title": title, "text": text}))

        assert await save("", "x") == "A memory needs a title."
        assert await save("T", "   ") == "A memory needs some text."
        assert await save("t" * 1_000_000, "x") == (
            "A memory title is limited to 120 characters; this one has 1000000."
        )
        assert await save("T", "x" * 5_000_000) == (
            "A memory is limited to 2000 characters; this one has 5000000. "
            "Shorten it or split it into several memories."
        )
    assert memory_files(root) == []


async def test_secret_looking_text_is_refused_naming_the_kind(
    root: Path, store: MemoryStore, mode: str
) -> None:
    mine = store.create(GLOBAL, "Wifi", "The office wifi is on the second floor.")
    async with connect(root, mode=mode) as client:
        saved = refused(
            await client.call_tool("memory_save", {"title": "Wifi", "text": "password: Hunter2-office!"})
        )
        changed = refused(
            await client.call_tool(
                "memory_change",
                {
                    "id": mine.id,
                    "text": "key sk-proj-abcdefghijklmnopqrstuvwx1234567890",
                    "version": memory_fingerprint(mine),
                },
            )
        )
    assert saved == (
        "The memory could not be changed: the text looks like it contains a password, and a memory is "
        "sent to the model with every message; leave the secret out (the person can save it in "
        "oda-tui if they are sure)."
    )
    assert changed.startswith(
        "The memory could not be changed: the text looks like it contains an API key or token,"
    )
    assert [p.name for p in memory_files(root)] == [f"{mine.id}.md"]
    store.refresh()
    assert store.get(GLOBAL, mine.id).text == "The office wifi is on the second floor."


async def test_read_gives_the_whole_memory_then_change_notes_since_a_revision(root: Path, mode: str) -> None:
    app = MemoryStore(root)  # stands for the app: another store object on the same folder
    tea = app.create(GLOBAL, "Tea", "Green tea.")
    app.create("proj", "Stack", "Django.")
    async with connect(root, "proj", mode=mode) as client:
        first = ok(await client.call_tool("memory_read", {}))
        received = app.chat_memory("proj")
        assert first["text"] == received.text and first["kind"] == "full"
        assert first["tokens"] == received.tokens
        since = {"since": first["revision"]}
        unchanged = await client.call_tool("memory_read", since)
        assert ok(unchanged)["text"] == "The memory is unchanged since your last memory_read."
        assert ok(unchanged)["revision"] == first["revision"]
        app.change(GLOBAL, tea.id, text="Black tea.")
        note = ok(await client.call_tool("memory_read", since))
        assert note["text"] == change_note(received, app.chat_memory("proj"))
        assert note["kind"] == "change" and 'changed "Tea"' in note["text"]
        assert note["revision"] != first["revision"]
        full = ok(await client.call_tool("memory_read"))
        assert full["text"] == app.chat_memory("proj").text and full["revision"] == note["revision"]
        # Asked again from the same revision (another conversation still holds it): the same note.
        assert ok(await client.call_tool("memory_read", since))["text"] == note["text"]
        async with connect(root, "proj", mode=mode) as other:  # a new process: the same revisions
            assert ok(await other.call_tool("memory_read", {}))["revision"] == note["revision"]


async def test_turning_off_or_deleting_in_the_app_reaches_the_next_read(root: Path, mode: str) -> None:
    app = MemoryStore(root)
    async with connect(root, mode=mode) as client:
        a = ok(await client.call_tool("memory_save", {"title": "Mood", "text": "Tired today."}))
        b = ok(await client.call_tool("memory_save", {"title": "Uv", "text": "Use uv."}))
        first = ok(await client.call_tool("memory_read", {}))
        assert "## Mood" in first["text"]
        app.refresh()
        app.set_enabled(GLOBAL, a["id"], False)
        then = ok(await client.call_tool("memory_read", {"since": first["revision"]}))
        assert then["text"].startswith('Memory update: removed "Mood".')
        app.delete(GLOBAL, b["id"])
        note = ok(await client.call_tool("memory_read", {"since": then["revision"]}))["text"]
        assert note.startswith('Memory update: removed "Uv".')
        assert ok(await client.call_tool("memory_read", {}))["text"] == ""
        listed = ok(await client.call_tool("memory_list", {}))
    assert [(m["id"], m["enabled"]) for m in listed["memories"]] == [(a["id"], False)]


async def test_an_empty_memory_reads_as_a_sentence_with_exact_json(root: Path, mode: str) -> None:
    async with connect(root, mode=mode) as client:
        result = await client.call_tool("memory_read", {})
    revision = ok(result)["revision"]
    assert text(result) == "There are no memories for this chat yet."
    assert ok(result) == {
        "kind": "full",
        "text": "",
        "revision": revision,
        "tokens": 0,
        "limit": 8000,
        "message": "There are no memories for this chat yet.",
    }


async def test_saves_and_changes_wait_for_review_in_the_app(
    root: Path, mode: str, state_folder: Path
) -> None:
    async with connect(root, "proj", mode=mode) as client:
        saved = ok(await client.call_tool("memory_save", {"title": "Stack", "text": "Django."}))
        store = MemoryStore(root)
        [item] = pending_review(store)
        assert (item.memory.id, item.created_by_agent) == (saved["id"], True)
        mark_reviewed(store, "proj", saved["id"])
        assert pending_review(store) == []
        ok(
            await client.call_tool(
                "memory_change", {"id": saved["id"], "text": "Django 5.", "version": saved["version"]}
            )
        )
    store.refresh()
    [item] = pending_review(store)
    assert (item.before_text, item.after_text) == ("Django.", "Django 5.")
