"""What reaches other assistants' files is what the person would share: no secret-looking text,
no Global memory in a project's files (unless asked), no agent text the person has not
reviewed; no ``@`` a tool would read as an import; each memory once; a warning where a tool
would not read the block; the block's workspace recorded and kept to.

Real files used as test data: ``CLAUDE.md`` and the start of ``AGENTS.md`` of
modelcontextprotocol/python-sdk (commit 57394b0548d1e2dc2dce8d67d84985769df3b8bb), and the start of
langfuse/langfuse's ``.agents/AGENTS.md`` (commit 62751446149b702b419a9292ddfc2280cdf74b8c).
"""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from store import GLOBAL, MemoryStore
from store.exchange.block_markdown import imports, quote_imports
from store.exchange.managed_block import find_block, render_block
from store.exchange.sync_content import MemorySet
from store.exchange.sync_targets import SyncOptions, sync

WEB = MemorySet("web")
#: modelcontextprotocol/python-sdk's CLAUDE.md, whole.
SDK_CLAUDE = "@AGENTS.md\n"
#: The start of modelcontextprotocol/python-sdk's AGENTS.md (a ``@deprecated`` in a code span).
SDK_AGENTS = """# Development Guidelines

## Note for AI Agents

If you are an AI coding agent acting for someone who is not a maintainer of
this repository, read `CONTRIBUTING.md` before opening issues or pull
requests here. In particular, pull requests that aren't linked to an issue
assigned to their author are closed automatically.

## Branching Model

- `main` is the current stable line (v2); releases are cut from it (see
  `RELEASE.md`).
- v2 is released; its public API is a compatibility contract for the 2.x
  line. Removals, renames, or any change to an existing API's signature or
  observable behaviour (including ones softened by a `@deprecated` shim) is a
  design decision a maintainer makes explicitly, and should generally be
  avoided.
"""
#: The start of langfuse/langfuse's .agents/AGENTS.md.
LANGFUSE_AGENTS = """# Agent Guidelines for Langfuse

Langfuse is an open source LLM engineering platform for developing, monitoring,
evaluating, and debugging AI applications.

## How To Work

- Read the minimal local context required for the task.
- Keep changes scoped and avoid unrelated refactors.
"""
#: Claude Code's import, as its documentation states it: ``@path`` after white space or at a
#: line's start (read here at the start of any run of text, the wider reading).
IMPORT = re.compile(r"(?:^|\s)@((?:[^\s\\]|\\ )+)")


def _store(root: Path) -> MemoryStore:
    s = MemoryStore(root)
    s.create(GLOBAL, "Tea", "Green tea, no sugar.")
    s.create("web", "Deploy", "Run migrations first.")
    return s


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    return project


def _imports_by_the_documented_rule(markdown: str) -> list[str]:
    """What Claude Code would import from ``markdown``: ``@path`` in text outside code spans
    and code blocks (a CommonMark parser, markdown-it, says which is which)."""
    found = []
    for token in MarkdownIt("commonmark").parse(markdown):
        for child in token.children or []:
            if child.type == "text":
                found += IMPORT.findall(child.content)
    return found


def test_a_memory_that_looks_secret_stops_the_sync_naming_it_unless_allowed(tmp_path: Path) -> None:
    s = _store(tmp_path / "oda")
    key = s.create("web", "Deploy key", "The key is sk-proj-4f9aXk2LmQ8rT7vBw3NcYd6Hs1", allow_secret=True)
    project = _project(tmp_path)
    report = sync(s, project, ["AGENTS.md", "CLAUDE.md"], WEB)
    assert report.refusals == [
        f'The memory "Deploy key" (workspace web, id {key.id}) looks like it holds an API key or token: '
        "sync writes nothing secret-looking into another program's files, so nothing was written. "
        "Change that memory, or sync with --allow-secrets to write it anyway."
    ]
    assert list(project.iterdir()) == []
    allowed = sync(s, project, ["AGENTS.md"], WEB, SyncOptions(allow_secrets=True))
    assert allowed.written == ["AGENTS.md"] and "sk-proj-" in (project / "AGENTS.md").read_text()


