"""An agent never replaces what it did not see: every memory in every answer carries its
``version``; a whole text and a deletion name the version read, and a memory changed since is
refused with the memory as it is now. Every write answers the chat's new ``revision``."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client

from store import MemoryStore, memory_fingerprint
from tests.support.files import memory_file, write_raw
from tests.support.mcp import MODES, connect, ok, refused, refused_with_memory
from tests.support.mcp_wire import stdio_params

STALE = (
    "The memory could not be changed: it was changed since you read it; its current text is in this answer."
)
PERSON = "Tag the release. Never on Fridays."


@pytest.mark.slow
async def test_a_stale_whole_text_change_over_stdio_keeps_the_persons_edit(root: Path) -> None:
    root.mkdir()
    async with Client(stdio_params(root, "--workspace", "proj")) as client:
        saved = ok(await client.call_tool("memory_save", {"title": "Deploy", "text": "Tag the release."}))
        got = ok(await client.call_tool("memory_get", {"id": saved["id"]}))
        assert got["version"] == saved["version"]
        # The person saves an edit after the agent read the memory.
        MemoryStore(root).change("proj", saved["id"], text=PERSON)
        stale = await client.call_tool(
            "memory_change",
            {"id": saved["id"], "text": got["text"] + " Tag the commit first.", "version": got["version"]},
        )
        now = refused_with_memory(stale)
        assert now["message"] == STALE
        assert (now["id"], now["text"], now["changed"]) == (saved["id"], PERSON, False)
        assert now["version"] != got["version"]
        assert MemoryStore(root).get("proj", saved["id"]).text == PERSON
        # One more step: the change made over the memory as it is now.
        redone = ok(
            await client.call_tool(
                "memory_change",
                {
                    "id": saved["id"],
                    "text": now["text"] + " Tag the commit first.",
                    "version": now["version"],
                },
            )
        )
    assert redone["text"] == PERSON + " Tag the commit first."
    assert MemoryStore(root).get("proj", saved["id"]).text == PERSON + " Tag the commit first."


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.usefixtures("made_root")
async def test_a_whole_text_or_a_deletion_without_a_version_is_refused_pointing_at_memory_get(
    root: Path, store: MemoryStore, mode: str
) -> None:
    mine = store.create("proj", "Deploy", "Tag the release.")
    async with connect(root, "proj", mode=mode) as client:
        changed = refused(await client.call_tool("memory_change", {"id": mine.id, "text": "New."}))
        deleted = refused(await client.call_tool("memory_delete", {"id": mine.id}))
    assert changed == (
        'The memory could not be changed: a whole new text replaces the one there, so give the "version" '
        "memory_get gave for it; call memory_get for its current text and version, then change that (or "
        "give old_text and new_text to replace one passage)."
    )
    assert deleted == (
        'The memory could not be changed: memory_delete needs the memory\'s "version" as memory_get gave '
        "it, so that nothing you have not seen is deleted; call memory_get for it."
    )
    assert store.get("proj", mine.id).text == "Tag the release."


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.usefixtures("made_root")
async def test_an_editors_write_makes_the_version_stale_for_a_deletion(
    root: Path, store: MemoryStore, mode: str
) -> None:
    mine = store.create("proj", "Deploy", "Tag the release.")
    async with connect(root, "proj", mode=mode) as client:
        listed = ok(await client.call_tool("memory_list", {}))["memories"][0]
        assert listed["version"] == memory_fingerprint(mine)
        write_raw(mine.path, memory_file("Deploy", PERSON))  # vim, not the store
        now = refused_with_memory(
            await client.call_tool("memory_delete", {"id": mine.id, "version": listed["version"]})
        )
        assert (now["message"], now["text"], now["deleted"]) == (STALE, PERSON, False)
        assert mine.path.exists()
        gone = ok(await client.call_tool("memory_delete", {"id": mine.id, "version": now["version"]}))
    assert gone["deleted"] is True and not mine.path.exists()


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.usefixtures("made_root")
async def test_a_passage_or_the_switch_needs_no_version_but_one_given_is_checked(
    root: Path, store: MemoryStore, mode: str
) -> None:
    mine = store.create("proj", "Deploy", "Tag the release.")
    seen = memory_fingerprint(mine)
    store.change("proj", mine.id, text=PERSON)
    async with connect(root, "proj", mode=mode) as client:
        passage = {"id": mine.id, "old_text": "Tag the release.", "new_text": "Tag it."}
        refused_with_memory(await client.call_tool("memory_change", {**passage, "version": seen}))
        off = {"id": mine.id, "enabled": False}
        refused_with_memory(await client.call_tool("memory_change", {**off, "version": seen}))
        assert store.get("proj", mine.id).enabled is True
        edited = ok(await client.call_tool("memory_change", passage))
        assert edited["text"] == "Tag it. Never on Fridays."  # over the person's text as it is now
        turned = ok(await client.call_tool("memory_change", {**off, "version": edited["version"]}))
    assert turned["enabled"] is False and turned["version"] != edited["version"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.usefixtures("made_root")
async def test_a_memory_that_became_a_problem_file_is_not_deleted(
    root: Path, store: MemoryStore, mode: str
) -> None:
    mine = store.create(None, "Deploy", "Tag the release.")
    write_raw(mine.path, "no frontmatter any more\n")
    async with connect(root, mode=mode) as client:
        message = refused(
            await client.call_tool("memory_delete", {"id": mine.id, "version": memory_fingerprint(mine)})
        )
    assert message == (
        "The memory could not be changed: it was changed since you read it, and its file now has a problem "
        "(The file does not start with a --- frontmatter block); the person can fix it in oda-tui."
    )
    assert mine.path.exists()


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.usefixtures("made_root")
async def test_every_write_answers_the_revision_so_the_writer_is_not_sent_its_own_change(
    root: Path, store: MemoryStore, mode: str
) -> None:
    async with connect(root, "proj", mode=mode) as client:
        ok(await client.call_tool("memory_read", {}))
        saved = ok(await client.call_tool("memory_save", {"title": "Deploy", "text": "Tag the release."}))
        after_save = ok(await client.call_tool("memory_read", {"since": saved["revision"]}))
        assert after_save["kind"] == "unchanged"
        changed = ok(
            await client.call_tool(
                "memory_change", {"id": saved["id"], "old_text": "release", "new_text": "commit"}
            )
        )
        store.create("proj", "Style", "Tabs.")  # the person's own, after the agent's change
        after_change = ok(await client.call_tool("memory_read", {"since": changed["revision"]}))
        assert after_change["kind"] == "change"
        assert after_change["text"].startswith('Memory update: added "Style".')
        assert "Deploy" not in after_change["text"]
        deleted = ok(
            await client.call_tool("memory_delete", {"id": saved["id"], "version": changed["version"]})
        )
        again = ok(await client.call_tool("memory_read", {"since": deleted["revision"]}))
    assert again["kind"] == "unchanged"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.usefixtures("made_root")
async def test_a_write_given_since_still_brings_what_others_changed_in_the_next_read(
    root: Path, store: MemoryStore, mode: str
) -> None:
    tea = store.create("proj", "Tea", "Green tea.")
    gone = store.create("proj", "Old", "To be removed.")
    async with connect(root, "proj", mode=mode) as client:
        held = ok(await client.call_tool("memory_read", {}))["revision"]
        # The person changes one memory and deletes another while the agent works...
        store.change("proj", tea.id, text="Black tea.")
        store.delete("proj", gone.id)
        # ...and the agent saves one, naming the revision it holds.
        saved = ok(
            await client.call_tool(
                "memory_save", {"title": "Deploy", "text": "Tag the release.", "since": held}
            )
        )
        note = ok(await client.call_tool("memory_read", {"since": saved["revision"]}))
        assert note["kind"] == "change"
        assert note["text"].startswith('Memory update: changed "Tea"; removed "Old".')
        assert "Deploy" not in note["text"]
        # Without since, the revision is the memory as the call saw it.
        plain = ok(await client.call_tool("memory_save", {"title": "Style", "text": "Tabs."}))
        assert ok(await client.call_tool("memory_read", {"since": plain["revision"]}))["kind"] == "unchanged"
