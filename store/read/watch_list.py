"""Which folders a watcher of the store should watch, each on its own, never through a link.

A recursive watch follows links: one link to ``/`` inside the store would have the watcher
walk the whole file system. The store reads only the root, ``global/``, ``workspaces/`` and
each workspace folder in it, so those are what is watched, one folder each, found the way the
store reads them (each reached from its parent without following a link).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from store.disk.layout import GLOBAL_DIR, WORKSPACES_DIR
from store.disk.safe_io import Unsafe, folder, relative_parts
from store.read.scan import list_workspaces


def folders_to_watch(root: Path) -> list[Path]:
    """The root, ``global/``, ``workspaces/`` and every workspace folder that is a real
    folder (no link, at any depth); empty when the root is not a folder."""
    root = Path(os.path.abspath(root))
    if not root.is_dir():
        return []
    found = [root]
    for name in (GLOBAL_DIR, WORKSPACES_DIR):
        path = root / name
        try:
            with folder(root, path) as fd:
                found.append(path)
                if name == WORKSPACES_DIR:
                    workspaces, _ignored = list_workspaces(root, path, fd)
                    found.extend(folder_path for _key, folder_path in workspaces)
        except (Unsafe, OSError):
            continue  # missing, a link or not a folder: nothing there is read, nothing watched
    return found


def changes_folders(root: Path, paths: Iterable[Path | str]) -> bool:
    """True when one of ``paths`` may have added, removed or replaced a watched folder (the
    root, ``global``, ``workspaces`` or a workspace folder): the watch must be made again."""
    base = Path(os.path.abspath(root))
    for path in paths:
        try:
            parts = relative_parts(base, os.path.abspath(path))
        except Unsafe:
            continue
        if not parts or parts == (GLOBAL_DIR,) or (parts[0] == WORKSPACES_DIR and len(parts) <= 2):
            return True
    return False
