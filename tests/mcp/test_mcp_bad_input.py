"""Bad input to the MCP tools: a clear tool error, nothing written, and the server keeps serving."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from store import GLOBAL, MemoryStore, memory_fingerprint
from tests.support.mcp import MODES, connect, ok, refused

pytestmark = [pytest.mark.parametrize("mode", MODES), pytest.mark.usefixtures("made_root")]

CHANGE = "The memory could not be changed: "
READ = "The memory could not be read: "


def everything(root: Path) -> list[tuple[str, bytes]]:
    """Every file under the root (a refused call adds or changes none)."""
    if not root.exists():
        return []
    return sorted(
        (str(p), p.read_bytes()) for p in root.rglob("*") if p.is_file() and ".index" not in p.parts
    )


async def test_wrong_arguments_are_named(root: Path, mode: str) -> None:
    mine = MemoryStore(root).create(GLOBAL, "Tea", "Green.")
    before = everything(root)
    cases: list[tuple[str, dict[str, Any], str]] = [
        (
            "memory_nap",
            {},
            'There is no tool "memory_nap"; the tools are memory_list, memory_get, memory_read, '
            "memory_save, memory_change, memory_delete.",
        ),
        (
            "memory_list",
            {"verbose": True},
            'The memory could not be read: memory_list does not take the argument "verbose"; it '
            'takes "query", "limit" and "cursor".',
        ),
        (
            "memory_save",
            {"title": "T", "text": "x", "tags": ["a"], "pin": 1},
            'The memory could not be changed: memory_save does not take the arguments "tags" and '
            '"pin"; it takes "title", "text", "scope" and "since".',
        ),
        ("memory_save", {"title": "T"}, f'{CHANGE}memory_save needs the argument "text".'),
        ("memory_save", {"text": "x"}, f'{CHANGE}memory_save needs the argument "title".'),
        ("memory_save", {"title": 5, "text": "x"}, f'{CHANGE}the argument "title" must be a string.'),
        ("memory_save", {"title": "T", "text": ["x"]}, f'{CHANGE}the argument "text" must be a string.'),
        ("memory_change", {"id": 12345678, "text": "x"}, f'{CHANGE}the argument "id" must be a string.'),
        ("memory_change", {"text": "x"}, f'{CHANGE}memory_change needs the argument "id".'),
        (
            "memory_change",
            {"id": mine.id, "title": {"a": 1}},
            f'{CHANGE}the argument "title" must be a string.',
        ),
        (
            "memory_change",
            {"id": mine.id, "enabled": "no"},
            f'{CHANGE}the argument "enabled" must be true or false.',
        ),
        ("memory_delete", {"id": None}, f'{CHANGE}memory_delete needs the argument "id".'),
        ("memory_get", {"id": 5}, f'{READ}the argument "id" must be a string.'),
        ("memory_list", {"limit": "ten"}, f'{READ}the argument "limit" must be a whole number.'),
        ("memory_list", {"limit": 2.5}, f'{READ}the argument "limit" must be a whole number.'),
        ("memory_list", {"limit": 0}, f'{READ}the argument "limit" must be from 1 to 500.'),
        (
            "memory_list",
            {"cursor": "nope"},
            f'{READ}the cursor "nope" is not one memory_list gave; call memory_list without it.',
        ),
        ("memory_read", {"since": 1}, f'{READ}the argument "since" must be a string.'),
        (
            "memory_read",
            {"full": True},
            f'{READ}memory_read does not take the argument "full"; it takes "since".',
        ),
    ]
    async with connect(root, mode=mode) as client:
        for name, args, message in cases:
            assert refused(await client.call_tool(name, args)) == message, (name, args)
        # Still serving, and nothing was written.
        assert [m["id"] for m in ok(await client.call_tool("memory_list", {}))["memories"]] == [mine.id]
    assert everything(root) == before


async def test_lone_surrogates_and_huge_strings_write_nothing(root: Path, mode: str) -> None:
    mine = MemoryStore(root).create(GLOBAL, "Tea", "Green.")
    mine_version = memory_fingerprint(mine)
    before = everything(root)
    async with connect(root, mode=mode) as client:

        async def call(name: str, **args: object) -> str:
            return refused(await client.call_tool(name, args))

        assert await call("memory_save", title="T\ud800", text="x") == (
            f'{CHANGE}the argument "title" is not valid text (it holds a lone surrogate, U+D800).'
        )
        assert await call("memory_save", title="T", text="a\udfffb") == (
            f'{CHANGE}the argument "text" is not valid text (it holds a lone surrogate, U+DFFF).'
        )
        assert await call("memory_change", id=mine.id, text="\ud83d", version=mine_version) == (
            f'{CHANGE}the argument "text" is not valid text (it holds a lone surrogate, U+D83D).'
        )
        assert await call("memory_change", id="\ud800" * 3, text="x") == (
            f'{CHANGE}the argument "id" is not valid text (it holds a lone surrogate, U+D800).'
        )
        # Names quoted back hold no lone surrogate: the answer must itself be valid text.
        if mode == "legacy":  # the 2026 client cannot even send it (the name goes in a header)
            assert refused(await client.call_tool("memory_\ud800", {})).startswith(
                'There is no tool "memory_\\ud800"; the tools are'
            )
        assert await call("memory_get", id="1234567\udbff") == (
            f'{READ}the argument "id" is not valid text (it holds a lone surrogate, U+DBFF).'
        )
        # (The SDK's client may already have replaced a lone half in a key: either way the
        # answer is valid text that names the argument.)
        named = refused(await client.call_tool("memory_read", {"f\udbff": 1}))
        assert re.fullmatch(r'.*: memory_read does not take the argument "f.+"; it takes "since"\.', named)
        named.encode("utf-8")
        huge_id = "a" * 1_000_000
        assert await call("memory_change", id=huge_id, text="x") == (
            f'No memory with the id "{"a" * 40}…" exists in this chat\'s memory. '
            "Call memory_list for the current ids."
        )
        assert (
            await call("memory_change", id=mine.id, text="x" * 3_000_000, version=mine_version)
        ).startswith("A memory is limited to 2000 characters; this one has 3000000.")
        # Emoji and other text outside the BMP are fine (real pairs, not lone halves).
        ok(
            await client.call_tool(
                "memory_change", {"id": mine.id, "text": "Green 🍵.", "version": mine_version}
            )
        )
    store = MemoryStore(root)
    assert store.get(GLOBAL, mine.id).text == "Green 🍵."
    assert [p for p, _ in everything(root) if p.endswith(".md") and "/history/" not in p] == [
        p for p, _ in before if p.endswith(".md") and "/history/" not in p
    ]


async def test_a_named_root_that_does_not_exist_is_a_tool_error(tmp_path: Path, mode: str) -> None:
    root = tmp_path / "typo"
    reason = (
        f"the memory folder {root} does not exist; create it, or start oda-tui mcp with --root naming "
        "the folder that holds the memories."
    )
    async with connect(root, mode=mode) as client:
        for name, args, form in [
            ("memory_list", {}, READ),
            ("memory_get", {"id": "12345678"}, READ),
            ("memory_read", {}, READ),
            ("memory_save", {"title": "T", "text": "x"}, CHANGE),
            ("memory_change", {"id": "12345678", "text": "x"}, CHANGE),
            ("memory_delete", {"id": "12345678", "version": "v0"}, CHANGE),
        ]:
            assert refused(await client.call_tool(name, args)) == form + reason, name
        assert not root.exists()
        # The folder appears (the person fixed it): the same session now works.
        root.mkdir()
        saved = ok(await client.call_tool("memory_save", {"title": "T", "text": "x"}))
    assert MemoryStore(root).get(GLOBAL, saved["id"]).text == "x"


async def test_a_root_that_is_a_file_is_a_tool_error(tmp_path: Path, mode: str) -> None:
    root = tmp_path / "file"
    root.write_text("not a folder", "utf-8")
    async with connect(root, mode=mode) as client:
        message = refused(await client.call_tool("memory_save", {"title": "T", "text": "x"}))
        assert message == f"{CHANGE}the memory folder {root} is not a folder."
        assert refused(await client.call_tool("memory_read", {})) == (
            f"{READ}the memory folder {root} is not a folder."
        )
    assert root.read_text("utf-8") == "not a folder"


async def test_odas_default_folder_may_not_exist_yet(tmp_path: Path, mode: str) -> None:
    root = tmp_path / "fresh" / "memory"  # a fresh install: Oda's own folder, not named
    async with connect(root, mode=mode, root_named=False) as client:
        assert ok(await client.call_tool("memory_list", {}))["memories"] == []
        assert ok(await client.call_tool("memory_read", {}))["text"] == ""
        assert not root.exists()
        saved = ok(await client.call_tool("memory_save", {"title": "First", "text": "Hello."}))
    assert MemoryStore(root).get(GLOBAL, saved["id"]).title == "First"


async def test_a_failure_inside_a_tool_is_a_tool_error_and_the_server_goes_on(
    root: Path, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_create, real_memories = MemoryStore.create, MemoryStore.memories

    def disk_full(*_args: object, **_kw: object) -> None:
        raise OSError(28, "No space left on device")

    def broken(*_args: object, **_kw: object) -> None:
        raise RuntimeError("boom")

    async with connect(root, mode=mode) as client:
        monkeypatch.setattr(MemoryStore, "create", disk_full)
        message = refused(await client.call_tool("memory_save", {"title": "T", "text": "x"}))
        assert message == "The memory could not be changed: No space left on device."
        monkeypatch.setattr(MemoryStore, "memories", broken)
        assert refused(await client.call_tool("memory_read", {})) == (
            f"{READ}an unexpected RuntimeError: boom."
        )
        monkeypatch.setattr(MemoryStore, "create", real_create)
        monkeypatch.setattr(MemoryStore, "memories", real_memories)
        ok(await client.call_tool("memory_save", {"title": "T", "text": "x"}))
        assert ok(await client.call_tool("memory_read", {}))["kind"] == "full"
