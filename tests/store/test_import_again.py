"""Importing the same source again changes what the first import made instead of adding a
second memory, and leaves alone what did not change in the source (so edits made to the
memory since are kept). The data is in the formats the tools write: see
``tests.support.exchange_data``."""

from __future__ import annotations

from pathlib import Path

from store import GLOBAL, MemoryStore
from store.exchange.import_sources import read_sources
from store.exchange.importing import DIGEST_KEY, ORIGIN_KEY, apply_import, counts, plan_import
from tests.support.exchange_data import SERVER_MEMORY_V1, SERVER_MEMORY_V2, basic_memory_note


def import_into(root: Path, sources: list[Path], *, apply: bool = True) -> list[tuple[str, str]]:
    """Import ``sources`` into Global; each found memory's (outcome, title)."""
    found = read_sources([str(s) for s in sources])
    store = MemoryStore(root)
    steps = (
        apply_import(store, GLOBAL, found.candidates)
        if apply
        else plan_import(store, GLOBAL, found.candidates)
    )
    return [(s.outcome, s.candidate.title) for s in steps]


def test_server_memory_imported_again_changes_its_memories(tmp_path: Path) -> None:
    root, graph = tmp_path / "oda", tmp_path / "memory.jsonl"
    graph.write_text(SERVER_MEMORY_V1)
    found = read_sources([str(graph)])
    assert [c.title for c in found.candidates] == ["Ada_Lovelace", "billing-service"]
    assert found.notes == [
        f"{graph}: 1 entity with no observations and no relations skipped (nothing to import): Empty_Thing."
    ]
    assert import_into(root, [graph]) == [("create", "Ada_Lovelace"), ("create", "billing-service")]
    ada = next(m for m in MemoryStore(root).memories(GLOBAL) if m.title == "Ada_Lovelace")
    assert ada.text == (
        "Wrote the first program\nWorks with Babbage\n\nType: person\nworks_on: billing-service\nknows: Charles_Babbage"
    )
    assert ada.extra[ORIGIN_KEY] == "server-memory entity Ada_Lovelace"

    graph.write_text(SERVER_MEMORY_V2)  # one more add_observations, and a relation for Empty_Thing
    assert import_into(root, [graph], apply=False) == [
        ("change", "Ada_Lovelace"),
        ("unchanged", "billing-service"),
        ("create", "Empty_Thing"),
    ]
    assert import_into(root, [graph]) == [
        ("change", "Ada_Lovelace"),
        ("unchanged", "billing-service"),
        ("create", "Empty_Thing"),
    ]
    store = MemoryStore(root)
    titles = sorted(m.title for m in store.memories(GLOBAL))
    assert titles == ["Ada_Lovelace", "Empty_Thing", "billing-service"]  # no second Ada
    ada = store.get(GLOBAL, ada.id)
    assert "Never deploys on Fridays" in ada.text
    assert [v.source for v in store.versions(GLOBAL, ada.id)] == ["settings", "settings"]
    assert store.get(GLOBAL, next(m.id for m in store.memories(GLOBAL) if m.title == "Empty_Thing")).text == (
        "Type: concept\ndescribes: billing-service"
    )
    assert [outcome for outcome, _title in import_into(root, [graph])] == ["unchanged"] * 3


def test_an_edit_made_since_the_import_is_kept_while_the_source_is_unchanged(tmp_path: Path) -> None:
    root, graph = tmp_path / "oda", tmp_path / "memory.jsonl"
    graph.write_text(SERVER_MEMORY_V1)
    import_into(root, [graph])
    store = MemoryStore(root)
    billing = next(m for m in store.memories(GLOBAL) if m.title == "billing-service")
    store.change(GLOBAL, billing.id, text="Runs on Fridays, never on holidays.")
    graph.write_text(SERVER_MEMORY_V2)
    assert ("unchanged", "billing-service") in import_into(root, [graph])
    assert MemoryStore(root).get(GLOBAL, billing.id).text == "Runs on Fridays, never on holidays."
    # The source renames nothing but changes the text: only the text is taken (the title kept).
    store.change(GLOBAL, billing.id, title="Billing")
    graph.write_text(SERVER_MEMORY_V2.replace("Runs on Fridays", "Runs on Mondays"))
    assert ("change", "billing-service") in import_into(root, [graph])
    now = MemoryStore(root).get(GLOBAL, billing.id)
    assert (now.title, now.text) == ("Billing", "Runs on Mondays\n\nType: service")


CHECKLIST = "# Deploy Checklist\n\n- [step] Run the migrations first #db\n- [step] Tag the release\n\n## Relations\n- depends_on [[Database]]\n"


