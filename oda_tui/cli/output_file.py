"""Where ``-o FILE`` writes: a new or existing regular file, never anything else.

A device, FIFO, socket or folder is refused and left as it is. A link is written through to
its target when that is a regular file (as ``cp`` and shells do), so the link stays a link;
a link to anything else, or to nothing, is refused.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from store import write_atomic

from .errors import CommandError

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
)


def regular_target(path: Path) -> Path:
    """The regular file ``path`` names (a link's final target), or ``path`` when nothing is
    there yet; anything that is not a regular file is refused in one line."""
    try:
        mode = os.stat(path).st_mode  # follows links to the end
    except FileNotFoundError:
        if os.path.islink(path):
            raise CommandError(
                f"Could not write {path}: it is a link to {os.readlink(path)}, which does not exist."
            ) from None
        return path
    except OSError as exc:
        raise CommandError(f"Could not write {path}: {exc.strerror or exc}.") from exc
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in _KINDS if test(mode)), "not a file")
        via = "it leads to" if os.path.islink(path) else "it is"
        raise CommandError(f"Could not write {path}: {via} {kind}, not a regular file.")
    return Path(os.path.realpath(path))


def write_file(path: Path, text: str) -> None:
    """Replace the regular file ``path`` names with ``text`` (UTF-8) all at once."""
    target = regular_target(path)
    if not target.parent.is_dir():
        raise CommandError(f"Could not write {path}: the folder {target.parent} does not exist.")
    try:
        write_atomic(target, text.encode("utf-8"))
    except OSError as exc:
        raise CommandError(f"Could not write {path}: {exc.strerror or exc}.") from exc
