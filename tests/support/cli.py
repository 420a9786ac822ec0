"""Running ``oda-tui`` as a subprocess on a store a test builds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import termios
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from store import GLOBAL, MemoryStore


def unknown_id(memory_id: str, where: str, listing: str = "oda-tui list") -> str:
    """The command line's refusal of an id that is not there (words for a person, not a chat)."""
    return f'No memory has the id "{memory_id}" {where}; {listing} shows the ids.\n'


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


def run_cli_on_terminal(*args: str | Path, env: dict[str, str] | None = None) -> Result:
    """``run_cli`` with stdout on a pseudo-terminal (as a person at a shell sees it)."""
    environ = {k: v for k, v in os.environ.items() if k != "ODA_HOME"}
    environ.update(env or {})
    master, slave = os.openpty()
    # Output as written: no newline turned into CR LF on the way.
    attrs = termios.tcgetattr(slave)
    attrs[1] &= ~termios.OPOST
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    child = subprocess.Popen(
        [sys.executable, "-m", "oda_tui", *map(str, args)], stdout=slave, stderr=subprocess.PIPE, env=environ
    )
    os.close(slave)
    out = bytearray()
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the command ended and closed the terminal
            break
        if not data:
            break
        out += data
    os.close(master)
    err = child.stderr.read().decode("utf-8") if child.stderr else ""
    code = child.wait(timeout=60)
    assert "Traceback" not in err, err
    return Result(code, bytes(out), err)
