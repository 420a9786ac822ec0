"""Where things live under the store root, and which names count as ids and keys."""

from __future__ import annotations

import os
import re
from pathlib import Path

from store.model import Scope

ID_RE = re.compile(r"[0-9a-f]{8}\Z")
KEY_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,254}\Z")
MEMORY_SUFFIX = ".md"

GLOBAL_DIR = "global"
WORKSPACES_DIR = "workspaces"
HISTORY_DIR = "history"
SETTINGS_FILE = "settings.yaml"
LOCK_FILE = ".lock"

# Editor droppings that are skipped without a word (vim's write test file is named 4913).
_SILENT_NAMES = {"4913"}
_SILENT_SUFFIXES = ("~", ".swp", ".swo", ".swx", ".tmp", ".bak", ".orig")


def is_valid_id(name: str) -> bool:
    """True for exactly eight characters of 0-9 and a-f."""
    return ID_RE.match(name) is not None


def is_valid_key(key: str) -> bool:
    """True for a workspace key: ASCII letters, digits, . _ -, starting with a letter or digit."""
    return KEY_RE.match(key) is not None


def is_silent_name(name: str) -> bool:
    """Dotfiles and editor temp files, skipped without being listed."""
    return name.startswith(".") or name in _SILENT_NAMES or name.endswith(_SILENT_SUFFIXES)


def memory_id_of(name: str) -> str | None:
    """The id a file name stands for, or None when it is not ``<id>.md``."""
    if len(name) == 11 and name.endswith(MEMORY_SUFFIX) and is_valid_id(name[:8]):
        return name[:8]
    return None


def scope_dir(root: Path, scope: Scope) -> Path:
    """The folder that holds a scope's memory files."""
    return root / GLOBAL_DIR if scope is None else root / WORKSPACES_DIR / scope


def memory_path(root: Path, scope: Scope, memory_id: str) -> Path:
    """The file of one memory."""
    return scope_dir(root, scope) / f"{memory_id}{MEMORY_SUFFIX}"


def history_dir(root: Path, scope: Scope, memory_id: str) -> Path:
    """The history folder of one memory: its versions and any deletion record."""
    part = GLOBAL_DIR if scope is None else os.path.join(WORKSPACES_DIR, scope)
    return root / HISTORY_DIR / part / memory_id


def history_scope_dir(root: Path, scope: Scope) -> Path:
    """The history folder of a whole scope."""
    return root / HISTORY_DIR / (GLOBAL_DIR if scope is None else os.path.join(WORKSPACES_DIR, scope))


def make_dirs(path: Path) -> None:
    """Create a folder and its missing parents, each private (0700)."""
    missing = []
    p = path
    while not p.exists():
        missing.append(p)
        if p.parent == p:
            break
        p = p.parent
    for d in reversed(missing):
        try:
            os.mkdir(d, 0o700)
        except FileExistsError:
            pass


def is_inside(root: Path, path: Path) -> bool:
    """True when ``path`` resolves to a place under ``root`` (links followed)."""
    try:
        real = Path(os.path.realpath(path))
    except (OSError, ValueError):
        return False
    real_root = Path(os.path.realpath(root))
    return real == real_root or real_root in real.parents
