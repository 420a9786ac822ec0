"""Watching the store's folders (``folder_watch``), batching changed paths for one repaint per
burst.

A change shows at once (the leading edge): the first batch is applied as soon as watchfiles
hands it over. Only a batch that looks like a burst (a git checkout, a sync) waits for quiet,
so its later batches join it in one repaint. Batches that arrive while a refresh is running
wait in the watcher and are taken, all together, by one refresh right after it.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from textual.message import Message
from textual.message_pump import MessagePump

from .folder_watch import WATCHING, watch_store

#: A refresh that took more than ``BURST_PATHS`` paths is a burst: it waits for
#: ``BURST_SETTLE_S`` of quiet (its batches arrive one debounce apart) and paints once.
#: A refresh of fewer paths (a save or two) paints at once, without waiting.
BURST_SETTLE_S = 0.25
BURST_PATHS = 16


class FilesChanged(Message):
    """Something under the root changed; the paths wait in the watcher until taken.

    Carries no data, so any number of pending ones collapse into one.
    """

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, FilesChanged)


class DiskWatcher:
    """Collects changed paths under ``root`` and tells ``target`` about them."""

    def __init__(self, root: Path, target: MessagePump) -> None:
        self.root = root
        self.target = target
        self._pending: set[Path] = set()
        self._everything = False
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._last_event = 0.0
        self.batches = 0
        #: Set once the first watch is in place: from then on no change is missed.
        self.watching = threading.Event()

    def run(self) -> None:
        """Watch until stopped; run it in a thread worker."""
        for batch in watch_store(self.root, self._stop):
            if batch is WATCHING:
                # Changes made before the watch was in place were not seen: compare all once.
                self._add(set(), everything=True)
                self.watching.set()
            else:
                self._add(batch)

    def _add(self, paths: set[Path], *, everything: bool = False) -> None:
        with self._lock:
            self._pending |= paths
            self._everything |= everything
            self._last_event = time.monotonic()
            self.batches += 1
        self.target.post_message(FilesChanged())

    def take(self) -> set[Path] | None:
        """Every path changed since the last call; None when everything must be compared."""
        with self._lock:
            paths, self._pending = self._pending, set()
            everything, self._everything = self._everything, False
        return None if everything else paths

    @property
    def has_pending(self) -> bool:
        """True when changed paths (or a comparison of everything) wait to be taken."""
        with self._lock:
            return bool(self._pending) or self._everything

    def settle_time(self, batch_size: int) -> float:
        """How long a refresh should wait for quiet after taking ``batch_size`` paths: none
        for a save or two (they show at once), ``BURST_SETTLE_S`` for a burst."""
        return BURST_SETTLE_S if batch_size > BURST_PATHS else 0.0

    def quiet_for(self) -> float:
        """Seconds since the last change arrived."""
        with self._lock:
            return time.monotonic() - self._last_event

    def stop(self) -> None:
        """Stop watching; ``run`` returns within a step."""
        self._stop.set()
