"""``oda-tui mcp`` as a real subprocess over stdio, while another process edits the same memory."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from store import MemoryStore
from tests.support.mcp import ok
from tests.support.mcp_wire import HANG_GUARD_S, RawSession

#: Among the suite's longest: started first (see ``tests/conftest.py``).
pytestmark = pytest.mark.slow

EDITS = 15


def server_params(root: Path, *args: str) -> StdioServerParameters:
    env = {**os.environ, "ODA_TUI_STATE": str(root.parent / "state")}
    return StdioServerParameters(
        command=sys.executable, args=["-m", "oda_tui", "mcp", "--root", str(root), *args], env=env
    )


EDITOR = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from store import MemoryStore

    root, memory_id, edits = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    for n in range(edits):
        store = MemoryStore(root)  # a fresh look each time, like another program
        store.change("proj", memory_id, text=f"Django 5, edited in the app ({n}).")
    """
)


def edit_number(text: str) -> int:
    """Where a text is in the other process's sequence: the first, each edit, then vim's."""
    if text == "Django.":
        return -1
    if text.endswith("(vim)."):
        return EDITS
    found = re.search(r"\((\d+)\)\.$", text)
    assert found is not None, text
    return int(found.group(1))


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_save_change_and_read_while_another_process_edits(root: Path, mode: str) -> None:
    root.mkdir()
    async with Client(server_params(root, "--workspace", "proj"), mode=mode) as client:
        saved = ok(await client.call_tool("memory_save", {"title": "Stack", "text": "Django."}))
        memory_id = saved["id"]
        first = ok(await client.call_tool("memory_read", {}))
        assert first["text"] == "# Memory\n\n## Stack\n\nDjango.\n"

        # The other process changes the text again and again while the agent changes the title...
        editor = await asyncio.create_subprocess_exec(
            sys.executable, "-c", EDITOR, str(root), memory_id, str(EDITS), env={**os.environ}
        )
        # ...until it is done (however the two interleave on a busy machine).
        takes = 0
        async with asyncio.timeout(HANG_GUARD_S):  # a hang guard: the editor always ends
            while editor.returncode is None or takes == 0:
                title = f"Stack (take {takes})"
                ok(await client.call_tool("memory_change", {"id": memory_id, "title": title}))
                takes += 1
        assert await asyncio.wait_for(editor.wait(), HANG_GUARD_S) == 0

        # Then an editor such as vim writes the file directly (no store, no history): the
        # agent's next change keeps that text as a version first.
        path = root / "workspaces" / "proj" / f"{memory_id}.md"
        last = f"({EDITS - 1})."
        path.write_text(path.read_text("utf-8").replace(last, "(vim)."), "utf-8")
        ok(await client.call_tool("memory_change", {"id": memory_id, "title": "Stack"}))
        note = ok(await client.call_tool("memory_read", {"since": first["revision"]}))["text"]
        full = ok(await client.call_tool("memory_read", {}))["text"]

    store = MemoryStore(root)
    memory = store.get("proj", memory_id)
    # Nothing lost: the agent's title and the other process's text are both there.
    assert (memory.title, memory.text) == ("Stack", "Django 5, edited in the app (vim).")
    assert full == "# Memory\n\n## Stack\n\nDjango 5, edited in the app (vim).\n"
    assert note.startswith('Memory update: changed "Stack".')
    versions = store.versions("proj", memory_id)
    assert (versions[0].source, versions[0].title) == ("chat", "Stack")
    assert (versions[1].source, versions[1].text) == ("external", "Django 5, edited in the app (vim).")
    # No change of the agent's ever put back an older text: the kept versions' texts only
    # move forward through the other process's edits.
    order = [edit_number(v.text) for v in reversed(versions)]
    assert order == sorted(order)
    assert memory.source == "ai" and memory.session_id


