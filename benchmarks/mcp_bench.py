"""MCP server measurements over stdio, each beside the SDK's floor measured in the same run.

Each row is measured twice: with raw JSON-RPC lines (``raw_client``: the server's own round
trip, which the targets are about) and with the SDK's Python client (which also checks every
structured answer against the tool's outputSchema: what a Python host waits for).

The floor is ``benchmarks.floor_server``: an SDK server whose one tool returns a constant,
started and called exactly as ``oda-tui mcp`` is. Both run at once and their calls alternate,
so load on a shared machine falls on both alike; a tool's figure is read as its excess over
the floor. A round trip is what an assistant waits for: the request written, the server
answering, the reply parsed by the SDK's client. Raises ``NotMeasured`` with the reason when
the server cannot be run; a number is never made up.
"""

from __future__ import annotations

import functools
import os
import statistics
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from store import Memory, MemoryStore, fingerprint
from store.disk.layout import SETTINGS_FILE

from .app_bench import NotMeasured
from .raw_client import RawClient

#: The benchmark's stores hold far more than a chat's default limit: saves must not be refused.
SETTINGS = b"chat_max_tokens: 1000000\n"


def _percentile(times: list[float], fraction: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def _oda_args(root: Path, workspace: str) -> list[str]:
    return ["-m", "oda_tui", "mcp", "--root", str(root), "--workspace", workspace]


def _params(args: list[str]) -> Any:
    from mcp import StdioServerParameters

    return StdioServerParameters(command=sys.executable, args=args, env={**os.environ})


async def _start_up(args: list[str]) -> float:
    """Seconds from starting the process to the client holding the ``initialize`` answer."""
    from mcp import Client

    start = time.perf_counter()
    async with Client(_params(args), mode="legacy"):
        took = time.perf_counter() - start
    return took


def _schemas(tools: Any) -> dict[str, set[str]]:
    return {t.name: set((t.input_schema or {}).get("properties", {})) for t in tools.tools}


def _plan(
    schemas: dict[str, set[str]], target: Memory, word: str, kind: str
) -> tuple[dict[str, Any], dict[str, Any], dict[str, str]]:
    """The reads and the writes to time, by row name (each a function of the call's number),
    and the rows the server cannot answer yet, with why."""
    memory_id, text = target.id, target.text
    plan: dict[str, Any] = {}
    writes: dict[str, Any] = {}
    missing: dict[str, str] = {}
    list_args = schemas.get("memory_list", set())
    if "limit" in list_args:
        plan["memory_list_page"] = lambda i: ("memory_list", {"limit": 100})
    else:
        missing["memory_list_page"] = "memory_list takes no limit yet; the whole list is timed instead"
        plan["memory_list_all"] = lambda i: ("memory_list", {})
    if "query" in list_args:
        plan["memory_list_query"] = lambda i: ("memory_list", {"query": word, "limit": 100})
    else:
        missing["memory_list_query"] = "memory_list takes no query yet"
    if "memory_get" in schemas:
        plan["memory_get"] = lambda i: ("memory_get", {"id": memory_id})
    else:
        missing["memory_get"] = "the server has no memory_get tool yet"
    # Same length both ways: the chat's estimate does not grow.
    variants = [text[:-1] + ("A" if text[-1] != "A" else "B"), text]
    # Call i turns variants[(i + 1) % 2] into variants[i % 2]: it names the version it replaces.
    versions = [fingerprint(target.title, v, target.enabled) for v in variants]
    checked = "version" in schemas.get("memory_change", set())

    def change(i: int) -> tuple[str, dict[str, Any]]:
        args = {"id": memory_id, "text": variants[i % 2]}
        return "memory_change", {**args, "version": versions[(i + 1) % 2]} if checked else args

    writes["memory_change"] = change
    writes["memory_save"] = lambda i: (
        "memory_save",
        {"title": f"Benchmark save {kind} {i}", "text": f"Saved by run {i}."},
    )
    return plan, writes, missing


async def _timed(
    floor: Any, oda: Any, plan: dict[str, Any], runs: int, times: dict[str, list[float]]
) -> list[Any]:
    """Each call of ``plan`` ``runs`` times, after a floor call each round; the results."""
    results = []
    for i in range(runs):
        start = time.perf_counter()
        await floor.call_tool("constant", {})
        times["floor"].append(time.perf_counter() - start)
        for row, make in plan.items():
            name, args = make(i)
            start = time.perf_counter()
            result = await oda.call_tool(name, args)
            times.setdefault(row, []).append(time.perf_counter() - start)
            if result.is_error:
                raise NotMeasured(f"{name} was refused: {result.content}")
            results.append((row, result))
    return results


class _Sdk:
    """The SDK's client under the raw client's names (it checks each answer's outputSchema)."""

    def __init__(self, client: Any) -> None:
        self.call_tool = client.call_tool
        self._client = client

    async def schemas(self) -> dict[str, set[str]]:
        return _schemas(await self._client.list_tools())


@asynccontextmanager
async def _connected(kind: str, args: list[str]) -> AsyncIterator[Any]:
    """A client of ``python ARGS`` over stdio: the SDK's (``sdk``) or raw JSON-RPC lines."""
    if kind == "raw":
        async with RawClient(args) as raw:
            yield raw
        return
    from mcp import Client

    async with Client(_params(args), mode="legacy") as client:
        yield _Sdk(client)


async def _round_trips(
    root: Path, workspace: str, target: Memory, word: str, runs: int, kind: str
) -> dict[str, Any]:
    times: dict[str, list[float]] = {"floor": []}
    floor_args = ["-m", "benchmarks.floor_server"]
    async with (
        _connected(kind, floor_args) as floor,
        _connected(kind, _oda_args(root, workspace)) as oda,
    ):
        reads, writes, missing = _plan(await oda.schemas(), target, word, kind)
        first = await oda.call_tool("memory_read", {})  # the first load: not counted
        if first.is_error:
            raise NotMeasured(f"memory_read was refused: {first.content}")
        revision = (first.structured_content or {}).get("revision")
        if revision is None:
            missing["memory_read_unchanged"] = "memory_read gives no revision yet"
        else:
            reads["memory_read_unchanged"] = lambda i: ("memory_read", {"since": revision})
        await floor.call_tool("constant", {})
        for row, result in await _timed(floor, oda, reads, runs, times):
            kind_read = (result.structured_content or {}).get("kind")
            if row == "memory_read_unchanged" and kind_read != "unchanged":
                raise NotMeasured(f"memory_read(since) with nothing changed answered {kind_read!r}")
        saved = [
            str((result.structured_content or {})["id"])
            for row, result in await _timed(floor, oda, writes, runs, times)
            if row == "memory_save"
        ]
        # What was just written is seen by the next read (a read since the first revision may
        # find it forgotten: every write's answer holds a revision too).
        again = await oda.call_tool("memory_read", {})
        if f"## Benchmark save {kind} {runs - 1}\n" not in str((again.structured_content or {}).get("text")):
            raise NotMeasured("memory_read did not see the writes just made")
    return {"times": times, "saved": saved, "missing": missing}


async def _first_answer(args: list[str], tool: str) -> float:
    """Seconds from starting the process to the answer of its first ``tool`` call (the
    handshake first, as a client does): for ``oda-tui mcp``, the complete memory."""
    start = time.perf_counter()
    async with RawClient(args) as client:
        result = await client.call_tool(tool, {})
        took = time.perf_counter() - start
    if result.is_error:
        raise NotMeasured(f"{tool} was refused: {result.content}")
    return took


def _first_reads(root: Path, workspace: str, runs: int) -> dict[str, float]:
    """The first ``memory_read`` of a fresh server beside the floor's first answer."""
    import anyio

    floor, oda = [], []
    for _ in range(runs):  # alternated, as the calls are
        floor.append(anyio.run(_first_answer, ["-m", "benchmarks.floor_server"], "constant"))
        oda.append(anyio.run(_first_answer, _oda_args(root, workspace), "memory_read"))
    return {
        "mcp_floor_first_s": statistics.median(floor),
        "mcp_first_read_s": statistics.median(oda),
        # Each start beside the floor's just before it: a start takes 0.5 to 1 s on a shared
        # machine, and the median of the pairs' differences is what drifts least with it.
        "mcp_first_read_over_floor_s": statistics.median(o - f for f, o in zip(floor, oda, strict=True)),
    }


def _start_ups(root: Path, workspace: str, runs: int) -> dict[str, float]:
    import anyio

    floor, oda = [], []
    for _ in range(runs):  # alternated, as the calls are
        floor.append(anyio.run(_start_up, ["-m", "benchmarks.floor_server"]))
        oda.append(anyio.run(_start_up, _oda_args(root, workspace)))
    return {
        "mcp_floor_start_s": statistics.median(floor),
        "mcp_start_s": statistics.median(oda),
        "mcp_start_over_floor_s": statistics.median(o - f for f, o in zip(floor, oda, strict=True)),
    }


def _with_settings(root: Path, run: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``run`` with the benchmark's settings.yaml in place; the folder is left as it was."""
    path = root / SETTINGS_FILE
    before = path.read_bytes() if path.exists() else None
    path.write_bytes(SETTINGS)
    try:
        return run()
    finally:
        if before is None:
            path.unlink()
        else:
            path.write_bytes(before)


def measure(root: Path, workspace: str, runs: int, start_runs: int) -> dict[str, Any]:
    """Start-up and round trips of ``oda-tui mcp`` as a chat in ``workspace``, beside the
    floor's, with each p95's excess over the floor's p95."""
    try:
        import anyio
        import mcp  # noqa: F401
    except ImportError as exc:
        raise NotMeasured(f"the mcp extra is not installed ({exc})") from exc
    store = MemoryStore(root)
    candidates = [m for m in store.memories(workspace) if m.enabled and len(m.text) > 1]
    if not candidates:
        raise NotMeasured(f"workspace {workspace} has no memory to change")
    target = candidates[0]
    word = target.title.split()[0]

    def run(kind: str) -> dict[str, Any]:
        outcome: dict[str, Any] = {}
        try:
            outcome = anyio.run(_round_trips, root, workspace, target, word, runs, kind)
        finally:
            after = MemoryStore(root)
            after.change(workspace, target.id, text=target.text)  # leave the text as it was
            for memory_id in outcome.get("saved", ()):
                after.delete(workspace, memory_id)
                after.purge_deleted(workspace, memory_id)
        return outcome

    result: dict[str, Any] = {
        "mcp_listed": len(store.memories(None)) + len(store.memories(workspace)),
        **_start_ups(root, workspace, start_runs),
    }
    result.update(_first_reads(root, workspace, start_runs))
    for kind, prefix in (("raw", "mcp_"), ("sdk", "mcp_sdk_")):
        outcome = _with_settings(root, functools.partial(run, kind))
        result.update(_figures(outcome, prefix))
    return result


def _figures(outcome: dict[str, Any], prefix: str) -> dict[str, Any]:
    """Each row's p50 and p95, and its p95's excess over the floor's p95 (same run)."""
    result: dict[str, Any] = {}
    times: dict[str, list[float]] = outcome["times"]
    floor_p95 = _percentile(times["floor"], 0.95)
    for row, samples in times.items():
        result[f"{prefix}{row}_p50_s"] = statistics.median(samples)
        result[f"{prefix}{row}_p95_s"] = p95 = _percentile(samples, 0.95)
        if row != "floor":
            result[f"{prefix}{row}_over_floor_s"] = p95 - floor_p95
    for row, why in outcome["missing"].items():
        result[f"{prefix}{row}_not_measured"] = why
    return result
