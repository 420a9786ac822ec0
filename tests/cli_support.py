"""Running ``oda-tui`` as a subprocess on a store a test builds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from store import GLOBAL, MemoryStore

UNKNOWN_ID = (
    'No memory with the id "{id}" exists in this chat\'s memory. Call memory_list for the current ids.\n'
)


@dataclass
class Result:
    """What one run printed, as bytes and as text, and its exit code."""

    code: int
    out_bytes: bytes
    err: str

    @property
    def out(self) -> str:
        return self.out_bytes.decode("utf-8")

    def json(self) -> Any:
        return json.loads(self.out_bytes)


def run_cli(*args: str | Path, env: dict[str, str] | None = None, home: Path | None = None) -> Result:
    """``python -m oda_tui ARGS`` with no ``ODA_HOME`` (unless given) and a private home folder."""
    environ = {k: v for k, v in os.environ.items() if k != "ODA_HOME"}
    if home is not None:
        environ.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"))
    environ.update(env or {})
    done = subprocess.run(
        [sys.executable, "-m", "oda_tui", *map(str, args)],
        capture_output=True,
        env=environ,
        timeout=60,
        check=False,
    )
    err = done.stderr.decode("utf-8")
    assert "Traceback" not in err, err
    return Result(done.returncode, done.stdout, err)


@dataclass
class Sample:
    """A store with two global memories (one off, saved by the agent) and one in workspace proj."""

    root: Path
    reply: str
    agent: str
    proj: str


def build_sample(root: Path) -> Sample:
    """Build the sample store through the store's own API."""
    s = MemoryStore(root)
    reply = s.create(GLOBAL, "Reply language", "Reply in short bullet points.").id
    agent = s.create(GLOBAL, "Uses \x1b[31muv", "# Heading\n\n```sh\nuv add\n```", source="ai", via="chat").id
    s.set_enabled(GLOBAL, agent, False)
    proj = s.create("proj", "Test runner", "Use pytest.", via="chat").id
    s.change("proj", proj, text="Use pytest -q.", via="chat")
    return Sample(root, reply, agent, proj)
