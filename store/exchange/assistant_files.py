"""Which assistant reads which file, at what scope, with what limit: what sync needs to know
of each tool (the table the user documentation gives, with its sources).

A target is matched by its path relative to the folder synced (the project folder, or the home
folder with ``--global``). Only what the tools' own documentation says is here.
"""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

Scope = Literal["project", "user"]

CLAUDE_DOCS = "https://docs.anthropic.com/en/docs/claude-code/memory"
CODEX_DOCS = "https://developers.openai.com/codex/guides/agents-md"
CURSOR_DOCS = "https://www.cursor.com/docs/rules"
COPILOT_DOCS = (
    "https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/add-custom-instructions"
)
GEMINI_DOCS = "https://geminicli.com/docs/cli/gemini-md"

#: Codex stops adding AGENTS.md text once the files it joined reach ``project_doc_max_bytes``.
CODEX_LIMIT = 32 * 1024


@dataclass(frozen=True, slots=True)
class Reader:
    """One tool reading one kind of file."""

    tool: str
    scope: Scope
    #: The tool reads ``@path`` in the file as an import of that file's text.
    imports: bool = False
    #: The most of the file the tool reads by default (bytes), and the setting that changes it.
    limit: int | None = None
    setting: str = ""
    docs: str = ""


_CLAUDE = Reader("Claude Code", "project", imports=True, docs=CLAUDE_DOCS)
_CODEX = Reader("Codex", "project", limit=CODEX_LIMIT, setting="project_doc_max_bytes", docs=CODEX_DOCS)
_CURSOR = Reader("Cursor", "project", docs=CURSOR_DOCS)
_COPILOT = Reader("GitHub Copilot", "project", docs=COPILOT_DOCS)
_GEMINI = Reader("Gemini CLI", "project", imports=True, docs=GEMINI_DOCS)


def _user(reader: Reader) -> Reader:
    return Reader(reader.tool, "user", reader.imports, reader.limit, reader.setting, reader.docs)


def readers(name: str, *, home: Path | None = None) -> list[Reader]:
    """The tools that read the target ``name`` (a path relative to the folder synced; with
    ``home``, that folder is the home folder and the files are the user-level ones)."""
    path = posixpath.normpath(name.replace(os.sep, "/"))
    base = posixpath.basename(path)
    if home is not None:
        return [_user(r) for r in _user_files(home).get(path, ())]
    if base in ("CLAUDE.md", "CLAUDE.local.md"):
        return [_CLAUDE]
    if base in ("AGENTS.md", "AGENTS.override.md"):
        # Cursor reads the project's own AGENTS.md (at its top), Codex every one on the way.
        return [_CODEX, _CURSOR] if path == base else [_CODEX]
    if path == ".github/copilot-instructions.md":
        return [_COPILOT]
    if path.startswith(".cursor/rules/") and base.endswith(".mdc"):
        return [_CURSOR]
    if base == "GEMINI.md":
        return [_GEMINI]
    return []


def codex_home_file(home: Path) -> str:
    """Codex's user-level AGENTS.md relative to ``home`` (``$CODEX_HOME`` when it is there)."""
    codex_home = os.environ.get("CODEX_HOME")
    if codex_home:
        try:
            return (Path(os.path.abspath(codex_home)) / "AGENTS.md").relative_to(home).as_posix()
        except ValueError:
            pass
    return ".codex/AGENTS.md"


def _user_files(home: Path) -> dict[str, tuple[Reader, ...]]:
    return {
        ".claude/CLAUDE.md": (_CLAUDE,),
        codex_home_file(home): (_CODEX,),
        ".gemini/GEMINI.md": (_GEMINI,),
        ".copilot/copilot-instructions.md": (_COPILOT,),
    }


#: The project files a sync with no target named keeps in step, when they already hold a block.
PROJECT_TARGETS = (
    "AGENTS.md",
    "CLAUDE.md",
    ".github/copilot-instructions.md",
    ".cursor/rules/oda-memory.mdc",
)


def user_targets(home: Path) -> tuple[str, ...]:
    """The user-level files (relative to ``home``) that ``--global`` keeps in step."""
    return tuple(_user_files(home))


def owned(name: str) -> bool:
    """True for a file the sync owns whole (Cursor's ``.mdc`` rules)."""
    return name.endswith(".mdc")
