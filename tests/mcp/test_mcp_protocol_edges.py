"""Protocol edges over real stdio: every line a client sends gets an answer, never silence;
Ctrl-C ends a hand-run server at once; a workspace keyed "global" is not Global."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
from pathlib import Path

import pytest

from store import GLOBAL, MemoryStore
from tests.support.mcp_wire import HANG_GUARD_S, invalid_request, raw_server, server_command

pytestmark = pytest.mark.usefixtures("made_root")


PING = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
LIST = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "memory_list", "arguments": {}}}


@pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26"])
async def test_a_batch_is_answered_item_by_item_where_the_version_has_batches(
    root: Path, version: str
) -> None:
    async with raw_server(root) as raw:
        assert (await raw.initialize(version))["result"]["protocolVersion"] == version
        foreign = {"jsonrpc": "1.0", "id": 4, "method": "ping"}
        note = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}}
        answer = await raw.ask([PING, LIST, foreign, note])
    assert isinstance(answer, list)
    by_id = {a["id"]: a for a in answer}
    assert sorted(by_id) == [2, 3, 4]  # the notification gets none, as JSON-RPC says
    assert by_id[2]["result"] == {}
    assert by_id[3]["result"]["structuredContent"]["memories"] == []
    assert by_id[4]["error"]["code"] == -32600


@pytest.mark.parametrize("version", ["2025-06-18", "2025-11-25"])
async def test_a_batch_is_refused_where_the_version_has_none(root: Path, version: str) -> None:
    async with raw_server(root) as raw:
        await raw.initialize(version)
        answer = await raw.ask([PING, LIST])
        assert answer == invalid_request(
            None,
            f"Batches (a JSON array of messages) are not part of protocol version {version}; "
            "send one message per line. Nothing was done.",
        )
        assert (await raw.ask(PING))["result"] == {}  # still serving
        assert (await raw.ask([]))["error"]["code"] == -32600


async def test_a_message_that_is_not_json_rpc_2_0_gets_an_error(root: Path) -> None:
    async with raw_server(root) as raw:
        await raw.initialize()
        answer = await raw.ask({"jsonrpc": "1.0", "id": 5, "method": "ping"})
        assert answer == invalid_request(
            5, 'The message is not JSON-RPC 2.0: "jsonrpc" must be "2.0"; nothing was done.'
        )


async def test_a_fractional_id_gets_an_error_echoing_it(root: Path) -> None:
    async with raw_server(root) as raw:
        await raw.initialize()
        answer = await raw.ask({"jsonrpc": "2.0", "id": 5.5, "method": "ping"})
        assert answer == invalid_request(
            5.5, "The request id must be a string or a whole number; nothing was done."
        )
        # A notification that only mentions "id" in its text still goes through quietly.
        await raw.send(
            '{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "id"}}'
        )
        assert (await raw.ask(PING))["id"] == 2


@pytest.mark.parametrize("bad_id", [None, {"a": 1}, [1]], ids=["null", "object", "array"])
async def test_a_request_whose_id_is_not_an_id_gets_an_error_with_id_null(root: Path, bad_id: object) -> None:
    async with raw_server(root) as raw:
        await raw.initialize()
        for method in ("ping", "tools/list"):
            answer = await raw.ask({"jsonrpc": "2.0", "id": bad_id, "method": method})
            assert answer == invalid_request(
                None, "The request id must be a string or a whole number; nothing was done."
            )
        # A reply the client sends with id null (JSON-RPC's "could not read your id") is left alone.
        await raw.send(json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "x"}}))
        assert (await raw.ask(PING))["id"] == 2


async def test_resource_templates_are_an_empty_list(root: Path) -> None:
    async with raw_server(root) as raw:
        await raw.initialize()
        answer = await raw.ask({"jsonrpc": "2.0", "id": 6, "method": "resources/templates/list"})
    assert answer["result"]["resourceTemplates"] == []


@pytest.mark.parametrize("initialized", [False, True], ids=["before-initialize", "serving"])
async def test_ctrl_c_ends_the_server_at_once_without_a_traceback(root: Path, initialized: bool) -> None:
    async with raw_server(root, stderr=subprocess.PIPE) as raw:
        if initialized:
            await raw.initialize()
        assert (await raw.ask(PING))["result"] == {}  # the server is up and reading
        raw.process.send_signal(signal.SIGINT)
        # Ends with stdin still open: it does not wait for the client to go away.
        code = await asyncio.wait_for(raw.process.wait(), HANG_GUARD_S)
        assert raw.process.stderr is not None
        errors = (await raw.process.stderr.read()).decode("utf-8", "replace")
    assert code == 130
    assert "Traceback" not in errors and "KeyboardInterrupt" not in errors


async def test_a_workspace_keyed_global_is_not_global(root: Path, store: MemoryStore) -> None:
    everywhere = store.create(GLOBAL, "Everywhere", "in Global")
    local = store.create("global", "Local", "in the workspace keyed global")
    async with raw_server(root, "--workspace", "global") as raw:
        await raw.initialize()
        answer = await raw.ask(LIST)
        resources = await raw.ask({"jsonrpc": "2.0", "id": 7, "method": "resources/list"})
    listed = answer["result"]["structuredContent"]
    assert [(m["id"], m["scope"]) for m in listed["memories"]] == [
        (everywhere.id, None),
        (local.id, "global"),
    ]
    assert listed["chat"]["workspace"] == "global"
    assert [r["uri"] for r in resources["result"]["resources"]] == ["oda://memory/workspaces/global"]


@pytest.mark.slow
@pytest.mark.parametrize("version", ["2025-03-26", "2025-06-18"])
def test_stdin_closed_right_after_the_calls_still_gets_every_answer(root: Path, version: str) -> None:
    """``printf '...' | oda-tui mcp``: the client closes stdin at once; each call is answered."""
    start = {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "pipe", "version": "1"}}
    lines: list[object] = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": start},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]
    saves = {n: f"Saved {n}" for n in range(2, 12)}
    for n, title in saves.items():
        arguments = {"title": title, "text": f"Text {n}."}
        lines.append(
            {
                "jsonrpc": "2.0",
                "id": n,
                "method": "tools/call",
                "params": {"name": "memory_save", "arguments": arguments},
            }
        )
    lines.append([PING | {"id": 12}] if version == "2025-03-26" else PING | {"id": 12})
    sent = "".join(json.dumps(line) + "\n" for line in lines)
    done = subprocess.run(
        server_command(root), input=sent, capture_output=True, text=True, timeout=HANG_GUARD_S, check=False
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    flat = [a for answer in answers for a in (answer if isinstance(answer, list) else [answer])]
    by_id = {a["id"]: a for a in flat}
    assert sorted(by_id) == list(range(1, 13)), done.stderr
    for n, title in saves.items():
        assert by_id[n]["result"]["structuredContent"]["title"] == title
    assert by_id[12]["result"] == {}
    assert done.returncode == 0
    assert sorted(m.title for m in MemoryStore(root).memories(GLOBAL)) == sorted(saves.values())
