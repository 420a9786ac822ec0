"""Finding memories in Markdown, basic-memory notes and server-memory JSONL, and reading the
sources by the store's file rules."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from store.exchange.import_sources import read_sources
from store.exchange.importers import BadSource, Candidate, basic_memory_note, cursor_rule, markdown_memories
from store.exchange.managed_block import render_block
from store.exchange.server_memory import server_memory_entities
from tests.support.timing import slowdown


def titles_and_texts(found: list[Candidate]) -> list[tuple[str, str]]:
    return [(c.title, c.text) for c in found]


def test_each_section_is_a_memory_and_the_synced_block_is_skipped() -> None:
    text = (
        "# Project notes\r\n\r\nRead me first.\r\n\r\n## Use uv\r\n\r\nAlways uv.\r\n\r\n### Why\r\n\r\nSpeed.\r\n\r\n"
        "```md\r\n## not a heading\r\n```\r\n\r\n## Tests ##\r\n\r\nRun pytest -q.\r\n\r\n"
        + render_block("# Memory\n\n## Ours\n\nAlready a memory.\n", "\r\n")
        + "\r\n"
    )
    found = markdown_memories(text, "CLAUDE.md", "CLAUDE")
    assert titles_and_texts(found) == [
        ("Project notes", "Read me first."),
        ("Use uv", "Always uv.\n\n### Why\n\nSpeed.\n\n```md\n## not a heading\n```"),
        ("Tests", "Run pytest -q."),
    ]
    assert found[1].origin == "CLAUDE.md, section “Use uv”"


def test_a_file_without_sections_is_one_memory_titled_by_its_heading_or_name() -> None:
    assert titles_and_texts(markdown_memories("# Style\n\nShort answers.\n", "s.md", "s")) == [
        ("Style", "Short answers.")
    ]
    assert titles_and_texts(markdown_memories("Short answers.\n", "notes.md", "notes")) == [
        ("notes", "Short answers.")
    ]
    assert markdown_memories("", "empty.md", "empty") == []


def test_a_basic_memory_note_takes_its_frontmatter_title() -> None:
    note = "---\ntitle: Coffee order\npermalink: coffee\ntags: [x]\n---\n\n# Coffee order\n\nFlat white.\n"
    assert basic_memory_note(note, "c.md", "c") == Candidate(
        "Coffee order", "Flat white.\n\nTags: x", "c.md", "basic-memory coffee"
    )
    untitled = basic_memory_note("---\ntags: [x]\n---\nBody\n", "u.md", "u")
    assert (untitled.title, untitled.text) == ("u", "Body\n\nTags: x")
    with pytest.raises(BadSource, match="not valid YAML"):
        basic_memory_note("---\ntitle: [unclosed\n---\nBody\n", "b.md", "b")
    with pytest.raises(BadSource, match="not valid YAML"):  # the strict loader: a repeated key
        basic_memory_note("---\ntitle: a\ntitle: b\n---\nBody\n", "d.md", "d")


def test_server_memory_entities_are_memories_with_their_type_and_relations() -> None:
    lines = [
        {
            "type": "entity",
            "name": "Alice",
            "entityType": "person",
            "observations": ["Likes tea", "Works remote"],
        },
        {"type": "entity", "name": "Bob", "entityType": "person", "observations": []},
        {"type": "relation", "from": "Alice", "to": "Bob", "relationType": "knows"},
    ]
    graph = server_memory_entities("\n".join(json.dumps(x) for x in lines) + "\n\n", "memory.jsonl")
    assert titles_and_texts(graph.entities) == [
        ("Alice", "Likes tea\nWorks remote\n\nType: person\nknows: Bob")
    ]
    assert graph.empty == ["Bob"] and graph.relations == 1
    assert graph.entities[0].origin == "memory.jsonl, line 1"
    assert graph.entities[0].key == "server-memory entity Alice"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"type": "entity", "name": "A", "observations": []}\n{oops\n', "line 2 is not JSON"),
        ("[1, 2]\n", "line 1 is not a server-memory entity"),
        ('{"type": "entity", "name": "A", "observations": [1]}\n', "line 1: its observations"),
        ('{"type": "relation", "from": "A", "to": 2, "relationType": "r"}\n', "line 1: a relation needs"),
        ('{"type": "entity", "name": "A", "entityType": [], "observations": []}\n', "line 1: its entityType"),
    ],
)
def test_bad_jsonl_is_refused_naming_the_line(text: str, words: str) -> None:
    with pytest.raises(BadSource, match=words):
        server_memory_entities(text, "m.jsonl")


def test_sources_are_read_by_kind(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    (notes / "sub").mkdir(parents=True)
    (notes / "a.md").write_text("---\ntitle: A note\n---\nAlpha.\n")
    (notes / "sub" / "b.md").write_text("---\ntitle: B note\n---\nBeta.\n")
    (notes / ".hidden").mkdir()
    (notes / ".hidden" / "c.md").write_text("---\ntitle: Hidden\n---\nNo.\n")
    (notes / "image.png").write_bytes(b"\x89PNG")
    graph = tmp_path / "memory.json"
    graph.write_text(
        '{"type":"entity","name":"E","observations":["o"]}\n'
        '{"type":"relation","from":"Gone","to":"E","relationType":"knows"}\n'
    )
    doc = tmp_path / "CLAUDE.md"
    doc.write_text("## One\n\nFirst.\n")
    found = read_sources([str(notes), str(graph), str(doc)])
    assert titles_and_texts(found.candidates) == [
        ("A note", "Alpha."),
        ("B note", "Beta."),
        ("E", "o"),
        ("One", "First."),
    ]
    assert found.candidates[1].origin == f"{notes}/sub/b.md"
    assert found.notes == [
        f"{graph}: 1 relation from an entity not in the file not imported "
        "(a relation is kept as a line of the entity it starts from)."
    ]


def test_bad_input_is_refused_in_one_line(tmp_path: Path) -> None:
    latin = tmp_path / "latin.md"
    latin.write_bytes(b"## Caf\xe9\n")
    with pytest.raises(BadSource, match="latin.md: it is not UTF-8 text"):
        read_sources([str(latin)])
    huge = tmp_path / "huge.md"
    with open(huge, "wb") as f:
        f.truncate(1024**3)
    with pytest.raises(BadSource, match="huge.md: it is larger than 16 MiB"):
        read_sources([str(huge)])
    with pytest.raises(BadSource, match="could not be read"):
        read_sources([str(tmp_path / "missing.md")])


def test_a_link_in_a_notes_folder_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("---\ntitle: Secret\n---\nNo.\n")
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("---\ntitle: A\n---\nAlpha.\n")
    os.symlink(outside, notes / "more")
    with pytest.raises(BadSource, match="more: it is a link"):
        read_sources([str(notes)])
    os.unlink(notes / "more")
    os.symlink(outside / "secret.md", notes / "b.md")
    with pytest.raises(BadSource, match="b.md: it is a link"):
        read_sources([str(notes)])


def test_a_preamble_without_a_top_heading_is_titled_by_the_file_name() -> None:
    text = "Read me first.\n\n## Project setup\n\nRun make.\n\n## Tests\n\nRun pytest.\n"
    found = markdown_memories(text, "AGENTS.md", "AGENTS")
    assert titles_and_texts(found) == [
        ("AGENTS", "Read me first."),
        ("Project setup", "Run make."),
        ("Tests", "Run pytest."),
    ]
    # Text above the # heading is kept in the preamble too, under that heading's title.
    above = markdown_memories("<!-- badge -->\n# Notes\nIntro.\n## A\nx\n", "n.md", "n")
    assert titles_and_texts(above) == [("Notes", "<!-- badge -->\nIntro."), ("A", "x")]


def test_headings_are_read_as_commonmark_writes_them() -> None:
    text = "   ## Indented\nx\n##\tTab ##\ny\n## Closing #s ###   \nz\n#Not a heading\n## C# and F#\nw\n"
    found = markdown_memories(text, "h.md", "h")
    assert [c.title for c in found] == [
        "Indented",
        "Tab",
        "Closing #s",
        "C# and F#",
    ]
    assert found[2].text == "z\n#Not a heading"


def test_the_heading_pattern_is_linear_in_a_long_run_of_blanks() -> None:
    """``## a`` + a long run of blanks + ``b`` made the old pattern backtrack (cubic)."""
    hostile = "".join("## a" + " " * 400 + "b\n" for _ in range(10))
    plain = "".join("## a" + "x" * 400 + "b\n" for _ in range(10))
    assert len(hostile) == len(plain)
    assert [c.title for c in markdown_memories(hostile, "h.md", "h")][0] == "a" + " " * 400 + "b"
    ratio = slowdown(
        lambda: markdown_memories(hostile, "h.md", "h"), lambda: markdown_memories(plain, "p.md", "p")
    )
    assert ratio < 20
    note = "---\ntitle: a\n---\n# a" + " " * 4000 + "b\ntext\n"
    calm = "---\ntitle: a\n---\n# a" + "x" * 4000 + "b\ntext\n"
    assert (
        slowdown(lambda: basic_memory_note(note, "n.md", "n"), lambda: basic_memory_note(calm, "c.md", "c"))
        < 20
    )


