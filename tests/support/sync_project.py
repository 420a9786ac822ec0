"""A project folder and the block sync writes into it, for the sync tests."""

from __future__ import annotations

from pathlib import Path

from store.exchange.sync_content import MemorySet
from store.exchange.sync_targets import SyncOptions, SyncReport, sync_files

#: A block's content as sync writes it for two memories.
CONTENT = "# Memory\n\n## Use uv\n\nAlways use uv.\n"
LATER = "# Memory\n\n## Use uv\n\nAlways use uv, never pip.\n"
WEB = MemorySet("web")
FOUR = ["AGENTS.md", "CLAUDE.md", ".github/copilot-instructions.md", ".cursor/rules/oda-memory.mdc"]


def sync_web(
    project: Path, names: list[str], content: str = CONTENT, memories: MemorySet = WEB, **options: bool
) -> SyncReport:
    """``sync_files`` of ``content`` into ``names`` as workspace web's (or ``memories``)."""
    return sync_files(project, names, content, memories, SyncOptions(**options))  # type: ignore[arg-type]


def files(folder: Path) -> dict[str, bytes | str]:
    """Every entry under ``folder``: a file's bytes, a link's target, ``"folder"``."""
    found: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_symlink():
            found[rel] = f"-> {path.readlink()}"
        elif path.is_dir():
            found[rel] = "folder"
        else:
            found[rel] = path.read_bytes()
    return found


def rename_save(path: Path, text: str) -> None:
    """Save ``text`` at ``path`` as an editor does: a new file renamed over the old one."""
    temp = path.with_name(path.name + ".editor-tmp")
    temp.write_text(text)
    temp.rename(path)
