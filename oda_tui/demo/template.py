"""The demo's sample as files: written in a few milliseconds at every ``--demo`` start.

``build_demo_store`` (``sample.py``) makes the sample through the store, change by change, as
a person and a chat would: about a hundred durable writes, which cost more than the app's own
start. Its result is kept in ``sample_tree.json`` beside this module, each file's bytes and
path as the store wrote them; a start writes those files into its new temporary folder with
every moment moved by the same amount, so the sample's memories, versions and deletion are as
recent, in the same order and as far apart as when the store wrote them.

``python -m oda_tui.demo.template`` makes ``sample_tree.json`` again from ``build_demo_store``
(a test says when the two differ).
"""

from __future__ import annotations

import base64
import json
import os
import re
import tempfile
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from store import format_moment, format_timestamp, parse_moment, parse_timestamp

#: The kept sample, beside this module.
TREE_FILE = Path(__file__).with_name("sample_tree.json")

#: A timestamp as the store writes it in a file (``format_timestamp``).
_TIMESTAMP = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")
#: A version name's moment (``format_moment``).
_MOMENT = re.compile(r"\d{8}T\d{9}Z")


def record(root: Path) -> dict[str, Any]:
    """The sample store at ``root`` as ``sample_tree.json`` keeps it: each regular file's path
    (relative, ``/``-separated) and bytes (text when UTF-8, else base64), and the newest
    moment in it. The lock and other dot files (the parse index) are not kept."""
    files: dict[str, dict[str, str]] = {}
    newest: datetime | None = None
    for folder, names, found in os.walk(root):
        names[:] = sorted(n for n in names if not n.startswith("."))
        for name in sorted(found):
            path = Path(folder) / name
            if name.startswith(".") or not path.is_file() or path.is_symlink():
                continue
            relative = path.relative_to(root).as_posix()
            data = path.read_bytes()
            for moment in _moments(relative, data):
                newest = moment if newest is None or moment > newest else newest
            try:
                files[relative] = {"text": data.decode("utf-8")}
            except UnicodeDecodeError:
                files[relative] = {"base64": base64.b64encode(data).decode("ascii")}
    if newest is None:
        raise ValueError(f"{root} holds no moment to move")
    return {"newest": format_timestamp(newest), "files": files}


def _moments(relative: str, data: bytes) -> list[datetime]:
    found = [parse_timestamp(m.group().decode("ascii")) for m in _TIMESTAMP.finditer(data)]
    found += [parse_moment(m.group()) for m in _MOMENT.finditer(relative)]
    return [m for m in found if m is not None]


def write_sample(root: Path, now: datetime, tree: dict[str, Any] | None = None) -> Path:
    """Write the kept sample into ``root`` (a new, empty folder's path: made here, with every
    folder in it), every moment moved so that the newest is ``now``; returns ``root``."""
    tree = tree if tree is not None else json.loads(TREE_FILE.read_text(encoding="utf-8"))
    newest = parse_timestamp(tree["newest"])
    if newest is None:
        raise ValueError("sample_tree.json names no newest moment")
    shift = now - newest
    os.makedirs(root, mode=0o700)
    made = {root}
    for relative, kept in tree["files"].items():
        data = kept["text"].encode("utf-8") if "text" in kept else base64.b64decode(kept["base64"])
        path = root / _MOMENT.sub(lambda m: _moved_moment(m.group(), shift), relative)
        if path.parent not in made:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            made.update(path.parents)
        moved = _TIMESTAMP.sub(lambda m: _moved_timestamp(m.group(), shift), data)
        # A new folder of the app's own: O_EXCL, and no link followed.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(moved)
    return root


def _moved_timestamp(found: bytes, shift: timedelta) -> bytes:
    moment = parse_timestamp(found.decode("ascii"))
    return found if moment is None else format_timestamp(moment + shift).encode("ascii")


def _moved_moment(found: str, shift: timedelta) -> str:
    moment = parse_moment(found)
    return found if moment is None else format_moment(moment + shift)


def main() -> None:
    """Make ``sample_tree.json`` again from ``build_demo_store``."""
    from .sample import build_demo_store

    with tempfile.TemporaryDirectory(prefix="oda-demo-record-") as tmp:
        tree = record(build_demo_store(Path(tmp) / "memory"))
    TREE_FILE.write_text(json.dumps(tree, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{TREE_FILE}: {len(tree['files'])} files, newest {tree['newest']}")


if __name__ == "__main__":
    main()
