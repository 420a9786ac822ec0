"""The import graph of ``oda_tui`` and ``store`` has no cycle: every import points one way, the
ones under ``TYPE_CHECKING`` and inside functions included (grimp sees them all). A helper that
needs its owner takes a small Protocol of it instead of importing it."""

from __future__ import annotations

from pathlib import Path

import grimp

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("oda_tui", "store")


def _graph() -> grimp.ImportGraph:
    return grimp.build_graph(*PACKAGES, cache_dir=None)


def _modules_on_disk() -> set[str]:
    """Every module of the packages, by its file."""
    found: set[str] = set()
    for package in PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            parts = path.relative_to(REPO).with_suffix("").parts
            found.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def _cycles(graph: grimp.ImportGraph, modules: set[str]) -> list[tuple[str, ...]]:
    """Each import that closes a circle, as the circle: (a, b, ..., a) when ``a`` imports ``b``
    and ``b`` leads back to ``a``."""
    found: list[tuple[str, ...]] = []
    for importer in sorted(modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer) & modules):
            if imported == importer:
                found.append((importer, importer))
            elif (back := graph.find_shortest_chain(importer=imported, imported=importer)) is not None:
                found.append((importer, *back))
    return found


def test_the_graph_holds_every_module() -> None:
    # A folder without __init__.py is a namespace package, which grimp (and import-linter)
    # leave out of the graph without a word: its imports would go unchecked.
    assert _modules_on_disk() - _graph().modules == set()


def test_no_import_cycle_in_oda_tui_or_store() -> None:
    graph = _graph()
    modules = {m for m in graph.modules if m.split(".")[0] in PACKAGES}
    assert _cycles(graph, modules) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = grimp.ImportGraph()
    for importer, imported in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("e", "e")]:
        graph.add_import(importer=importer, imported=imported)
    cycles = _cycles(graph, set(graph.modules))
    assert ("a", "b", "c", "a") in cycles
    assert {module for cycle in cycles for module in cycle} == {"a", "b", "c", "e"}
