"""The demo's temporary folder: marked with the pid of the app that owns it, and swept away
by the next demo when that app was killed before it could remove it.

It lives in ``$TMPDIR`` when that is set, else in memory (``/dev/shm``) where there is one: the
sample store is thrown away when the app ends, and there its writes cost no disk syncs (on a
disk they are most of the time it takes to build).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from store import read_config_file

PREFIX = "oda-demo-"
OWNER_FILE = ".owner-pid"
#: A pid and a newline.
OWNER_MAX_BYTES = 32


#: A folder in memory, used when ``$TMPDIR`` does not say where temporary files go.
IN_MEMORY = Path("/dev/shm")


def demo_bases() -> list[Path]:
    """Where demo folders are made (the first) and swept (all)."""
    if os.environ.get("TMPDIR"):
        return [Path(tempfile.gettempdir())]
    bases = [IN_MEMORY] if IN_MEMORY.is_dir() and os.access(IN_MEMORY, os.W_OK | os.X_OK) else []
    return [*bases, Path(tempfile.gettempdir())]


def new_demo_folder(base: Path | None = None) -> Path:
    """A new private temporary folder for one demo run, marked as this process's."""
    folder = Path(tempfile.mkdtemp(prefix=PREFIX, dir=base or demo_bases()[0]))
    (folder / OWNER_FILE).write_text(f"{os.getpid()}\n")
    return folder


def remove_demo_folder(folder: Path) -> None:
    """Remove a demo folder, its owner mark last.

    A removal cut short (the terminal closed while quitting) leaves the mark in place, so the
    next demo still knows the folder for a demo's and sweeps what is left.
    """
    try:
        entries = list(folder.iterdir())
    except OSError:
        entries = []
    for entry in entries:
        if entry.name != OWNER_FILE:
            _remove(entry)
    _remove(folder / OWNER_FILE)
    shutil.rmtree(folder, ignore_errors=True)


def _remove(path: Path) -> None:
    try:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
    except OSError:
        pass


def sweep_stale_demo_folders(base: Path | None = None) -> list[Path]:
    """Remove the demo folders whose app is gone; returns what was removed.

    Only a folder named like a demo's, owned by this user and marked with the pid of a
    process that no longer runs is removed: anything else is left as it is.
    """
    removed: list[Path] = []
    for folder in [f for b in ([base] if base else demo_bases()) for f in b.glob(PREFIX + "*")]:
        try:
            if folder.is_symlink() or folder.stat().st_uid != os.getuid():
                continue
            raw = read_config_file(folder / OWNER_FILE, OWNER_MAX_BYTES, follow_links=False)
            pid = int((raw or b"").decode("ascii").strip())
        except (OSError, ValueError):  # FileRefused and UnicodeDecodeError are ValueErrors
            continue
        if pid != os.getpid() and not _running(pid):
            remove_demo_folder(folder)
            removed.append(folder)
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: it runs
        return True
    return True