async def test_raw_lines_the_sdk_cannot_read_get_an_answer(root: Path) -> None:
    root.mkdir()
    process = await asyncio.create_subprocess_exec(
        *[sys.executable, "-m", "oda_tui", "mcp", "--root", str(root)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    raw = RawSession(process)
    try:
        hello = {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "0"},
        }
        await raw.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello}))
        assert (await raw.reply())["result"]["serverInfo"]["name"] == "oda-tui"
        await raw.send('{"jsonrpc": "2.0", "method": "notifications/initialized"}')

        # A lone surrogate in a tool's argument, as JSON allows it: the tool refuses it in the
        # spec's form (a tool error the model reads), and nothing is written.
        message = await raw.call(
            2, '{"name": "memory_save", "arguments": {"title": "T\\ud800", "text": "x"}}'
        )
        assert message["result"] == {
            "content": [
                {
                    "type": "text",
                    "text": 'The memory could not be changed: the argument "title" is not valid text '
                    "(it holds a lone surrogate, U+D800).",
                }
            ],
            "isError": True,
        }
        # Bytes that are not UTF-8: refused too, never saved as U+FFFD.
        message = await raw.call(3, b'{"name": "memory_save", "arguments": {"title": "T\xff", "text": "x"}}')
        assert message["result"]["isError"] is True
        assert "U+DCFF" in message["result"]["content"][0]["text"]
        # Elsewhere than in a tool call, a lone surrogate is a JSON-RPC error naming it.
        message = await raw.ask(
            {"jsonrpc": "2.0", "id": 7, "method": "resources/read", "params": {"uri": "oda://x\ud800"}}
        )
        assert message["id"] == 7 and message["error"] == {
            "code": -32600,
            "message": "The request holds a lone surrogate (U+D800) or bytes that are not UTF-8, "
            "which are not valid text; nothing was done.",
        }
        # Arguments that are not an object: the SDK's own invalid-params error.
        message = await raw.call(4, '{"name": "memory_save", "arguments": "title=T"}')
        assert message["error"]["code"] == -32602
        # A broken line: a parse error (no id to answer to).
        await raw.send('{"jsonrpc": "2.0", "id": 99, "method": "tools/call", "params": {"name": ')
        broken = await raw.reply()
        assert broken["id"] is None and broken["error"]["code"] == -32700
        # Still serving: a good call after all of that works.
        listed = await raw.call(5, '{"name": "memory_list", "arguments": {}}')
        assert listed["result"]["structuredContent"]["memories"] == []
        saved = await raw.call(
            6, '{"name": "memory_save", "arguments": {"title": "T", "text": "ok \\ud83c\\udf75"}}'
        )
        assert saved["result"]["isError"] is False
    finally:
        assert process.stdin is not None
        process.stdin.close()
        await asyncio.wait_for(process.wait(), HANG_GUARD_S)
    assert [m.text for m in MemoryStore(root).memories(None)] == ["ok 🍵"]


async def test_a_bad_workspace_key_stops_at_start_with_one_line(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "oda_tui", "mcp", "--root", str(tmp_path), "--workspace", "../up"],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_S,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith('The workspace key "../up" is not valid')


async def test_every_tool_over_stdio_with_the_sdk_client(root: Path) -> None:
    root.mkdir()
    async with Client(server_params(root, "--workspace", "proj")) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        saved = ok(await client.call_tool("memory_save", {"title": "Stack", "text": "Django and HTMX."}))
        found = ok(await client.call_tool("memory_list", {"query": "htmx", "limit": 10}))
        whole = ok(await client.call_tool("memory_get", {"id": saved["id"]}))
        edited = ok(
            await client.call_tool(
                "memory_change", {"id": saved["id"], "old_text": "HTMX", "new_text": "Alpine"}
            )
        )
        off = ok(await client.call_tool("memory_change", {"id": saved["id"], "enabled": False}))
        read = ok(await client.call_tool("memory_read", {}))
        gone = ok(await client.call_tool("memory_delete", {"id": saved["id"], "version": off["version"]}))
    assert sorted(tools) == sorted(
        ["memory_list", "memory_get", "memory_read", "memory_save", "memory_change", "memory_delete"]
    )
    assert [m["id"] for m in found["memories"]] == [saved["id"]]
    assert whole["text"] == "Django and HTMX." and edited["text"] == "Django and Alpine."
    assert off["enabled"] is False and read["text"] == "" and gone["deleted"] is True
    assert [d.id for d in MemoryStore(root).deleted("proj")] == [saved["id"]]
