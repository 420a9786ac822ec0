"""``import --split``: a section over the text limit is cut at paragraph, then line, boundaries
into numbered memories, each within the limit, with nothing lost but the blanks at the cuts."""

from __future__ import annotations

from pathlib import Path

from store import GLOBAL, MemoryStore
from store.exchange.import_sources import read_sources
from store.exchange.importers import Candidate
from store.exchange.importing import apply_import, plan_import
from store.exchange.splitting import cut, split_long
from tests.support.timing import slowdown


def words(text: str) -> list[str]:
    return text.split()


def test_a_long_section_is_cut_at_paragraphs_into_numbered_memories() -> None:
    paragraphs = [f"Paragraph {n}. " + "word " * 120 for n in range(10)]  # about 610 characters each
    text = "\n\n".join(p.strip() for p in paragraphs)
    found = split_long([Candidate("Testing", text, "AGENTS.md, section “Testing”", "k#Testing")], 2000)
    assert [c.title for c in found] == ["Testing (1/4)", "Testing (2/4)", "Testing (3/4)", "Testing (4/4)"]
    assert [c.origin for c in found][0] == "AGENTS.md, section “Testing”, part 1 of 4"
    assert [c.key for c in found][3] == "k#Testing part 4"
    assert all(len(c.text) <= 2000 for c in found)
    assert all(c.text.startswith("Paragraph") for c in found)  # every cut at a paragraph's end
    assert words("\n\n".join(c.text for c in found)) == words(text)
    short = Candidate("Short", "Fits.", "x")
    assert split_long([short], 2000) == [short]


def test_a_paragraph_over_the_limit_is_cut_at_lines_then_at_blanks() -> None:
    lines = [f"- item {n} " + "x" * 80 for n in range(60)]  # one paragraph of about 5,400 characters
    pieces = cut("\n".join(lines), 2000)
    assert len(pieces) == 3 and all(len(p) <= 2000 for p in pieces)
    assert all(p.startswith("- item") for p in pieces)
    assert words("\n".join(pieces)) == words("\n".join(lines))
    long_line = " ".join(f"w{n}" for n in range(2000))
    pieces = cut(long_line, 500)
    assert all(len(p) <= 500 for p in pieces) and " ".join(pieces) == long_line
    assert cut("y" * 1200, 500) == ["y" * 500, "y" * 500, "y" * 200]


def test_a_fence_stays_with_its_paragraph() -> None:
    fence = "```\nline one\n\nline two\n```"
    text = "Intro " + "a" * 50 + "\n\n" + fence + "\n\nOutro " + "b" * 50
    assert cut(text, 80) == ["Intro " + "a" * 50, fence, "Outro " + "b" * 50]


def test_cutting_is_linear() -> None:
    blanks = "a " * 50_000 + "x" * 3000  # blanks early in each window, then none
    plain = "ab" * 50_000 + "x" * 3000
    assert slowdown(lambda: cut(blanks, 2000), lambda: cut(plain, 2000)) < 20


def test_split_sections_are_imported_and_imported_again(tmp_path: Path) -> None:
    agents = tmp_path / "AGENTS.md"
    body = "\n\n".join(f"Rule {n}: " + "keep it short " * 40 for n in range(8))
    agents.write_text(f"# Guide\n\n## Testing\n\n{body}\n\n## Lint\n\nRun ruff.\n")
    root = tmp_path / "oda"
    store = MemoryStore(root)
    candidates = read_sources([str(agents)]).candidates
    assert [s.outcome for s in plan_import(store, GLOBAL, candidates)] == ["refused", "create"]
    limit = store.limits.text_max_chars
    split = split_long(candidates, limit)
    assert [c.title for c in split] == ["Testing (1/3)", "Testing (2/3)", "Testing (3/3)", "Lint"]
    assert [s.outcome for s in apply_import(store, GLOBAL, split)] == ["create"] * 4
    agents.write_text(
        f"# Guide\n\n## Testing\n\n{body.replace('Rule 7', 'Rule seven')}\n\n## Lint\n\nRun ruff.\n"
    )
    again = split_long(read_sources([str(agents)]).candidates, limit)
    steps = apply_import(MemoryStore(root), GLOBAL, again)
    assert [s.outcome for s in steps] == ["unchanged", "unchanged", "change", "unchanged"]
    assert len(MemoryStore(root).memories(GLOBAL)) == 4
