"""``oda-tui import``: a dry run by default, ``--apply`` creates; bad input is one line."""

from __future__ import annotations

import json
from pathlib import Path

from store import GLOBAL, MemoryStore
from store.exchange.managed_block import render_block
from tests.support.cli import Sample, run_cli


def sources(folder: Path) -> list[Path]:
    claude = folder / "CLAUDE.md"
    claude.write_text(
        "# Project\n\n## Replies\n\nReply in short bullet points.\n\n## Lint\n\nRun ruff.\n\n"
        "## Key\n\npassword = hunter2-long-enough-Secret9\n\n"
        + render_block("# Memory\n\n## Synced\n\nFrom an earlier sync.\n", "\n")
        + "\n"
    )
    notes = folder / "notes"
    notes.mkdir()
    (notes / "coffee.md").write_text("---\ntitle: Coffee\n---\n\n# Coffee\n\nFlat white, no sugar.\n")
    graph = folder / "memory.jsonl"
    lines = [
        {"type": "entity", "name": "Alice", "entityType": "person", "observations": ["Likes tea"]},
        {"type": "relation", "from": "Alice", "to": "Bob", "relationType": "knows"},
    ]
    graph.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return [claude, notes, graph]


def test_dry_run_then_apply(tmp_path: Path, sample: Sample) -> None:
    paths = sources(tmp_path)
    before = [m.id for m in MemoryStore(sample.root).memories(GLOBAL)]
    dry = run_cli("import", "--root", sample.root, *paths)
    assert dry.code == 1  # a memory would be refused
    lines = dry.out.splitlines()
    assert [line.split("  ")[0] for line in lines] == [
        "would skip",
        "would create",
        "would refuse",
        "would create",
        "would create",
    ]
    assert "the same text as “Reply language” in Global" in lines[0]
    assert "looks like it contains a password" in lines[2]
    assert "Synced" not in dry.out  # the block of an earlier sync is ours
    assert "1 relation not imported" in dry.err
    assert "Would create 3, skip 1 as duplicates, refuse 1 (a dry run" in dry.err
    assert [m.id for m in MemoryStore(sample.root).memories(GLOBAL)] == before

    applied = run_cli("import", "--root", sample.root, "--global", "--apply", "--json", *paths)
    assert applied.code == 1
    doc = applied.json()
    assert doc["counts"] == {"create": 3, "duplicate": 1, "refused": 1}
    assert doc["applied"] is True and doc["scope"] is None
    created = {m.title: m for m in MemoryStore(sample.root).memories(GLOBAL) if m.id not in before}
    assert sorted(created) == ["Alice", "Coffee", "Lint"]
    assert created["Coffee"].text == "Flat white, no sugar."
    assert {m.source for m in created.values()} == {"user"}
    assert [r["id"] for r in doc["memories"] if r["outcome"] == "create"] == [
        created["Lint"].id,
        created["Coffee"].id,
        created["Alice"].id,
    ]
    again = run_cli("import", "--root", sample.root, "--apply", *paths)
    assert "Created 0, skipped 4 as duplicates, refused 1." in again.err


def test_bad_input_is_one_line_and_nothing_is_written(tmp_path: Path, sample: Sample) -> None:
    good = tmp_path / "good.md"
    good.write_text("## Fine\n\nA fine memory.\n")
    graph = tmp_path / "memory.jsonl"
    graph.write_text('{"type": "entity", "name": "A", "observations": []}\nnot json\n')
    r = run_cli("import", "--root", sample.root, "--workspace", "proj", "--apply", good, graph)
    assert (r.code, r.out) == (2, "")
    assert r.err == f"{graph}: line 2 is not JSON; nothing was imported.\n"
    assert [m.title for m in MemoryStore(sample.root).memories("proj")] == ["Test runner"]