def test_a_projects_files_get_its_workspaces_memories_and_global_goes_to_the_users_files(
    tmp_path: Path,
) -> None:
    s = _store(tmp_path / "oda")
    project = _project(tmp_path)
    report = sync(s, project, ["AGENTS.md"], WEB)
    text = (project / "AGENTS.md").read_text()
    assert "Run migrations first." in text and "Green tea" not in text
    assert report.notes == []
    both = sync(s, project, ["AGENTS.md"], MemorySet("web", with_global=True))
    assert "Green tea" in (project / "AGENTS.md").read_text()
    assert both.notes[0].startswith(
        "Global memories are written into these project files too (--with-global)"
    )
    home = tmp_path / "home"
    home.mkdir()
    mine = sync(s, home, [".claude/CLAUDE.md", ".codex/AGENTS.md"], MemorySet(None))
    assert mine.written == [".claude/CLAUDE.md", ".codex/AGENTS.md"]
    for name in mine.written:
        user_file = (home / name).read_text()
        assert "Green tea" in user_file and "Run migrations" not in user_file
        assert "memories=global " in user_file


def test_unreviewed_agent_text_is_held_back_and_counted(tmp_path: Path) -> None:
    s = _store(tmp_path / "oda")
    agent = s.create("web", "Agent note", "Deploy on Fridays.", source="ai", via="chat")
    project = _project(tmp_path)
    report = sync(s, project, ["AGENTS.md"], WEB, SyncOptions(held_back=frozenset({("web", agent.id)})))
    assert report.held_back == 1
    text = (project / "AGENTS.md").read_text()
    assert "Run migrations first." in text and "Fridays" not in text
    assert sync(s, project, ["AGENTS.md"], WEB).held_back == 0
    assert "Fridays" in (project / "AGENTS.md").read_text()


def test_an_at_in_a_memory_is_no_import_by_the_documented_rule(tmp_path: Path) -> None:
    s = MemoryStore(tmp_path / "oda")
    texts = [
        "Read @local-notes.txt before you start.",
        "Keys live in (@.env) and **@secrets/prod.json**.",
        "Already code: `@fine` and @not-fine; mail ada@example.com.",
        "```python\n@dataclass\nclass A: ...\n```\n@after-the-fence",
        "An escaped \\@escaped.md and a path with a space: @my\\ notes.md.",
        "A backtick right after: @tick`x` and before: `x`@after",
    ]
    for number, text in enumerate(texts):
        s.create("web", f"Note {number}", text)
    s.create("web", "@title.md", "The title is a path.")
    project = _project(tmp_path)
    sync(s, project, ["CLAUDE.md"], WEB)
    written = (project / "CLAUDE.md").read_text()
    assert _imports_by_the_documented_rule(written) == []
    assert imports(written) == []
    # Still there to read: only code-span backticks (and a space beside one) were added.
    for text in texts:
        plain = re.sub(r"[`\s]", "", text)
        assert plain in re.sub(r"[`\s]", "", written)
    assert "mail ada@example.com." in written  # an address is no import
    # and before this sync, the memory would have been an import
    assert _imports_by_the_documented_rule("Read @local-notes.txt before you start.") == ["local-notes.txt"]


_MARKDOWN = st.text(alphabet=st.sampled_from(list("@`\\ \n\tab.-*()~#>_[]!")), max_size=60)


@settings(max_examples=400, deadline=None)
@given(text=_MARKDOWN)
def test_quoting_leaves_no_import_in_any_text(text: str) -> None:
    quoted = quote_imports(text)
    assert _imports_by_the_documented_rule(quoted) == [], quoted
    assert quoted.replace("`", "").replace(" ", "") == text.replace("`", "").replace(" ", "")


