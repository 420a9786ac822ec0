"""``--demo`` writes the sample as the store once wrote it (``sample_tree.json``), its moments
moved to now: the same memories, versions, deletion, problems and review as ``build_demo_store``
makes change by change, as recent and in the same order."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from oda_tui.demo.sample import WORKSPACE_THESIS, WORKSPACE_WEB, build_demo_store
from oda_tui.demo.template import TREE_FILE, record, write_sample
from store import GLOBAL, MemoryStore, Scope

SCOPES: list[Scope] = [GLOBAL, WORKSPACE_WEB, WORKSPACE_THESIS]
REMAKE = "the demo's sample changed: make sample_tree.json again with python -m oda_tui.demo.template"


def _what_a_person_sees(root: Path) -> dict[str, Any]:
    """Everything the app shows of a store, without ids or moments (random and of the hour)."""
    store = MemoryStore(root)
    seen: dict[str, Any] = {"workspaces": store.workspaces()}
    for scope in SCOPES:
        memories = store.memories(scope)
        seen[f"memories {scope}"] = [
            (m.title, m.text, m.enabled, m.source, m.saved_by_agent, m.session_id) for m in memories
        ]
        seen[f"versions {scope}"] = [
            [(v.source, v.title, v.text, v.replaced) for v in store.versions(scope, m.id)] for m in memories
        ]
        seen[f"deleted {scope}"] = [(d.title, d.text, d.problem) for d in store.deleted(scope)]
    seen["review"] = sorted(
        (r.memory.scope or "", r.memory.title, r.newest.text, None if r.before is None else r.before.text)
        for r in store.agent_changes({})
    )
    seen["problems"] = sorted((p.scope or "", p.path.name, p.message) for p in store.problems())
    seen["ignored"] = sorted(i.path.name for i in store.ignored())
    return seen


def test_the_kept_sample_is_what_the_store_makes_now(tmp_path: Path) -> None:
    built = build_demo_store(tmp_path / "built")
    written = write_sample(tmp_path / "written", datetime.now(UTC))
    assert _what_a_person_sees(written) == _what_a_person_sees(built), REMAKE


def test_every_moment_is_moved_to_now_keeping_order_and_distance(tmp_path: Path) -> None:
    tree = json.loads(TREE_FILE.read_text(encoding="utf-8"))
    now = datetime(2031, 5, 6, 7, 8, 9, 123000, tzinfo=UTC)
    root = write_sample(tmp_path / "memory", now, tree)
    again = record(root)
    assert again["newest"] == "2031-05-06T07:08:09.123Z"
    shift = now - datetime.fromisoformat(tree["newest"])
    store = MemoryStore(root)
    kept = MemoryStore(write_sample(tmp_path / "as-kept", datetime.fromisoformat(tree["newest"]), tree))
    for scope in SCOPES:
        for moved, original in zip(store.memories(scope), kept.memories(scope), strict=True):
            assert moved.created is not None and original.created is not None
            assert moved.created - original.created == shift
            assert now - timedelta(minutes=1) < moved.created <= now
            moments = [v.moment for v in store.versions(scope, moved.id)]
            assert moments == sorted(moments, reverse=True)
            assert [m - shift for m in moments] == [v.moment for v in kept.versions(scope, moved.id)]
        for deleted in store.deleted(scope):
            assert now - timedelta(minutes=1) < deleted.deleted_at <= now


def test_a_folder_that_is_there_is_never_written_into(tmp_path: Path) -> None:
    there = tmp_path / "memory"
    there.mkdir()
    (there / "mine.md").write_text("a person's file\n", encoding="utf-8")
    with pytest.raises(FileExistsError):
        write_sample(there, datetime.now(UTC))
    assert [p.name for p in there.iterdir()] == ["mine.md"]
