"""Claude Code's ``@path`` imports in a ``CLAUDE.md`` being imported: followed inside the
folder of the file named, bounded, through no link, each file once, and listed in the notes.

Real repositories (modelcontextprotocol/python-sdk, langfuse) keep a ``CLAUDE.md`` that is just
``@AGENTS.md``: importing it must bring AGENTS.md's memories, not a memory reading "@AGENTS.md".
"""

from __future__ import annotations

import os
from pathlib import Path

from store.exchange.claude_imports import without_code_spans
from store.exchange.import_sources import MAX_IMPORT_DEPTH, read_sources
from tests.support.timing import slowdown


def titles(folder: Path, *names: str) -> tuple[list[str], list[str]]:
    found = read_sources([str(folder / name) for name in names])
    return [c.title for c in found.candidates], found.notes


def test_a_claude_file_of_just_an_import_brings_the_imported_files_memories(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").write_text("@AGENTS.md\n")
    (tmp_path / "AGENTS.md").write_text(
        "# Development Guidelines\n\n## Testing\n\nRun pytest.\n\n## Lint\n\nRun ruff.\n"
    )
    found = read_sources([str(tmp_path / "CLAUDE.md")])
    assert [(c.title, c.text) for c in found.candidates] == [
        ("Testing", "Run pytest."),
        ("Lint", "Run ruff."),
    ]
    assert found.candidates[0].origin == "AGENTS.md, section “Testing”"
    assert found.candidates[0].key == f"markdown {tmp_path / 'AGENTS.md'}#Testing"  # as if named itself
    assert found.notes == [f"{tmp_path / 'CLAUDE.md'}: @AGENTS.md: followed, AGENTS.md imported."]


def test_imports_are_followed_in_order_each_file_once(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "CLAUDE.md").write_text("# Me\n\nSee @docs/style.md and @AGENTS.md.\n\n@AGENTS.md\n")
    (tmp_path / "docs" / "style.md").write_text("# Style\n\nShort lines. Back to @../CLAUDE.md\n")
    (tmp_path / "AGENTS.md").write_text("# Agents\n\nUse uv. Also @docs/style.md\n")
    names, notes = titles(tmp_path, "CLAUDE.md")
    assert names == ["Me", "Style", "Agents"]  # CLAUDE.md, then what it imports, depth first
    assert (
        notes
        == [
            f"{tmp_path / 'CLAUDE.md'}: @docs/style.md: followed, docs/style.md imported.",
            "docs/style.md: @../CLAUDE.md: CLAUDE.md was read already.",
            f"{tmp_path / 'CLAUDE.md'}: @AGENTS.md. not followed: there is no such file.",  # as Claude Code reads it
            f"{tmp_path / 'CLAUDE.md'}: @AGENTS.md: followed, AGENTS.md imported.",
            "AGENTS.md: @docs/style.md: docs/style.md was read already.",
        ]
    )


def test_imports_out_of_the_folder_through_links_or_of_no_file_are_not_followed(tmp_path: Path) -> None:
    project, outside = tmp_path / "project", tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    (outside / "secret.md").write_text("## Secret\n\nOutside text.\n")
    (project / "linked").symlink_to(outside)
    (project / "link.md").symlink_to(outside / "secret.md")
    (project / "image.png").write_bytes(b"\x89PNG")
    (project / "CLAUDE.md").write_text(
        "## Mine\n\nText.\n\n@../outside/secret.md\n@~/notes.md\n@linked/secret.md\n@link.md\n@missing.md\n"
        "@image.png\n`@code/span.md`\n\n```\n@fenced/block.md\n```\n"
    )
    names, notes = titles(project, "CLAUDE.md")
    assert names == ["Mine"]
    shown = f"{project / 'CLAUDE.md'}"
    assert notes == [
        f"{shown}: @../outside/secret.md not followed: it is outside {project}.",
        f"{shown}: @~/notes.md not followed: it is outside {project}.",
        f"{shown}: @linked/secret.md not followed: it is a link, and no link is followed.",
        f"{shown}: @link.md not followed: it is a link, and no link is followed.",
        f"{shown}: @missing.md not followed: there is no such file.",
        f"{shown}: @image.png not followed: only Markdown and text files are imported.",
    ]


def test_imports_go_at_most_five_hops_deep(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").write_text("## Top\n\nx\n\n@f1.md\n")
    for number in range(1, 8):
        (tmp_path / f"f{number}.md").write_text(f"## File {number}\n\nx{number}\n\n@f{number + 1}.md\n")
    names, notes = titles(tmp_path, "CLAUDE.md")
    assert names == ["Top", *(f"File {n}" for n in range(1, MAX_IMPORT_DEPTH + 1))]
    assert notes[-1] == (
        f"f{MAX_IMPORT_DEPTH}.md: @f{MAX_IMPORT_DEPTH + 1}.md not followed: past 5 imports deep or 100 files in all."
    )


def test_a_file_imported_and_named_too_is_read_once(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").write_text("@AGENTS.md\n")
    (tmp_path / "AGENTS.md").write_text("## Testing\n\nRun pytest.\n")
    names, notes = titles(tmp_path, "CLAUDE.md", "AGENTS.md")
    assert names == ["Testing"]
    assert (
        notes[-1]
        == f"{tmp_path / 'AGENTS.md'}: it was read already (named twice, or imported by another source); not imported twice."
    )


def test_only_claude_files_have_imports(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").write_text("@CONTRIBUTING.md\n")
    (tmp_path / "CONTRIBUTING.md").write_text("## Contributing\n\nSend patches.\n")
    names, notes = titles(tmp_path, "AGENTS.md")
    assert (names, notes) == (["AGENTS"], [])  # Codex reads AGENTS.md as it is: "@CONTRIBUTING.md"


def test_a_claude_file_named_through_a_link_imports_from_where_it_is(tmp_path: Path) -> None:
    """langfuse: CLAUDE.md -> AGENTS.md -> .agents/AGENTS.md (links the person chose)."""
    (tmp_path / ".agents").mkdir()
    (tmp_path / ".agents" / "AGENTS.md").write_text("## Guide\n\nRead @shared.md\n")
    (tmp_path / ".agents" / "shared.md").write_text("## Shared\n\nShared text.\n")
    os.symlink(".agents/AGENTS.md", tmp_path / "AGENTS.md")
    os.symlink("AGENTS.md", tmp_path / "CLAUDE.md")
    names, notes = titles(tmp_path, "CLAUDE.md")
    assert names == ["Guide", "Shared"]
    assert notes == [f"{tmp_path / 'CLAUDE.md'}: @shared.md: followed, .agents/shared.md imported."]


def test_code_spans_are_found_in_linear_time() -> None:
    assert without_code_spans("a `@x.md` b ``c ` d`` @y.md").split() == ["a", "b", "@y.md"]
    assert without_code_spans("`` unmatched ` @z.md") == "`` unmatched ` @z.md"
    hostile = "`" + " ``" * 20_000 + " @a.md"  # runs of every kind, none closing the first
    plain = "`" + " `x" * 20_000 + " @a.md"  # as many runs, closing in pairs
    assert slowdown(lambda: without_code_spans(hostile), lambda: without_code_spans(plain)) < 20