def test_a_claude_md_that_imports_agents_md_gets_no_second_copy(tmp_path: Path) -> None:
    s = _store(tmp_path / "oda")
    project = _project(tmp_path)
    (project / "CLAUDE.md").write_text(SDK_CLAUDE)
    (project / "AGENTS.md").write_text(SDK_AGENTS)
    report = sync(s, project, ["AGENTS.md", "CLAUDE.md"], WEB)
    assert report.refusals == [] and report.written == ["AGENTS.md"]
    assert report.notes == [
        "CLAUDE.md imports AGENTS.md (@AGENTS.md), so the memories are written once, into AGENTS.md; "
        "CLAUDE.md is not written."
    ]
    assert [(p.name, p.status) for p in report.plans] == [("AGENTS.md", "added"), ("CLAUDE.md", "left out")]
    assert (project / "CLAUDE.md").read_text() == SDK_CLAUDE
    agents = (project / "AGENTS.md").read_text()
    assert agents.startswith(SDK_AGENTS) and agents.count("Run migrations first.") == 1
    assert [p.status for p in sync(s, project, ["AGENTS.md", "CLAUDE.md"], WEB).plans] == [
        "in step",
        "left out",
    ]


def test_a_block_already_in_a_file_that_imports_the_other_is_emptied(tmp_path: Path) -> None:
    s = _store(tmp_path / "oda")
    project = _project(tmp_path)
    (project / "CLAUDE.md").write_text(SDK_CLAUDE)
    sync(s, project, ["CLAUDE.md"], WEB)  # an earlier sync, before AGENTS.md was a target
    assert "Run migrations first." in (project / "CLAUDE.md").read_text()
    report = sync(s, project, ["AGENTS.md", "CLAUDE.md"], WEB)
    assert report.written == ["AGENTS.md", "CLAUDE.md"]
    assert report.notes[0].endswith("its block is left empty.")
    claude = (project / "CLAUDE.md").read_text()
    assert claude == SDK_CLAUDE + "\n" + render_block("", "\n", WEB.holds) + "\n"


def test_cursor_reads_agents_md_so_its_rules_file_gets_no_second_copy(tmp_path: Path) -> None:
    s = _store(tmp_path / "oda")
    project = _project(tmp_path)
    report = sync(s, project, ["AGENTS.md", ".cursor/rules/oda-memory.mdc"], WEB)
    assert report.written == ["AGENTS.md"]
    assert report.notes == [
        "Cursor reads AGENTS.md as well as .cursor/rules/oda-memory.mdc, so the memories are written once, "
        "into AGENTS.md; .cursor/rules/oda-memory.mdc is not written."
    ]
    assert not (project / ".cursor").exists()
    sync(s, project, [".cursor/rules/oda-memory.mdc"], WEB)  # on its own, it gets them
    assert "Run migrations first." in (project / ".cursor/rules/oda-memory.mdc").read_text()
    again = sync(s, project, ["AGENTS.md", ".cursor/rules/oda-memory.mdc"], WEB)
    assert again.written == [".cursor/rules/oda-memory.mdc"]
    assert "Run migrations first." not in (project / ".cursor/rules/oda-memory.mdc").read_text()


def test_a_block_past_codexs_read_limit_is_warned_about_and_at_top_puts_it_first(tmp_path: Path) -> None:
    s = _store(tmp_path / "oda")
    project = _project(tmp_path)
    filler = "".join(f"- Rule {n}: keep the change scoped and the tests green.\n" for n in range(600))
    original = LANGFUSE_AGENTS + "\n## Rules\n\n" + filler
    assert 32 * 1024 < len(original.encode()) < 40 * 1024
    (project / "AGENTS.md").write_text(original)
    report = sync(s, project, ["AGENTS.md"], WEB)
    end = len((project / "AGENTS.md").read_bytes())
    assert report.warnings == [
        f"AGENTS.md: the block ends {end - 1:,} bytes into the file, past the 32 KiB Codex reads by default "
        "(project_doc_max_bytes); Codex would not see the memories past that point. Sync with --at top to "
        "put the block after the file's first heading."
    ]
    top = sync(s, project, ["AGENTS.md"], WEB, SyncOptions(at_top=True))
    assert top.warnings == [] and top.written == ["AGENTS.md"]
    text = (project / "AGENTS.md").read_text()
    block = find_block(text)
    assert block is not None
    assert text[: block.line_start] == "# Agent Guidelines for Langfuse\n\n"
    assert text[block.line_end :] == "\n" + original[len("# Agent Guidelines for Langfuse\n\n") :] + "\n"
    assert sync(s, project, ["AGENTS.md"], WEB, SyncOptions(at_top=True)).plans[0].status == "in step"
    assert sync(s, project, ["AGENTS.md"], WEB).plans[0].status == "in step"  # it stays where it is


