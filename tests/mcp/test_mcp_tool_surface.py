"""The tools a model needs to work without guessing: search and pages, one memory whole,
on/off and one-passage edits, deleting, a retried save; and every answer matches its schema."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema
import pytest
from mcp import Client

from oda_tui.own_files.review_marks import mark_reviewed, pending_review
from store import GLOBAL, MemoryStore, entry_tokens, format_timestamp, memory_fingerprint
from tests.support.mcp import MODES, connect, ok, refused, text
from tests.support.stores import limited_store

pytestmark = [pytest.mark.parametrize("mode", MODES), pytest.mark.usefixtures("made_root")]

CHANGE = "The memory could not be changed: "
READ = "The memory could not be read: "


def files(root: Path) -> list[tuple[str, bytes]]:
    return sorted(
        (str(p), p.read_bytes()) for p in root.rglob("*") if p.is_file() and ".index" not in p.parts
    )


class Checked:
    """Tool calls whose successful answers are checked against the tool's output schema."""

    def __init__(self, client: Client, schemas: dict[str, dict[str, Any]]) -> None:
        self.client = client
        self.schemas = schemas

    async def ok(self, name: str, **args: Any) -> dict[str, Any]:
        data = ok(await self.client.call_tool(name, args))
        jsonschema.validate(data, self.schemas[name])
        return data

    async def refused(self, name: str, **args: Any) -> str:
        return refused(await self.client.call_tool(name, args))


async def checked(client: Client) -> Checked:
    tools = (await client.list_tools()).tools
    schemas = {t.name: t.output_schema for t in tools}
    for name, schema in schemas.items():
        assert schema is not None, name
        jsonschema.Draft202012Validator.check_schema(schema)
    return Checked(client, {n: s for n, s in schemas.items() if s is not None})


async def test_every_tool_has_a_title_hints_and_limits_from_the_settings(root: Path, mode: str) -> None:
    (root / "settings.yaml").write_text("title_max_chars: 50\ntext_max_chars: 700\n", "utf-8")
    async with connect(root, mode=mode) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    for tool in tools.values():
        assert tool.title and tool.annotations is not None and tool.annotations.title == tool.title
        assert tool.annotations.open_world_hint is False
    hints = {
        name: (t.annotations.read_only_hint, t.annotations.destructive_hint, t.annotations.idempotent_hint)
        for name, t in tools.items()
        if t.annotations is not None
    }
    assert hints == {
        "memory_list": (True, False, True),
        "memory_get": (True, False, True),
        "memory_read": (True, False, True),
        "memory_save": (False, False, True),
        "memory_change": (False, True, False),
        "memory_delete": (False, True, True),
    }
    save = tools["memory_save"].input_schema["properties"]
    assert (save["title"]["maxLength"], save["text"]["maxLength"]) == (50, 700)
    change = tools["memory_change"].input_schema["properties"]
    assert change["old_text"]["maxLength"] == change["new_text"]["maxLength"] == 700
    assert change["enabled"]["type"] == "boolean"
    listing = tools["memory_list"].input_schema["properties"]
    assert (listing["limit"]["minimum"], listing["limit"]["maximum"]) == (1, 500)
    assert "at most 500" in (tools["memory_list"].description or "")
    assert "at most 50 characters, the text at most 700 characters" in (
        tools["memory_save"].description or ""
    )


