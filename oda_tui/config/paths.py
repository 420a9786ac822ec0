"""Where the memory store lives when no folder is given."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

ENV_VAR = "ODA_HOME"


def default_root() -> Path:
    """Oda's own memory folder in the user's data directory."""
    return platformdirs.user_data_path("Oda", appauthor=False) / "memory"


def resolve_root(arg: str | None) -> Path:
    """The store root: the ``--root`` argument, else ``$ODA_HOME``, else the default folder."""
    if arg:
        return Path(arg).expanduser()
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    return default_root()


def root_problem(root: Path) -> str | None:
    """Why ``root`` cannot be opened as a store (it is not a folder, or cannot be read), else
    None; a root that does not exist is an empty store, not a problem."""
    if not root.exists():
        return None
    if not root.is_dir():
        return f"The store root {root} is not a folder."
    try:
        os.listdir(root)
    except OSError as exc:
        return f"The store root {root} cannot be read: {exc.strerror or exc}."
    return None