def test_basic_memory_notes_imported_again_are_matched_by_where_they_came_from(tmp_path: Path) -> None:
    root, notes = tmp_path / "oda", tmp_path / "notes"
    meta = {
        "title": "Deploy Checklist",
        "type": "note",
        "permalink": "ops/deploy-checklist",
        "tags": ["deploy", "ops"],
    }
    basic_memory_note(notes / "ops" / "Deploy Checklist.md", meta, CHECKLIST)
    # Copied in a file manager: the same frontmatter and text, under another name.
    basic_memory_note(notes / "ops" / "Deploy Checklist (copy).md", meta, CHECKLIST)
    basic_memory_note(
        notes / "API Spec.md",
        {"title": "API Spec", "type": "guide", "permalink": "api-spec", "tags": ["api", "design"]},
        "# API Spec\n\n- implements [[Authentication]]\n",
    )
    assert import_into(root, [notes]) == [
        ("create", "API Spec"),
        ("create", "Deploy Checklist"),  # the original is kept, its copy is the duplicate
        ("duplicate", "Deploy Checklist"),
    ]
    store = MemoryStore(root)
    checklist = next(m for m in store.memories(GLOBAL) if m.title == "Deploy Checklist")
    assert checklist.extra[ORIGIN_KEY] == "basic-memory ops/deploy-checklist"
    assert checklist.text == (
        "- [step] Run the migrations first #db\n- [step] Tag the release\n\n## Relations\n"
        "- depends_on [[Database]]\n\nTags: deploy, ops"
    )
    spec = next(m for m in store.memories(GLOBAL) if m.title == "API Spec")
    assert spec.text == "- implements [[Authentication]]\n\nType: guide\nTags: api, design"

    (notes / "ops" / "Deploy Checklist (copy).md").unlink()
    basic_memory_note(
        notes / "ops" / "Deploy Checklist.md",
        meta,
        CHECKLIST.replace("Tag the release", "Tag the release, then announce it"),
    )
    assert import_into(root, [notes], apply=False) == [
        ("unchanged", "API Spec"),
        ("change", "Deploy Checklist"),
    ]
    assert import_into(root, [notes]) == [("unchanged", "API Spec"), ("change", "Deploy Checklist")]
    store = MemoryStore(root)
    assert sorted(m.title for m in store.memories(GLOBAL)) == ["API Spec", "Deploy Checklist"]
    assert "then announce it" in store.get(GLOBAL, checklist.id).text
    assert DIGEST_KEY in store.get(GLOBAL, checklist.id).extra


def test_markdown_sections_and_cursor_rules_imported_again(tmp_path: Path) -> None:
    root = tmp_path / "oda"
    agents = tmp_path / "AGENTS.md"
    agents.write_text("# Guide\n\n## Tests\n\nRun pytest.\n\n## Lint\n\nRun ruff.\n")
    rules = tmp_path / ".cursor" / "rules"
    rules.mkdir(parents=True)
    (rules / "web.mdc").write_text(
        "---\ndescription: Web\nglobs: web/**\nalwaysApply: false\n---\nUse hooks.\n"
    )
    assert counts_of(import_into(root, [agents, rules])) == {"create": 3}
    agents.write_text("# Guide\n\n## Tests\n\nRun pytest -q.\n\n## Lint\n\nRun ruff.\n")
    (rules / "web.mdc").write_text(
        "---\ndescription: Web\nglobs: web/**, app/**\nalwaysApply: false\n---\nUse hooks.\n"
    )
    assert import_into(root, [agents, rules]) == [
        ("change", "Tests"),
        ("unchanged", "Lint"),
        ("change", "Web"),
    ]
    texts = sorted(m.text for m in MemoryStore(root).memories(GLOBAL))
    assert texts == ["Applies to: web/**, app/**\n\nUse hooks.", "Run pytest -q.", "Run ruff."]


def counts_of(steps: list[tuple[str, str]]) -> dict[str, int]:
    found: dict[str, int] = {}
    for outcome, _title in steps:
        found[outcome] = found.get(outcome, 0) + 1
    return found


def test_the_dry_run_of_a_change_is_checked_as_the_change_is(tmp_path: Path) -> None:
    root, graph = tmp_path / "oda", tmp_path / "memory.jsonl"
    graph.write_text(SERVER_MEMORY_V1)
    import_into(root, [graph])
    graph.write_text(
        SERVER_MEMORY_V2.replace("Never deploys on Fridays", "password = hunter2-long-enough-Secret9")
    )
    store = MemoryStore(root)
    planned = plan_import(store, GLOBAL, read_sources([str(graph)]).candidates)
    assert counts(planned)["refused"] == 1
    applied = apply_import(store, GLOBAL, read_sources([str(graph)]).candidates)
    assert [(s.outcome, s.reason) for s in applied] == [(s.outcome, s.reason) for s in planned]