async def test_list_searches_like_the_app_and_pages_without_gaps(
    root: Path, store: MemoryStore, mode: str
) -> None:
    made = [
        store.create(GLOBAL, f"Note {n}", f"Body {n} of the {'tea' if n % 3 == 0 else 'coffee'} list.")
        for n in range(12)
    ]
    made += [store.create("proj", "Tea in proj", "Sencha, the TEA of choice.", enabled=False)]
    store.create("other", "Tea elsewhere", "another workspace's tea")
    async with connect(root, "proj", mode=mode) as client:
        tools = await checked(client)
        page = await tools.ok("memory_list", limit=5)
        seen = [m["id"] for m in page["memories"]]
        assert page["total"] == 13 and page["query"] is None and page["next_cursor"]
        while page["next_cursor"]:
            page = await tools.ok("memory_list", limit=5, cursor=page["next_cursor"])
            seen += [m["id"] for m in page["memories"]]
        assert seen == [m.id for m in made]
        # Words over title and text, any case, every word (the app's filter).
        tea = await tools.ok("memory_list", query="TEA list")
        assert [m["title"] for m in tea["memories"]] == ["Note 0", "Note 3", "Note 6", "Note 9"]
        both = await tools.ok("memory_list", query="tea")
        assert both["total"] == 5 and both["memories"][-1]["scope"] == "proj"
        assert both["memories"][-1]["enabled"] is False
        assert (await tools.ok("memory_list", query="nothing-like-this"))["memories"] == []
        first = (await tools.ok("memory_list", limit=1))["memories"][0]
    assert first == {
        "id": made[0].id,
        "version": memory_fingerprint(made[0]),
        "scope": None,
        "title": "Note 0",
        "enabled": True,
        "source": "user",
        "tokens": entry_tokens("Note 0", made[0].text),
        "preview": made[0].text,
    }


async def test_a_page_goes_on_after_a_memory_before_it_was_deleted(
    root: Path, store: MemoryStore, mode: str
) -> None:
    made = [store.create(GLOBAL, f"N{n}", "x" * 300) for n in range(4)]
    async with connect(root, mode=mode) as client:
        tools = await checked(client)
        page = await tools.ok("memory_list", limit=2)
        assert len(page["memories"][0]["preview"]) == 160 and page["memories"][0]["preview"].endswith("…")
        store.delete(GLOBAL, made[1].id)  # the last one listed goes
        rest = await tools.ok("memory_list", limit=2, cursor=page["next_cursor"])
    assert [m["id"] for m in rest["memories"]] == [made[2].id, made[3].id]
    assert rest["next_cursor"] is None and rest["total"] == 3


async def test_get_gives_one_memory_whole(root: Path, store: MemoryStore, mode: str) -> None:
    tea = store.create(GLOBAL, "Tea", "Green tea, " * 40 + "and more.")
    tea.path.with_name("0badf11e.md").write_text("no frontmatter\n", "utf-8")
    async with connect(root, "proj", mode=mode) as client:
        tools = await checked(client)
        data = await tools.ok("memory_get", id=tea.id)
        assert text(await client.call_tool("memory_get", {"id": tea.id})) == tea.text
        assert await tools.refused("memory_get", id="12345678") == (
            'No memory with the id "12345678" exists in this chat\'s memory. Call memory_list for the current ids.'
        )
        assert await tools.refused("memory_get", id="0badf11e") == (
            f"{READ}its file has a problem: The file does not start with a --- frontmatter block."
        )
    assert tea.created is not None and tea.updated is not None
    assert {k: v for k, v in data.items() if k != "chat"} == {
        "id": tea.id,
        "version": memory_fingerprint(tea),
        "scope": None,
        "title": "Tea",
        "text": tea.text,
        "enabled": True,
        "source": "user",
        "session_id": None,
        "created": format_timestamp(tea.created),
        "updated": format_timestamp(tea.updated),
        "tokens": entry_tokens("Tea", tea.text),
    }
    assert data["chat"] == {"workspace": "proj", "tokens": store.chat_tokens("proj"), "limit": 8000}