def test_the_block_records_its_workspace_and_another_is_refused_without_force(tmp_path: Path) -> None:
    s = _store(tmp_path / "oda")
    s.create("other", "Other rule", "Tabs.")
    project = _project(tmp_path)
    sync(s, project, ["AGENTS.md"], WEB)
    agents = project / "AGENTS.md"
    assert "<!-- oda-memory: begin memories=workspace:web sha256=" in agents.read_text()
    before = agents.read_bytes()
    refused = sync(s, project, ["AGENTS.md"], MemorySet("other"))
    assert refused.refusals == [
        "AGENTS.md: its block holds the memories of workspace web, not those of workspace other; sync "
        "those into it, or run again with --force to replace them; nothing was written."
    ]
    assert agents.read_bytes() == before
    assert (
        sync(s, project, ["AGENTS.md"], MemorySet(None))
        .refusals[0]
        .startswith("AGENTS.md: its block holds the memories of workspace web, not those of Global")
    )
    assert sync(s, project, ["AGENTS.md"], MemorySet("web", with_global=True)).refusals == []
    forced = sync(s, project, ["AGENTS.md"], MemorySet("other"), SyncOptions(force=True))
    assert forced.written == ["AGENTS.md"] and "Tabs." in agents.read_text()
    assert "memories=workspace:other " in agents.read_text()


def test_a_block_written_before_it_recorded_a_workspace_is_taken_as_the_one_synced(tmp_path: Path) -> None:
    s = _store(tmp_path / "oda")
    project = _project(tmp_path)
    old = "# Mine\n\n" + render_block("# Memory\n\n## Deploy\n\nRun migrations first.\n", "\n") + "\n"
    (project / "AGENTS.md").write_text(old)
    report = sync(s, project, ["AGENTS.md"], WEB)
    assert report.written == ["AGENTS.md"]
    assert (project / "AGENTS.md").read_text() == old.replace(
        "oda-memory: begin sha256=", "oda-memory: begin memories=workspace:web sha256="
    )


def test_a_memorys_own_headings_sit_below_its_title(tmp_path: Path) -> None:
    s = MemoryStore(tmp_path / "oda")
    s.create(
        "web",
        "Observations",
        "## not a heading?\n\nBody.\n\n# Top\n\nUnderlined\n---\n\n```\n## in code\n```",
    )
    s.create("web", "Second", "Text.")
    project = _project(tmp_path)
    sync(s, project, ["AGENTS.md"], WEB)
    text = (project / "AGENTS.md").read_text()
    tokens = MarkdownIt("commonmark").parse(text)
    h2 = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h2"]
    assert h2 == ["Observations", "Second"]
    assert "#### not a heading?" in text and "### Top" in text and "#### Underlined" in text
    assert "```\n## in code\n```" in text  # code stays code


def test_a_memory_holding_a_marker_line_is_refused_naming_it(tmp_path: Path) -> None:
    s = MemoryStore(tmp_path / "oda")
    bad = s.create("web", "Markers", "See this:\n<!-- oda-memory: end -->")
    project = _project(tmp_path)
    report = sync(s, project, ["AGENTS.md"], WEB)
    assert report.refusals == [
        f'The memory "Markers" (workspace web, id {bad.id}) holds a line beginning with <!-- oda-memory:, '
        "which would read as a marker of the block; change that memory; nothing was written."
    ]
    assert list(project.iterdir()) == []
