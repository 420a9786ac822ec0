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
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

from store import MemoryStore
from tests.support.mcp import ok

#: Hang guards only (a stuck process fails the test instead of hanging it), never expectations.
HANG_GUARD_S = 120
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
async def test_save_change_and_read_while_another_process_edits(tmp_path: Path, mode: str) -> None:
    root = tmp_path / "oda"
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


class RawSession:
    """JSON-RPC lines written to ``oda-tui mcp`` by hand: what no SDK client would send."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    async def send(self, line: str | bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write((line.encode("utf-8") if isinstance(line, str) else line) + b"\n")
        await self.process.stdin.drain()

    async def reply(self) -> Any:
        assert self.process.stdout is not None
        line = await asyncio.wait_for(self.process.stdout.readline(), HANG_GUARD_S)
        assert line, "the server closed its output"
        return json.loads(line)

    async def call(self, request_id: int, params: str | bytes) -> Any:
        """A tools/call whose params are written exactly as given."""
        head = f'{{"jsonrpc": "2.0", "id": {request_id}, "method": "tools/call", "params": '.encode()
        await self.send(head + (params.encode("utf-8") if isinstance(params, str) else params) + b"}")
        message = await self.reply()
        assert message["id"] == request_id
        return message


async def test_raw_lines_the_sdk_cannot_read_get_an_answer(tmp_path: Path) -> None:
    root = tmp_path / "oda"
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

        # A lone surrogate, as JSON allows it: not text, nothing done.
        message = await raw.call(
            2, '{"name": "memory_save", "arguments": {"title": "T\\ud800", "text": "x"}}'
        )
        assert message["error"] == {
            "code": -32600,
            "message": "The request holds a lone surrogate (U+D800) or bytes that are not UTF-8, "
            "which are not valid text; nothing was done.",
        }
        # Bytes that are not UTF-8: refused too, never saved as U+FFFD.
        message = await raw.call(3, b'{"name": "memory_save", "arguments": {"title": "T\xff", "text": "x"}}')
        assert message["error"]["code"] == -32600 and "U+DCFF" in message["error"]["message"]
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
