"""``oda-tui mcp --print-config``: the JSON an MCP client needs to start this server.

Clients start the server without a shell's PATH (desktop apps) or outside the virtual
environment it was installed in, so the command is the absolute path of the installed
``oda-tui`` (or this Python running ``-m oda_tui`` when there is no such script), and the
memory folder is named in full.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

#: The name the README gives the server in a client's configuration.
SERVER_NAME = "oda-memory"


def installed_command() -> list[str]:
    """How to start ``oda-tui`` from anywhere: the script beside this Python, else ``-m``."""
    folder = Path(sys.executable).parent
    for name in ("oda-tui", "oda-tui.exe"):
        script = folder / name
        if script.is_file() and os.access(script, os.X_OK):
            return [os.path.abspath(script)]
    return [os.path.abspath(sys.executable), "-m", "oda_tui"]


def client_config(root: Path, workspace: str | None) -> dict[str, Any]:
    """The ``mcpServers`` JSON for a chat in ``workspace`` (None: Global only) on ``root``."""
    command, *head = installed_command()
    args = [*head, "mcp", "--root", os.path.abspath(root)]
    if workspace is not None:
        args += ["--workspace", workspace]
    return {"mcpServers": {SERVER_NAME: {"command": command, "args": args}}}


def config_text(root: Path, workspace: str | None) -> str:
    """``client_config`` as the lines to paste."""
    return json.dumps(client_config(root, workspace), indent=2, ensure_ascii=False) + "\n"
