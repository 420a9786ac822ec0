"""Following a store's folders on disk, never through a link (no Textual: the app and the MCP
server both use it).

Each folder the store reads (``store.folders_to_watch``) is watched on its own, without
recursion: a recursive watch follows links, and one link to ``/`` inside the store would
have it walk the whole file system. When a watched folder appears, goes or is replaced, the
watch is made again. Every time a watch is (re)made, ``WATCHING`` is yielded first: changes
made before that moment were not seen, so the caller compares everything once.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from store import changes_folders, folders_to_watch

#: Milliseconds changes are grouped over (watchfiles' default of 1.6 s is far too slow).
DEBOUNCE_MS = 50
#: Milliseconds of quiet after which a group of changes is handed over.
STEP_MS = 20
#: Seconds between looks for a root that is not a folder (yet).
MISSING_ROOT_POLL_S = 0.25

#: Yielded each time the watch is in place: compare everything once.
WATCHING: Final = None


def _force_polling() -> bool:
    # watchfiles' own switch, for file systems without change events (some network mounts).
    return os.environ.get("WATCHFILES_FORCE_POLLING", "").lower() not in ("", "0", "false", "no")


def watch_store(root: Path, stop: threading.Event) -> Iterator[set[Path] | None]:
    """Changed paths under ``root`` (a set per batch) until ``stop`` is set; ``WATCHING``
    (None) each time the watch is in place. Blocks between batches: run it in a thread."""
    # watchfiles' private notifier, not its public ``watch()``: that makes its notifier inside the
    # generator and returns only with the first changes (or a timeout, polled), so it cannot say
    # when the watch is in place, which is what WATCHING promises (nothing after it is missed).
    # The name and its arguments are those of watchfiles 0.21 to 1.3, the range pyproject.toml
    # allows. Imported by the thread, off the first frame.
    from watchfiles._rust_notify import RustNotify

    root = Path(os.path.abspath(root))
    missing_told = False
    while not stop.is_set():
        folders = folders_to_watch(root)
        if not folders:
            if not missing_told:  # no folder, nothing in it: that much is seen, once
                missing_told = True
                yield WATCHING
            stop.wait(MISSING_ROOT_POLL_S)
            continue
        missing_told = False
        try:
            with RustNotify([str(f) for f in folders], False, _force_polling(), 300, False, True) as notify:
                yield WATCHING
                while True:
                    raw = notify.watch(DEBOUNCE_MS, STEP_MS, 0, stop)
                    if raw in ("stop", "signal"):
                        return
                    if raw == "timeout" or isinstance(raw, str):
                        continue
                    paths = {Path(path) for _change, path in raw}
                    yield paths
                    if changes_folders(root, paths):
                        break  # a watched folder came or went: watch the folders as they are now
        except (FileNotFoundError, RuntimeError, OSError):
            # A folder went away while the watch was being made: look again soon.
            stop.wait(MISSING_ROOT_POLL_S)
