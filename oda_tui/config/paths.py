"""Where things live: the memory store when no folder is given, the person's config folder
and the app's state folder (nothing here imports Textual: the demo and the CLI use it early)."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

ENV_VAR = "ODA_HOME"
CONFIG_ENV = "ODA_TUI_CONFIG"
STATE_ENV = "ODA_TUI_STATE"


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


def config_dir() -> Path:
    """The person's config folder for oda-tui (``$ODA_TUI_CONFIG`` overrides it)."""
    env = os.environ.get(CONFIG_ENV)
    if env:
        return Path(env).expanduser()
    return platformdirs.user_config_path("oda-tui", appauthor=False)


def state_dir() -> Path:
    """The app's state folder: ``$ODA_TUI_STATE``, else the platform's user state folder."""
    env = os.environ.get(STATE_ENV)
    if env:
        return Path(env).expanduser()
    return platformdirs.user_state_path("oda-tui", appauthor=False)
