"""MCP server measurements: tool round trips to a real ``oda-tui mcp`` subprocess over stdio.

A round trip is what an assistant waits for: the request written, the server re-reading the
disk and answering, the reply parsed by the SDK's client. Raises ``NotMeasured`` with the reason
when the server cannot be run; a number is never made up.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from store import MemoryStore

from .app_bench import NotMeasured


def _percentile(times: list[float], fraction: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def _round_trips(
    root: Path, workspace: str, memory_id: str, text: str, runs: int
) -> dict[str, list[float]]:
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "oda_tui", "mcp", "--root", str(root), "--workspace", workspace],
        env={**os.environ},
    )
    times: dict[str, list[float]] = {"memory_list": [], "memory_change": []}
    # Same length both ways: the chat's estimate does not grow, so the token limit never refuses.
    variants = [text[:-1] + ("A" if text[-1] != "A" else "B"), text]
    async with Client(params, mode="legacy") as client:
        first = await client.call_tool("memory_list", {})  # the server's first load: not counted
        if first.is_error:
            raise NotMeasured(f"memory_list was refused: {first.content}")
        for i in range(runs):
            start = time.perf_counter()
            listed = await client.call_tool("memory_list", {})
            times["memory_list"].append(time.perf_counter() - start)
            start = time.perf_counter()
            changed = await client.call_tool("memory_change", {"id": memory_id, "text": variants[i % 2]})
            times["memory_change"].append(time.perf_counter() - start)
            if listed.is_error or changed.is_error:
                raise NotMeasured(f"a tool call was refused: {listed.content or changed.content}")
    return times


def round_trips(root: Path, workspace: str, runs: int) -> dict[str, Any]:
    """p50 and p95 of memory_list and memory_change round trips, as a chat in ``workspace``."""
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
    try:
        times = anyio.run(_round_trips, root, workspace, target.id, target.text, runs)
    finally:
        MemoryStore(root).change(workspace, target.id, text=target.text)  # leave the text as it was
    result: dict[str, Any] = {"mcp_listed": len(store.memories(None)) + len(store.memories(workspace))}
    for tool, samples in times.items():
        result[f"mcp_{tool}_p50_s"] = statistics.median(samples)
        result[f"mcp_{tool}_p95_s"] = _percentile(samples, 0.95)
    return result