async def test_a_passage_is_replaced_only_when_it_occurs_once(
    root: Path, store: MemoryStore, mode: str
) -> None:
    mine = store.create("proj", "Style", "Use tabs. Wrap at 80. Use tabs in Makefiles.")
    before = files(root)
    async with connect(root, "proj", mode=mode) as client:
        tools = await checked(client)
        assert await tools.refused(
            "memory_change", id=mine.id, old_text="Use tabs", new_text="Use spaces"
        ) == (
            f'{CHANGE}the passage in "old_text" occurs 2 times in the memory\'s text; give a longer '
            "passage that occurs once."
        )
        assert await tools.refused("memory_change", id=mine.id, old_text="Wrap at 100", new_text="x") == (
            f'{CHANGE}the passage in "old_text" does not occur in the memory\'s text; call memory_get '
            "for its current text."
        )
        assert await tools.refused("memory_change", id=mine.id, old_text="Wrap") == (
            f'{CHANGE}"old_text" and "new_text" go together; give both.'
        )
        assert await tools.refused("memory_change", id=mine.id, text="t", old_text="Wrap", new_text="w") == (
            f'{CHANGE}give either "text" or "old_text" with "new_text", not both.'
        )
        assert await tools.refused("memory_change", id=mine.id, old_text="", new_text="w") == (
            f'{CHANGE}the passage in "old_text" is empty.'
        )
        assert files(root) == before
        data = await tools.ok("memory_change", id=mine.id, old_text="Wrap at 80.", new_text="Wrap at 100.")
    assert data["changed"] is True and data["text"] == "Use tabs. Wrap at 100. Use tabs in Makefiles."
    store.refresh()
    assert store.get("proj", mine.id).text == "Use tabs. Wrap at 100. Use tabs in Makefiles."
    assert [v.source for v in store.versions("proj", mine.id)] == ["chat", "settings"]


async def test_turning_off_is_never_refused_and_turning_on_is_checked(root: Path, mode: str) -> None:
    store = limited_store(root)  # the folder made: as a client configured for it finds it
    big = store.create(GLOBAL, "Big", "b" * 1500)
    off = store.create(GLOBAL, "Off", "o" * 1500, enabled=False)
    # Another program pushed the chat over its limit: turning one off must still work.
    big.path.with_name("abcdef01.md").write_text(
        "---\ntitle: Outside\nenabled: true\nsource: user\n---\n\n" + "z" * 1500 + "\n"
    )
    async with connect(root, mode=mode) as client:
        tools = await checked(client)
        data = await tools.ok("memory_change", id=big.id, enabled=False)
        assert (data["enabled"], data["changed"]) == (False, True)
        assert (
            data["message"]
            == f'Turned off the memory "Big" (id {big.id}): it is no longer sent, from the next step.'
        )
        again = await tools.ok("memory_change", id=big.id, enabled=False)
        assert (again["changed"], again["message"]) == (
            False,
            f'The memory "Big" (id {big.id}) was already off; nothing was saved.',
        )
        message = await tools.refused("memory_change", id=off.id, enabled=True)
        assert message.startswith("This change would bring the memory a chat receives to about ")
        assert message.endswith("tokens; the limit is 500.")
    store.refresh()
    assert (store.get(GLOBAL, big.id).enabled, store.get(GLOBAL, off.id).enabled) == (False, False)


async def test_delete_waits_under_recently_deleted_and_can_be_restored(
    root: Path, store: MemoryStore, mode: str
) -> None:
    keep = store.create("proj", "Keep", "stays")
    gone = store.create("proj", "Gone", "goes")
    async with connect(root, "proj", mode=mode) as client:
        tools = await checked(client)
        data = await tools.ok("memory_delete", id=gone.id, version=memory_fingerprint(gone))
        assert await tools.refused("memory_delete", id=gone.id, version=memory_fingerprint(gone)) == (
            f'No memory with the id "{gone.id}" exists in this chat\'s memory. Call memory_list for the current ids.'
        )
        listed = await tools.ok("memory_list")
        assert "## Gone" not in text(await client.call_tool("memory_read", {}))
    assert data == {
        "id": gone.id,
        "scope": "proj",
        "title": "Gone",
        "deleted": True,
        "chat": data["chat"],
        "message": f'Deleted the memory "Gone" (id {gone.id}). It waits under Recently deleted in oda-tui, '
        "where the person can restore it; it is no longer sent, from the next step.",
        "revision": data["revision"],
    }
    assert [m["id"] for m in listed["memories"]] == [keep.id]
    store.refresh()
    assert [(d.id, d.title, d.via) for d in store.deleted("proj")] == [(gone.id, "Gone", "chat")]
    # The deletion waits for the person's review; one made in the app does not.
    [item] = pending_review(store)
    assert (item.memory.id, item.deleted_by_agent, item.before_text) == (gone.id, True, "goes")
    store.delete("proj", keep.id)
    assert [i.memory.id for i in pending_review(store)] == [gone.id]
    assert store.restore_deleted("proj", gone.id) is not None
    assert pending_review(store) == []
    assert store.get("proj", gone.id).text == "goes"


