"""The chat's memory as an MCP resource, and telling subscribed clients when it changes.

The resource is exactly the text a chat receives (``chat_memory``). A watch on the store's
folders (``folder_watch``, as the app watches them) re-reads what changed; when the chat's
revision differs from what was last announced, every subscriber gets ``resources/updated``: the
2025 clients that called ``resources/subscribe``, and the 2026 ones listening on
``subscriptions/listen``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio
import anyio.to_thread

from ..session.folder_watch import WATCHING, watch_store
from .session import ChatSession

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


def _revision_now(session: ChatSession, paths: set[Path] | None) -> str:
    """Re-read ``paths`` (the chat's sets when None: the watch's first look, which loads them
    if no tool call has yet, as they are once the watch is in place) and return the revision
    of what the chat receives now.

    The first look brings the chat up to date as a tool call does (its change feed followed
    before it loads, so the next call reads only what changed since). A revision names
    exactly what the chat receives, so comparing revisions tells a change without building its
    text (tens of thousands of characters, after every write this server makes)."""
    if paths is None:
        session.refresh()
    else:
        session.store.refresh(paths)
    with session.lock:  # the session's current memory is one tool call's at a time
        return session.chat_revision()


async def watch_memory(
    session: ChatSession, announce: Callable[[], Awaitable[None]], ready: anyio.Event
) -> None:
    """Watch the store's folders until cancelled; ``announce`` each change of the chat's text.

    ``ready`` is set once the watch is in place (or there is no folder to watch yet): from then
    on no change is missed. What the chat received before that is the starting point.
    """
    stop = threading.Event()
    batches = watch_store(session.store.root, stop)
    last: str | None = None
    try:
        while True:
            # Each batch is waited for in a thread; a cancelled wait ends with ``stop``.
            batch = await anyio.to_thread.run_sync(next, batches, abandon_on_cancel=True)
            if batch is WATCHING:  # (re)made: compare everything once
                last = await _announce_if_changed(session, None, last, announce)
                ready.set()
            elif batch:
                last = await _announce_if_changed(session, batch, last, announce)
    finally:
        stop.set()


async def _announce_if_changed(
    session: ChatSession, paths: set[Path] | None, last: str | None, announce: Callable[[], Awaitable[None]]
) -> str | None:
    """The chat's revision now; ``announce`` when it differs from ``last`` (None: nothing
    known yet)."""
    try:
        revision = await anyio.to_thread.run_sync(_revision_now, session, paths)
    except OSError:
        return last
    if last is not None and revision != last:
        await announce()
    return revision
