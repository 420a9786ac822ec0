"""Importing found memories: the dry run and the apply agree, duplicates are skipped and
refusals are in the store's words, each memory its own transaction."""

from __future__ import annotations

from pathlib import Path

from store import GLOBAL, MemoryStore
from store.exchange.create_check import CreationCheck
from store.exchange.importers import Candidate
from store.exchange.importing import IMPORT_LOOKS_SECRET, apply_import, counts, plan_import

SECRET = "password = hunter2-long-enough-Secret9"


def found(*pairs: tuple[str, str]) -> list[Candidate]:
    return [Candidate(title, text, f"test #{i}") for i, (title, text) in enumerate(pairs)]


def test_dry_run_writes_nothing_and_apply_does_what_it_said(root: Path, store: MemoryStore) -> None:
    store.create(GLOBAL, "Tea", "Green tea, no sugar.")
    candidates = found(
        ("Tea again", "green TEA — no sugar!"),  # the duplicates view's normalising
        ("Runner", "Use pytest -q."),
        ("Runner twice", "Use pytest -q"),  # repeats one this import creates first
        ("", "No title."),
        ("Key", SECRET),
        ("Long", "x" * 2001),
    )
    planned = plan_import(store, "proj", candidates)
    assert [s.outcome for s in planned] == [
        "duplicate",
        "create",
        "duplicate",
        "refused",
        "refused",
        "refused",
    ]
    assert planned[0].reason == "the same text as “Tea” in Global"
    assert planned[2].reason == "the same text as “Runner”, imported before it"
    assert planned[3].reason == store.check_title("")
    assert planned[4].reason == IMPORT_LOOKS_SECRET.format(what="a password")
    assert "Save it anyway" not in planned[4].reason  # an import has no way to save it anyway
    assert planned[5].reason == store.check_text("x" * 2001)
    assert counts(planned) == {"create": 1, "change": 0, "unchanged": 0, "duplicate": 2, "refused": 3}
    assert store.workspaces() == []  # nothing written
    applied = apply_import(MemoryStore(root), "proj", candidates)
    assert [(s.outcome, s.reason) for s in applied] == [(s.outcome, s.reason) for s in planned]
    fresh = MemoryStore(root)
    [runner] = fresh.memories("proj")
    assert (runner.title, runner.text, runner.source, runner.id) == (
        "Runner",
        "Use pytest -q.",
        "user",
        applied[1].memory_id,
    )
    assert [v.source for v in fresh.versions("proj", runner.id)] == ["settings"]


def test_the_dry_run_counts_the_chat_budget_across_the_series(root: Path, limited: MemoryStore) -> None:
    store = limited
    store.create("proj", "Existing", "e" * 900)
    candidates = found(*[(f"Note {i}", f"{i} " + "n" * 400) for i in range(5)])
    planned = plan_import(store, GLOBAL, candidates)
    outcomes = [s.outcome for s in planned]
    assert outcomes == ["create", "create", "refused", "refused", "refused"]
    assert "proj" in planned[2].reason  # the chat that would be largest: the workspace's
    applied = apply_import(store, GLOBAL, candidates)
    assert [(s.outcome, s.reason) for s in applied] == [(s.outcome, s.reason) for s in planned]
    assert len(MemoryStore(root).memories(GLOBAL)) == 2


def test_the_check_refuses_what_create_refuses(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path / "oda")
    check = CreationCheck(store, GLOBAL)
    for title, text in [("T", ""), ("T" * 121, "x"), ("T", "bad \ud800 char"), ("Key", SECRET)]:
        refusal = check.refusal(title, text)
        assert refusal is not None
        try:
            store.create(GLOBAL, title, text)
        except Exception as exc:
            assert str(exc) == str(refusal)
        else:
            raise AssertionError("create did not refuse")
    assert check.refusal("Fine", "A fine memory.") is None