def test_a_cursor_rule_takes_its_description_and_globs() -> None:
    rule = "---\ndescription: Web components\nglobs: web/**, src/**/*.tsx\nalwaysApply: false\n---\n# Web\n\nUse hooks.\n"
    assert cursor_rule(rule, "web.mdc", "web", "k") == Candidate(
        "Web components", "Applies to: web/**, src/**/*.tsx\n\n# Web\n\nUse hooks.", "web.mdc", "k"
    )
    # Cursor writes globs unquoted, which YAML cannot read (* starts an alias): read as lines.
    bare = "---\ndescription: \nglobs: **/*.py,**/*.pyi\nalwaysApply: false\n---\nUse uv.\n"
    assert titles_and_texts([cursor_rule(bare, "py.mdc", "python")]) == [
        ("python", "Applies to: **/*.py, **/*.pyi\n\nUse uv.")
    ]
    listed = '---\nalwaysApply: true\nglobs: ["a/*", "b/*"]\n---\nAlways.\n'
    assert cursor_rule(listed, "g.mdc", "general").text == "Applies to: a/*, b/*\n\nAlways."
    assert cursor_rule("No frontmatter.\n", "n.mdc", "n").title == "n"


def test_a_line_of_imports_only_is_left_out_of_a_claude_file() -> None:
    text = "@AGENTS.md\n\n## Extra\n\nSee @docs/x.md for more.\n@alice reviews.\n`@not/an/import.md`\n"
    found = markdown_memories(text, "CLAUDE.md", "CLAUDE", imports=True)
    assert titles_and_texts(found) == [
        ("Extra", "See @docs/x.md for more.\n@alice reviews.\n`@not/an/import.md`")
    ]
    assert markdown_memories("@AGENTS.md\n", "CLAUDE.md", "CLAUDE", imports=True) == []
    assert titles_and_texts(markdown_memories("@AGENTS.md\n", "AGENTS2.md", "AGENTS2")) == [
        ("AGENTS2", "@AGENTS.md")
    ]
