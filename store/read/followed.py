"""Sets kept up to date by a feed of change events instead of a look at each of their files.

A caller that already follows the disk (the kernel's change events: an MCP server watching
its chat's sets) hands the store its feed. ``catch_up`` reads again what the feed names, or
looks at the sets whole when the feed cannot say (its first call, events lost to a full
queue, a set's folder made or replaced). The kernel queues an event the moment a change is
made, so once caught up the picture of those sets holds every change saved before the call:
reads answer from it, and a change's budget check under the lock takes those sets' sums from
it instead of a stat of each of their files. The file a change writes is still read as it is
now, under the lock.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from store.model import Scope


class ChangeFeed(Protocol):
    """Names the files changed in some sets since it was last asked."""

    def changes(self) -> set[Path] | None:
        """The files changed since the last call, or None: look at the sets whole (a first
        call arms the feed, so what changes after it is named by the next call)."""

    def close(self) -> None:
        """Stop following the disk."""


@dataclass(frozen=True)
class Followed:
    """The sets a feed follows, and the feed."""

    scopes: frozenset[Scope]
    feed: ChangeFeed
