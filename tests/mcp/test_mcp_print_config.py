"""``oda-tui mcp --print-config``: the JSON a client needs, started exactly as a client would."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

from oda_tui.mcp.client_config import SERVER_NAME, installed_command
from store import MemoryStore
from tests.support.mcp import ok
from tests.support.mcp_wire import HANG_GUARD_S


def printed(*args: str) -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, "-m", "oda_tui", "mcp", "--print-config", *args],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_S,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 0 and result.stderr == "", result.stderr
    config = json.loads(result.stdout)
    assert isinstance(config, dict)
    return config


def test_the_config_names_the_installed_executable_and_the_folder_in_full(tmp_path: Path) -> None:
    config = printed("--root", str(tmp_path / "oda"), "--workspace", "proj")
    [server] = config["mcpServers"].values()
    command = Path(server["command"])
    assert command.is_absolute() and command.is_file()
    assert server["command"] == installed_command()[0]
    assert server["args"][-5:] == ["mcp", "--root", str(tmp_path / "oda"), "--workspace", "proj"]
    assert list(config["mcpServers"]) == [SERVER_NAME]
    # No workspace: a chat outside workspaces (Global only).
    [bare] = printed("--root", str(tmp_path / "oda"))["mcpServers"].values()
    assert "--workspace" not in bare["args"]


async def test_a_client_starts_the_server_from_the_printed_config(tmp_path: Path, root: Path) -> None:
    root.mkdir()
    mine = MemoryStore(root).create("proj", "Stack", "Django.")
    [server] = printed("--root", str(root), "--workspace", "proj")["mcpServers"].values()
    assert "env" not in server
    # As a client does: that command and those args, in the SDK's bare environment (no
    # ODA_HOME), with a desktop app's PATH (no virtual environment on it), from another folder.
    params = StdioServerParameters(
        command=server["command"], args=server["args"], env={"PATH": "/usr/bin:/bin"}, cwd=str(tmp_path)
    )
    async with Client(params) as client:
        listed = ok(await client.call_tool("memory_list", {}))
    assert [m["id"] for m in listed["memories"]] == [mine.id]
