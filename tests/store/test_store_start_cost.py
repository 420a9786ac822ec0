"""What a start pays for: a store in its own layout is read without the YAML library."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from store import GLOBAL, MemoryStore

# Opens the store in a fresh interpreter, reads every scope, and names the YAML modules loaded.
READ_AND_REPORT = """
import sys
from store import GLOBAL, MemoryStore
s = MemoryStore(sys.argv[1])
titles = sorted(m.title for scope in [GLOBAL, *s.workspaces()] for m in s.memories(scope))
print(titles)
print(sorted(m for m in sys.modules if m.split(".")[0] in ("yaml", "_yaml")))
"""


def test_a_store_in_its_own_layout_is_read_without_the_yaml_library(root: Path) -> None:
    s = MemoryStore(root)
    s.create(GLOBAL, "Reply language", "Reply in English.")
    s.create(GLOBAL, "It's: quoted", "A title the store writes between quotes.")
    s.create("proj", "Test runner", "Use pytest.")
    done = subprocess.run(
        [sys.executable, "-c", READ_AND_REPORT, str(root)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    titles, yaml_modules = done.stdout.splitlines()
    assert titles == str(sorted(["Reply language", "It's: quoted", "Test runner"]))
    assert yaml_modules == "[]"