async def test_an_accepted_deletion_no_longer_waits(root: Path, store: MemoryStore, mode: str) -> None:
    gone = store.create(GLOBAL, "Gone", "goes")
    async with connect(root, mode=mode) as client:
        await (await checked(client)).ok("memory_delete", id=gone.id, version=memory_fingerprint(gone))
    [item] = pending_review(store)
    mark_reviewed(store, GLOBAL, gone.id, version=item.newest.name)
    assert pending_review(store) == []
    assert [d.id for d in store.deleted(GLOBAL)] == [gone.id]


async def test_a_retried_save_answers_with_the_memory_already_saved(root: Path, mode: str) -> None:
    async with connect(root, "proj", mode=mode) as client:
        tools = await checked(client)
        first = await tools.ok("memory_save", title="Stack", text="Django 5.")
        again = await tools.ok("memory_save", title=" Stack ", text="Django 5.\n")
        other = await tools.ok("memory_save", title="Stack", text="Django 4.")
    assert (first["saved"], again["saved"], other["saved"]) == (True, False, True)
    assert again["id"] == first["id"] and other["id"] != first["id"]
    assert again["message"] == (
        f'The memory "Stack" (id {first["id"]}) was already saved in workspace proj with this title '
        "and text; nothing new was saved."
    )
    assert len(MemoryStore(root).memories("proj")) == 2


async def test_a_change_answers_match_the_schema_and_write_what_they_say(
    root: Path, store: MemoryStore, mode: str
) -> None:
    mine = store.create(GLOBAL, "Tea", "Green.", enabled=False)
    async with connect(root, mode=mode) as client:
        tools = await checked(client)
        data = await tools.ok("memory_change", id=mine.id, title="Tea, always", enabled=True)
        same = await tools.ok("memory_change", id=mine.id, title="Tea, always")
        assert await tools.refused(
            "memory_change",
            id=mine.id,
            text="password: Hunter2-office!",
            enabled=False,
            version=data["version"],
        ) == (
            f"{CHANGE}the text looks like it contains a password, and a memory is sent to the model "
            "with every message; leave the secret out (the person can save it in oda-tui if they are sure)."
        )
    assert (data["changed"], data["enabled"], data["title"]) == (True, True, "Tea, always")
    assert (same["changed"], same["note"]) == (False, "The memory already had that title and text.")
    store.refresh()
    assert store.get(GLOBAL, mine.id).enabled is True  # the refused call turned nothing off


async def test_a_workspace_keyed_global_is_told_apart_from_global(
    root: Path, store: MemoryStore, mode: str
) -> None:
    everywhere = store.create(GLOBAL, "Everywhere", "in Global")
    local = store.create("global", "Local", "in the workspace named global")
    async with connect(root, "global", mode=mode) as client:
        tools = await checked(client)
        listed = await tools.ok("memory_list")
        saved = await tools.ok("memory_save", title="New", text="saved in the workspace")
    assert [(m["id"], m["scope"]) for m in listed["memories"]] == [
        (everywhere.id, None),
        (local.id, "global"),
    ]
    assert listed["chat"]["workspace"] == "global" and saved["scope"] == "global"
    assert "workspace global" in saved["message"]
