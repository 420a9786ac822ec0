"""The chat's memory as an MCP resource, and telling subscribed clients when it changes.

The resource is exactly the text a chat receives (``chat_memory``). A watch on the store's
folder (watchfiles, with the app's batching intervals) re-reads what changed; when the chat's
text differs from what was last announced, every subscriber gets ``resources/updated``: the
2025 clients that called ``resources/subscribe``, and the 2026 ones listening on
``subscriptions/listen``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio
import anyio.to_thread
from watchfiles import awatch

from .session import ChatSession

#: The app's watch intervals (oda_tui.watcher): a change is announced within about 50 ms.
DEBOUNCE_MS = 50
STEP_MS = 20
#: Milliseconds the watch waits for a change before it reports in (the first report says the
#: watch is in place; later quiet reports are skipped).
READY_MS = 100
#: Seconds between looks for a folder that does not exist (yet).
MISSING_ROOT_POLL_S = 0.25

MIME_TYPE = "text/markdown"

log = logging.getLogger(__name__)


def resource_uri(workspace: str | None) -> str:
    """The chat's memory: ``oda://memory/global``, or ``oda://memory/workspaces/KEY``."""
    return "oda://memory/global" if workspace is None else f"oda://memory/workspaces/{workspace}"


def resource_text(session: ChatSession) -> str:
    """Exactly what the chat receives now (re-read from the disk)."""
    if session.check_root(writing=False):
        session.refresh()
    return session.store.chat_memory(session.workspace).text


class Subscribers:
    """A connection's 2025-era subscriptions: one ``notify`` callable per resource URI."""

    def __init__(self) -> None:
        self._notify: dict[str, Callable[[], Awaitable[None]]] = {}

    def add(self, uri: str, notify: Callable[[], Awaitable[None]]) -> None:
        """Call ``notify`` on every change from now on (subscribing twice is one subscription)."""
        self._notify[uri] = notify

    def remove(self, uri: str) -> None:
        """Stop telling of ``uri``."""
        self._notify.pop(uri, None)

    def __len__(self) -> int:
        return len(self._notify)

    async def tell_all(self) -> None:
        """Send ``resources/updated`` to each; a client that has gone away is dropped."""
        for key, notify in list(self._notify.items()):
            try:
                await notify()
            except Exception:  # a closed connection: it no longer listens
                log.debug("dropping a subscriber that could not be told", exc_info=True)
                self._notify.pop(key, None)


def _changed_text(session: ChatSession, paths: set[Path] | None) -> str:
    """Re-read ``paths`` (everything when None) and return the chat's text."""
    session.store.refresh(paths)
    return session.store.chat_memory(session.workspace).text


async def watch_memory(
    session: ChatSession, announce: Callable[[], Awaitable[None]], ready: anyio.Event
) -> None:
    """Watch the store's folder until cancelled; ``announce`` each change of the chat's text.

    ``ready`` is set once the watch is in place (or there is no folder to watch yet): from then
    on no change is missed. What the chat received before that is the starting point.
    """
    root = session.store.root
    last: str | None = None
    while True:
        if not root.is_dir():
            last = "" if last is None else last  # no folder, no memories
            ready.set()
            await anyio.sleep(MISSING_ROOT_POLL_S)
            continue
        watching = False
        try:
            async for changes in awatch(
                root,
                debounce=DEBOUNCE_MS,
                step=STEP_MS,
                rust_timeout=READY_MS,
                yield_on_timeout=True,
                ignore_permission_denied=True,
            ):
                if not watching:  # the first answer: the watch is in place, compare all once
                    watching = True
                    last = await _announce_if_changed(session, None, last, announce)
                    ready.set()
                elif changes:
                    paths = {Path(path) for _change, path in changes}
                    last = await _announce_if_changed(session, paths, last, announce)
        except (FileNotFoundError, RuntimeError, OSError):
            # The folder went away under the watch (or cannot be watched): look again soon.
            ready.set()
            await anyio.sleep(MISSING_ROOT_POLL_S)


async def _announce_if_changed(
    session: ChatSession, paths: set[Path] | None, last: str | None, announce: Callable[[], Awaitable[None]]
) -> str | None:
    """The chat's text now; ``announce`` when it differs from ``last`` (None: nothing known yet)."""
    try:
        text = await anyio.to_thread.run_sync(_changed_text, session, paths)
    except OSError:
        return last
    if last is not None and text != last:
        await announce()
    return text
