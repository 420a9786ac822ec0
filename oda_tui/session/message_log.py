"""Every notice the app showed, kept while it runs: the message log (``M``) lists them, newest
first, after their toasts have gone (the keymap's and the themes' notices at start cover the
list for ten seconds, and one may go before it is read)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from datetime import datetime
from typing import NamedTuple

#: Notices kept; the oldest go first.
KEPT = 500


class Notice(NamedTuple):
    """One notice as it was shown."""

    at: datetime
    severity: str
    """``information``, ``warning`` or ``error``."""
    title: str
    message: str


class MessageLog:
    """The notices so far, at most ``KEPT``."""

    def __init__(self) -> None:
        self._notices: deque[Notice] = deque(maxlen=KEPT)

    def add(self, severity: str, title: str, message: str) -> None:
        """Keep a notice, at the time it is shown."""
        self._notices.append(Notice(datetime.now(), severity, title, message))

    def newest_first(self) -> Iterator[Notice]:
        """The notices kept, the newest first."""
        return reversed(self._notices)

    def __len__(self) -> int:
        return len(self._notices)
