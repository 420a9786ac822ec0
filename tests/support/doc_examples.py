"""The documentation's examples: found in the pages, and the home folder they run in.

An example is a fenced block in ``sh``, ``bash``, ``shell`` or ``console`` (or ``text`` whose first
line begins with ``$ ``) that runs ``oda-tui`` or ``python -m benchmarks``. A block whose lines begin
with ``$ `` shows the output of each command under it; ``…`` there stands for any text. The line
``<!-- not run: why -->`` just before a block marks one that cannot run here; ``<!-- exit N -->``
one that ends with that exit code.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

from oda_tui.demo.sample import build_demo_store

PROJECT = Path(__file__).resolve().parents[2]
PAGES = [PROJECT / "README.md", PROJECT / "CONTRIBUTING.md", *sorted((PROJECT / "docs").glob("*.md"))]
SHELLS = {"sh", "bash", "shell", "console"}
RUNS = re.compile(r"(^|[\s/$(])oda-tui\b|python3? -m benchmarks")
NOT_RUN = re.compile(r"^<!-- not run: (?P<why>.+\S) -->$")
EXIT = re.compile(r"^<!-- exit (?P<code>\d+) -->$")
FENCE = re.compile(r"^(?P<indent>\s*)```(?P<lang>[\w-]*)\s*$")


@dataclass(frozen=True)
class Example:
    """One block of a page."""

    page: str
    line: int
    body: str
    not_run: str | None
    exit_code: int

    @property
    def shows_output(self) -> bool:
        return self.body.startswith("$ ")

    def __str__(self) -> str:
        return f"{self.page}:{self.line}"


def examples(pages: list[Path] = PAGES) -> list[Example]:
    """Every example of the pages, in order."""
    found = []
    for page in pages:
        found += _page_examples(page)
    return found


def _page_examples(page: Path) -> list[Example]:
    lines = page.read_text(encoding="utf-8").split("\n")
    found = []
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if opening is None:
            index += 1
            continue
        end = index + 1
        while not lines[end].strip().startswith("```"):
            end += 1
        indent = len(opening["indent"])
        body = "\n".join(line[indent:] for line in lines[index + 1 : end])
        lang = opening["lang"]
        is_shell = lang in SHELLS or (lang == "text" and body.startswith("$ "))
        if is_shell and RUNS.search(body):
            before = lines[index - 1].strip() if index else ""
            not_run = NOT_RUN.match(before)
            exit_mark = EXIT.match(before)
            found.append(
                Example(
                    page=str(page.relative_to(PROJECT)),
                    line=index + 1,
                    body=body,
                    not_run=not_run["why"] if not_run else None,
                    exit_code=int(exit_mark["code"]) if exit_mark else 0,
                )
            )
        index = end + 1
    return found


def commands_and_outputs(body: str) -> list[tuple[str, list[str]]]:
    """A ``$ ``-block as (command, the lines it shows) pairs."""
    pairs: list[tuple[str, list[str]]] = []
    for line in body.split("\n"):
        if line.startswith("$ "):
            pairs.append((line[2:], []))
        elif pairs:
            pairs[-1][1].append(line)
    return pairs


def shown_matches(shown: list[str], printed: str) -> bool:
    """Whether what a block shows is what the command printed, ``…`` standing for any text."""
    want = "\n".join(shown).rstrip("\n")
    pattern = ".*?".join(re.escape(part) for part in want.split("…"))
    return re.fullmatch(pattern, printed.rstrip("\n"), flags=re.DOTALL) is not None


MY_PROJECT = {
    "1a2b3c4d": ("Tests", "Run the tests with pytest -n auto; never commit a failing test."),
    "5e6f7a8b": ("Branching", "Branch from main as feature/<topic>; squash when merging."),
}
AGENTS_MD = """# My project

Build with `make`; the code is in `src/`.

## Style

Four spaces, no tabs.
"""
CURSOR_RULE = """---
description: Python style
globs: "**/*.py"
alwaysApply: false
---
Use type hints everywhere.
"""
SERVER_MEMORY = (
    '{"type": "entity", "name": "billing-service", "entityType": "service", '
    '"observations": ["Owned by the payments team"]}\n'
)
BASIC_MEMORY_NOTE = """---
title: Deploy checklist
type: note
tags: [ops]
---
Run the migrations before the restart.
"""


def make_example_home(home: Path) -> Path:
    """A home folder as the examples expect it: the demo's sample store (with a workspace
    ``my-project`` of two memories) as the memory folder, ``~/code/my-project`` with an
    ``AGENTS.md``, a ``CLAUDE.md`` that imports it, a Cursor rule and a ``.venv`` that is this
    project's, and the sources the import examples name. Returns the memory folder."""
    root = build_demo_store(home / ".local" / "share" / "Oda" / "memory")
    workspace = root / "workspaces" / "my-project"
    workspace.mkdir(parents=True, exist_ok=True)
    for memory_id, (title, text) in MY_PROJECT.items():
        (workspace / f"{memory_id}.md").write_text(
            f"---\ntitle: {title}\nenabled: true\nsource: user\n"
            f"created: 2026-11-30T09:00:00.000Z\nupdated: 2026-11-30T09:00:00.000Z\n---\n{text}\n",
            encoding="utf-8",
        )
    project = home / "code" / "my-project"
    (project / ".cursor" / "rules").mkdir(parents=True)
    (project / "AGENTS.md").write_text(AGENTS_MD, encoding="utf-8")
    (project / "CLAUDE.md").write_text("@AGENTS.md\n", encoding="utf-8")
    (project / ".cursor" / "rules" / "python.mdc").write_text(CURSOR_RULE, encoding="utf-8")
    (project / ".venv").symlink_to(Path(sys.prefix))
    for folder in (".claude", ".codex", ".mcp", "basic-memory"):
        (home / folder).mkdir()
    (home / ".mcp" / "memory.jsonl").write_text(SERVER_MEMORY, encoding="utf-8")
    (home / "basic-memory" / "deploy-checklist.md").write_text(BASIC_MEMORY_NOTE, encoding="utf-8")
    return root
