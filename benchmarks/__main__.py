"""python -m benchmarks [--quick] [--sizes 1000,10000,50000] [--busy N] [--terminal-only [--runs N]] [--out FILE]

Generates synthetic stores in a temp folder, measures the store (and the app, when it can be
imported) and prints one table; the numbers also go to benchmarks/results/latest.json.
Every time is a median of several runs; every ratio compares numbers from the same run.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import app_bench, mcp_bench, measure, terminal
from .busy import busy_loops
from .generate import generate

WORKSPACES = {1000: 1, 10000: 100, 50000: 500}
TARGETS = {
    "cold_visible_vs_floor": 2.0,
    "warm_vs_floor": 0.5,
    "refresh_vs_cold": 1 / 200,
    "rss_mb_10000": 150.0,
    "filter_s": 0.050,
    "watch_p95_s": 0.150,
    "first_paint_extra_s": 0.3,
    # MCP: each p95 over the floor's p95 (an SDK server answering a constant), same run.
    "mcp_memory_read_unchanged_over_floor_s": 0.005,
    "mcp_memory_get_over_floor_s": 0.005,
    "mcp_memory_list_page_over_floor_s": 0.010,
    "mcp_memory_list_query_over_floor_s": 0.010,
    "mcp_memory_change_over_floor_s": 0.015,
    "mcp_memory_save_over_floor_s": 0.015,
    "mcp_start_over_floor_s": 0.3,
    "mcp_first_read_over_floor_s": 0.3,
}
#: Round trips per MCP tool (the issue's figures were 200 calls each), and starts of each server.
MCP_RUNS, MCP_STARTS = 200, 7


def run_size(size: int, base: Path, quick: bool, app: bool) -> dict[str, Any]:
    """Generate a store of ``size`` memories and measure the store on it (the app comes later)."""
    root = base / f"store-{size}"
    workspaces = WORKSPACES.get(size, max(1, size // 100))
    info = generate(root, size, workspaces, problems=max(4, size // 1000 * 2))
    runs = 3 if quick else (7 if size <= 10000 else 3)
    r: dict[str, Any] = {"memories": size, "workspaces": workspaces, "problems": info["problems"]}
    print(f"  {size}: generated ({workspaces} workspaces)", file=sys.stderr)

    measure.floor(root)  # warm the page cache: every number below reads cached files
    r["floor_s"] = measure.median_time(lambda: measure.floor(root), runs)
    r["floor_raw_s"] = measure.median_time(lambda: measure.floor_raw(root), runs)
    r["peer_s"] = measure.median_time(lambda: measure.peer(root), max(3, runs // 2))
    r["cold_s"] = measure.median_time(
        lambda: measure.load_all(root, join_index=True), runs, setup=lambda: measure.drop_index(root)
    )
    r["cold_visible_s"] = _visible(root, runs, measure.drop_index)
    r["stale_s"] = _visible(root, runs, measure.stale_index)
    measure.ensure_index(root)
    r["warm_s"] = measure.median_time(lambda: measure.load_all(root), runs)
    r["cold_vs_floor"] = r["cold_s"] / r["floor_s"]
    r["cold_visible_vs_floor"] = r["cold_visible_s"] / r["floor_s"]
    r["cold_vs_peer"] = r["cold_visible_s"] / r["peer_s"]
    r["peer_vs_floor"] = r["peer_s"] / r["floor_s"]
    r["warm_vs_floor"] = r["warm_s"] / r["floor_s"]
    r["stale_vs_cold"] = r["stale_s"] / r["cold_visible_s"]
    print(f"  {size}: loads measured", file=sys.stderr)

    largest = str(info["largest"])
    t, tokens = measure.chat_memory(root, largest, runs)
    r["chat_memory_s"], r["chat_memory_tokens"], r["largest_workspace"] = t, tokens, largest
    if size == 10000 or (quick and size == min(WORKSPACES)):
        r["refresh_one_s"] = measure.refresh_one(root, runs * 3)
        r["refresh_vs_cold"] = r["refresh_one_s"] / r["cold_visible_s"]
        r["create_s"], r["change_s"] = measure.writes(root, 5 if quick else 20)
        r["hygiene_s"], r["duplicate_groups"], r["similar_groups"] = measure.hygiene(root, 3)
    if size in (10000, 50000) or quick:
        r.update({f"rss_{k}": v for k, v in measure.peak_rss(root).items()})
    r["_root"] = str(root)
    return r


def _visible(root: Path, runs: int, setup: Callable[[Path], None]) -> float:
    """A load as the caller sees it (the index is written after, in the background), each
    after ``setup`` (no index, or a stale one)."""
    times = []
    for _ in range(runs):
        setup(root)
        start = time.perf_counter()
        s = measure.load_all(root)
        times.append(time.perf_counter() - start)
        if s._index_writer is not None:
            s._index_writer.join()
    return sorted(times)[len(times) // 2]


def _mcp_rows(r: dict[str, Any], root: Path, largest: str, quick: bool) -> None:
    if not quick and r["memories"] != 10000:
        return  # the server's figures are taken at 10,000 memories (and in the quick run)
    try:
        r.update(mcp_bench.measure(root, largest, 20 if quick else MCP_RUNS, 1 if quick else MCP_STARTS))
    except app_bench.NotMeasured as exc:
        r["mcp_not_measured"] = str(exc)
    except Exception as exc:  # noqa: BLE001 - report, never fake
        r["mcp_not_measured"] = f"{type(exc).__name__}: {exc}"


def _app_rows(r: dict[str, Any], root: Path, largest: str, quick: bool) -> None:
    rows: tuple[tuple[str, Callable[[], dict[str, float]]], ...] = (
        ("first_paint", lambda: app_bench.first_paint(root, largest, 1 if quick else 3)),
        ("filter", lambda: app_bench.filter_keystroke(root, largest)),
        ("watch", lambda: app_bench.watch_latency(root, largest, 10 if quick else 50)),
    )
    for name, fn in rows:
        try:
            r.update(fn())
        except app_bench.NotMeasured as exc:
            r[f"{name}_not_measured"] = str(exc)
        except Exception as exc:  # noqa: BLE001 - report, never fake
            r[f"{name}_not_measured"] = f"{type(exc).__name__}: {exc}"
    if "app_first_paint_s" in r:
        # The cold load as the caller sees it (the smaller of the two): the stricter budget.
        r["first_paint_extra_s"] = r["app_first_paint_s"] - r["bare_textual_s"] - r["cold_visible_s"]


ROWS: list[tuple[str, str, str]] = [
    ("floor: read every file (open/read)", "floor_s", "ms"),
    ("floor, bare os.read (reference)", "floor_raw_s", "ms"),
    ("peer: python-frontmatter", "peer_s", "ms"),
    ("  peer / floor", "peer_vs_floor", "x"),
    ("cold load (as the caller sees it)", "cold_visible_s", "ms"),
    ("  cold / floor  (target <= 2.0)", "cold_visible_vs_floor", "x"),
    ("  cold / peer", "cold_vs_peer", "x"),
    ("cold load, waiting for the index write", "cold_s", "ms"),
    ("  that / floor", "cold_vs_floor", "x"),
    ("warm load (index, files unchanged)", "warm_s", "ms"),
    ("  warm / floor  (target <= 0.5)", "warm_vs_floor", "x"),
    ("stale index (every file's stat changed, as after a copy)", "stale_s", "ms"),
    ("  stale / cold", "stale_vs_cold", "x"),
    ("refresh([one path]) after a change", "refresh_one_s", "ms"),
    ("  refresh / cold  (target <= 0.005)", "refresh_vs_cold", "x"),
    ("create (with history)", "create_s", "ms"),
    ("change (with history)", "change_s", "ms"),
    ("chat_memory(largest workspace)", "chat_memory_s", "ms"),
    ("duplicates + similar, whole store", "hygiene_s", "ms"),
    ("peak RSS (VmHWM), cold load  (target <= 150 MB @10k)", "rss_peak_mb", "MB"),
    ("  RSS of python + store before loading", "rss_baseline_mb", "MB"),
    ("  ru_maxrss (inherits the parent's peak)", "rss_ru_maxrss_mb", "MB"),
    ("app: first paint (cold)", "app_first_paint_s", "ms"),
    ("app: bare Textual app start", "bare_textual_s", "ms"),
    ("  paint - bare - cold  (target <= 300 ms)", "first_paint_extra_s", "ms"),
    ("app: filter keystroke p50  (target <= 50 ms)", "filter_p50_s", "ms"),
    ("app: filter keystroke max", "filter_max_s", "ms"),
    ("app: watch latency p50", "watch_p50_s", "ms"),
    ("app: watch latency p95  (target <= 150 ms)", "watch_p95_s", "ms"),
    ("mcp floor: SDK server, constant tool, p50 (raw JSON-RPC client)", "mcp_floor_p50_s", "ms"),
    ("mcp floor: p95", "mcp_floor_p95_s", "ms"),
    ("mcp: memory_read(since), unchanged p50", "mcp_memory_read_unchanged_p50_s", "ms"),
    ("  p95 over the floor's  (target <= 5 ms)", "mcp_memory_read_unchanged_over_floor_s", "ms"),
    ("mcp: memory_get p50", "mcp_memory_get_p50_s", "ms"),
    ("  p95 over the floor's  (target <= 5 ms)", "mcp_memory_get_over_floor_s", "ms"),
    ("mcp: memory_list, a page of 100, p50", "mcp_memory_list_page_p50_s", "ms"),
    ("  p95 over the floor's  (target <= 10 ms)", "mcp_memory_list_page_over_floor_s", "ms"),
    ("mcp: memory_list, a query, p50", "mcp_memory_list_query_p50_s", "ms"),
    ("  p95 over the floor's  (target <= 10 ms)", "mcp_memory_list_query_over_floor_s", "ms"),
    ("mcp: memory_list, every memory, p50", "mcp_memory_list_all_p50_s", "ms"),
    ("  p95 over the floor's", "mcp_memory_list_all_over_floor_s", "ms"),
    ("  memories the chat has (Global + largest workspace)", "mcp_listed", "n"),
    ("mcp: memory_change p50 (fsync)", "mcp_memory_change_p50_s", "ms"),
    ("  p95 over the floor's  (target <= 15 ms)", "mcp_memory_change_over_floor_s", "ms"),
    ("mcp: memory_save p50 (fsync)", "mcp_memory_save_p50_s", "ms"),
    ("  p95 over the floor's  (target <= 15 ms)", "mcp_memory_save_over_floor_s", "ms"),
    ("mcp, SDK client (checks outputSchema): floor p50", "mcp_sdk_floor_p50_s", "ms"),
    ("  floor p95", "mcp_sdk_floor_p95_s", "ms"),
    ("  memory_read(since), unchanged: p95 over floor", "mcp_sdk_memory_read_unchanged_over_floor_s", "ms"),
    ("  memory_get: p95 over floor", "mcp_sdk_memory_get_over_floor_s", "ms"),
    ("  memory_list, a page of 100: p95 over floor", "mcp_sdk_memory_list_page_over_floor_s", "ms"),
    ("  memory_list, a query: p95 over floor", "mcp_sdk_memory_list_query_over_floor_s", "ms"),
    ("  memory_change: p95 over floor", "mcp_sdk_memory_change_over_floor_s", "ms"),
    ("  memory_save: p95 over floor", "mcp_sdk_memory_save_over_floor_s", "ms"),
    ("mcp floor: start to the initialize answer", "mcp_floor_start_s", "ms"),
    ("mcp: start to the initialize answer", "mcp_start_s", "ms"),
    ("  over the floor's  (target <= 300 ms)", "mcp_start_over_floor_s", "ms"),
    ("mcp floor: start to its first tool answer", "mcp_floor_first_s", "ms"),
    ("mcp: start to the first memory_read answer (the whole memory)", "mcp_first_read_s", "ms"),
    ("  over the floor's  (target <= 300 ms)", "mcp_first_read_over_floor_s", "ms"),
]


DEFAULT_OUT = Path(__file__).parent / "results" / "latest.json"


def _cell(r: dict[str, Any], key: str, unit: str) -> str:
    value = r.get(key)
    if value is None:
        return "-"
    if unit == "ms":
        return f"{value * 1000:.1f}"
    if unit == "n":
        return f"{value:,}"
    if unit == "x":
        return f"{value:.3f}" if value < 0.1 else f"{value:.2f}"
    return f"{value:.1f}"


def table(results: list[dict[str, Any]]) -> str:
    head = ["measure", *[f"{r['memories']:,} / {r['workspaces']} ws" for r in results], "unit"]
    lines = [head]
    for label, key, unit in ROWS:
        if all(key not in r for r in results):
            continue
        lines.append([label, *[_cell(r, key, unit) for r in results], unit])
    widths = [max(len(row[i]) for row in lines) for i in range(len(head))]
    out = []
    for n, row in enumerate(lines):
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)]
        out.append("| " + " | ".join(cells) + " |")
        if n == 0:
            out.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    notes = sorted(
        {
            f"{k.replace('_not_measured', '')}: not measured: {v}"
            for r in results
            for k, v in r.items()
            if k.endswith("_not_measured")
        }
    )
    return "\n".join(out + notes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a fast smoke run: 1,000 memories, few runs")
    parser.add_argument("--sizes", help="comma-separated store sizes (default 1000,10000,50000)")
    parser.add_argument("--no-app", action="store_true", help="skip the app measurements")
    parser.add_argument("--no-mcp", action="store_true", help="skip the MCP server's round trips")
    parser.add_argument(
        "--terminal-only",
        action="store_true",
        help="only the first paint of the real oda-tui in a pseudo-terminal (10 and 10,000 memories, "
        "cold, warm and with a stale index, and --demo beside --root)",
    )
    parser.add_argument(
        "--runs",
        type=int,
        default=5,
        help="starts of each kind in the terminal rows (default 5; each row is their median)",
    )
    parser.add_argument(
        "--busy",
        type=int,
        default=0,
        metavar="N",
        help="measure with N busy loops spinning on the CPU (a loaded machine; the MCP targets hold with 2)",
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    sizes = (
        [int(s) for s in args.sizes.split(",")]
        if args.sizes
        else ([1000] if args.quick else [1000, 10000, 50000])
    )
    if args.terminal_only:
        rows = terminal.terminal_first_paint(max(1, args.runs))
        text = terminal.table(rows)
        print(text)
        out = args.out.with_name("terminal.json") if args.out == DEFAULT_OUT else args.out
        measure.dump(out, {"machine": measure.machine(), "terminal": rows, "table": text})
        print(f"\n(written to {out})", file=sys.stderr)
        return 0
    results = []
    with tempfile.TemporaryDirectory(prefix="oda-bench-") as tmp, busy_loops(args.busy):
        for size in sizes:
            results.append(run_size(size, Path(tmp), args.quick, not args.no_app))
        # The app runs last: Textual's objects in this process would slow the store's loads.
        for r in results:
            root = Path(r.pop("_root"))
            if not args.no_mcp:
                _mcp_rows(r, root, str(r["largest_workspace"]), args.quick)
            if not args.no_app:
                _app_rows(r, root, str(r["largest_workspace"]), args.quick)
            shutil.rmtree(root, ignore_errors=True)
    data: dict[str, Any] = {
        "machine": measure.machine(),
        "quick": args.quick,
        "busy_loops": args.busy,
        "targets": TARGETS,
        "results": results,
    }
    text = table(results)
    if args.busy:
        text = f"Measured with {args.busy} busy loops spinning on the CPU.\n\n{text}"
    if not args.no_app:
        # As a person sees it: the real process in a terminal, beside a bare Textual app.
        try:
            data["terminal"] = terminal.terminal_first_paint(3 if args.quick else 5)
            text += "\n\n" + terminal.table(data["terminal"])
        except terminal.NotMeasured as exc:
            text += f"\n\nterminal first paint: not measured: {exc}"
    print(text)
    measure.dump(args.out, {**data, "table": text})
    print(f"\n(written to {args.out})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
