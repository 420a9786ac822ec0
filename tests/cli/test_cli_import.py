"""``oda-tui import``: a dry run by default, ``--apply`` creates; bad input is one line."""

from __future__ import annotations

import json
from pathlib import Path

from store import GLOBAL, MemoryStore
from store.exchange.managed_block import render_block
from tests.support.cli import Sample, run_cli
from tests.support.exchange_data import SERVER_MEMORY_V1, SERVER_MEMORY_V2, leftover_move
from tests.support.tree import tree_state


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
    assert "Save it anyway" not in dry.out and "Remove it from the source and import again" in lines[2]
    assert (
        "Would create 3, change 0, skip 0 unchanged since the last import and 1 as duplicates, refuse 1 "
        "(a dry run: nothing was written; --apply does it). Into Global." in dry.err
    )
    assert [m.id for m in MemoryStore(sample.root).memories(GLOBAL)] == before

    applied = run_cli("import", "--root", sample.root, "--global", "--apply", "--json", *paths)
    assert applied.code == 1
    doc = applied.json()
    assert doc["counts"] == {"create": 3, "change": 0, "unchanged": 0, "duplicate": 1, "refused": 1}
    assert doc["applied"] is True and doc["scope"] is None
    created = {m.title: m for m in MemoryStore(sample.root).memories(GLOBAL) if m.id not in before}
    assert sorted(created) == ["Alice", "Coffee", "Lint"]
    assert created["Coffee"].text == "Flat white, no sugar."
    assert created["Alice"].text == "Likes tea\n\nType: person\nknows: Bob"
    assert {m.source for m in created.values()} == {"user"}
    assert [r["id"] for r in doc["memories"] if r["outcome"] == "create"] == [
        created["Lint"].id,
        created["Coffee"].id,
        created["Alice"].id,
    ]
    again = run_cli("import", "--root", sample.root, "--apply", *paths)
    assert (
        "Created 0, changed 0, skipped 3 unchanged since the last import and 1 as duplicates, refused 1."
        in again.err
    )


def test_bad_input_is_one_line_and_nothing_is_written(tmp_path: Path, sample: Sample) -> None:
    good = tmp_path / "good.md"
    good.write_text("## Fine\n\nA fine memory.\n")
    graph = tmp_path / "memory.jsonl"
    graph.write_text('{"type": "entity", "name": "A", "observations": []}\nnot json\n')
    r = run_cli("import", "--root", sample.root, "--workspace", "proj", "--apply", good, graph)
    assert (r.code, r.out) == (2, "")
    assert r.err == f"{graph}: line 2 is not JSON; nothing was imported.\n"
    assert [m.title for m in MemoryStore(sample.root).memories("proj")] == ["Test runner"]


def test_the_dry_run_writes_nothing_in_the_store_not_even_a_cache(tmp_path: Path) -> None:
    """No parse index, no lock file, no recovery of a leftover move: the whole tree (names,
    modes, bytes) is the same after the dry run, while it says nothing was written."""
    root = tmp_path / "oda"
    moving = leftover_move(root)
    source = tmp_path / "CLAUDE.md"
    source.write_text("## New\n\nA new memory.\n")
    before = tree_state(root)
    dry = run_cli("import", "--root", root, "--workspace", "proj", source)
    assert dry.code == 0 and "a dry run: nothing was written" in dry.err
    assert dry.out.startswith("would create  New")
    assert tree_state(root) == before
    applied = run_cli("import", "--root", root, "--workspace", "proj", "--apply", source)
    assert applied.code == 0
    after = tree_state(root)
    assert ".lock" in after and ".move.json" not in after and f"workspaces/proj/{moving}.md" not in after


def test_importing_the_same_source_again_changes_instead_of_duplicating(tmp_path: Path) -> None:
    root, graph = tmp_path / "oda", tmp_path / "memory.jsonl"
    graph.write_text(SERVER_MEMORY_V1)
    first = run_cli("import", "--root", root, "--apply", graph)
    assert first.code == 0  # an entity with nothing to say is a note, not a refusal
    assert "Empty_Thing" in first.err and "skipped (nothing to import)" in first.err
    graph.write_text(SERVER_MEMORY_V2)
    dry = run_cli("import", "--root", root, graph)
    assert [line.split("  ")[0] for line in dry.out.splitlines()] == [
        "would change",
        "would skip",
        "would create",
    ]
    assert "imported before as “Ada_Lovelace”" in dry.out.splitlines()[0]
    assert "Would create 1, change 1, skip 1 unchanged since the last import" in dry.err
    applied = run_cli("import", "--root", root, "--apply", "--json", graph).json()
    assert applied["counts"] == {"create": 1, "change": 1, "unchanged": 1, "duplicate": 0, "refused": 0}
    assert applied["memories"][0]["from"] == "server-memory entity Ada_Lovelace"
    assert sorted(m.title for m in MemoryStore(root).memories(GLOBAL)) == [
        "Ada_Lovelace",
        "Empty_Thing",
        "billing-service",
    ]


def test_split_shows_the_numbered_parts_in_the_dry_run(tmp_path: Path) -> None:
    agents = tmp_path / "AGENTS.md"
    body = "\n\n".join(f"Rule {n}: " + "keep it short " * 40 for n in range(8))
    agents.write_text(f"# Guide\n\n## Testing\n\n{body}\n")
    refused = run_cli("import", "--root", tmp_path / "oda", agents)
    assert refused.code == 1 and refused.out.startswith("would refuse  Testing")
    assert (
        "Note: 1 memory is over the text limit; --split cuts each into numbered memories within it."
        in refused.err
    )
    split = run_cli("import", "--root", tmp_path / "oda", "--split", agents)
    assert split.code == 0
    assert [line.split("  ")[1] for line in split.out.splitlines()] == [
        "Testing (1/3)",
        "Testing (2/3)",
        "Testing (3/3)",
    ]
    assert f"{agents}, section “Testing”, part 2 of 3" in split.out
