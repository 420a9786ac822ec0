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
from typing import Any

import anyio
import anyio.to_thread
from watchfiles import awatch

from .session import ChatSession

#: The app's watch intervals (oda_tui.watcher): a change is announced within about 50 ms.
DEBOUNCE_MS = 50
STEP_MS = 20
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
    """The 2025-era subscribers of the chat's memory: one ``notify`` callable per client."""

    def __init__(self) -> None:
        self._notify: dict[object, Callable[[], Awaitable[None]]] = {}

    def add(self, key: object, notify: Callable[[], Awaitable[None]]) -> None:
        """Tell ``key`` of every change from now on (subscribing twice is one subscription)."""
        self._notify[key] = notify

    def remove(self, key: object) -> None:
        """Stop telling ``key``."""
        self._notify.pop(key, None)

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


async def watch_memory(session: ChatSession, announce: Callable[[], Awaitable[None]]) -> None:
    """Watch the store's folder until cancelled; ``announce`` each change of the chat's text."""
    root = session.store.root
    last: Any = None
    while True:
        if not root.is_dir():
            await anyio.sleep(MISSING_ROOT_POLL_S)
            if root.is_dir():
                last = await _announce_if_changed(session, None, last, announce)
            continue
        if last is None:
            last = await anyio.to_thread.run_sync(_changed_text, session, None)
        try:
            async for changes in awatch(
                root, debounce=DEBOUNCE_MS, step=STEP_MS, ignore_permission_denied=True, raise_interrupt=False
            ):
                paths = {Path(path) for _change, path in changes}
                last = await _announce_if_changed(session, paths, last, announce)
        except (FileNotFoundError, RuntimeError, OSError):
            # The folder went away under the watch: wait for it to come back.
            await anyio.sleep(MISSING_ROOT_POLL_S)


async def _announce_if_changed(
    session: ChatSession, paths: set[Path] | None, last: Any, announce: Callable[[], Awaitable[None]]
) -> Any:
    try:
        text = await anyio.to_thread.run_sync(_changed_text, session, paths)
    except OSError:
        return last
    if text != last:
        await announce()
    return text
