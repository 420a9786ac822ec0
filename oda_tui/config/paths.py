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
