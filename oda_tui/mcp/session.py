"""One MCP session's state: which chat it is, its id, and the revisions memory_read sent.

Over stdio one ``oda-tui mcp`` process serves one client, so a session lasts as long as that
connection; the server's lifespan makes a fresh ``ChatSession`` for each connection it serves.
A client may hold many conversations on one connection: memory_read keeps no "last read" per
conversation; each answer names its revision and the caller says which one it holds.
"""

from __future__ import annotations

import os
import threading
import uuid
from dataclasses import dataclass, field

from store import ChatMemory, MemoryStore, Scope

from . import messages as msg
from .chat_feed import ChatFeed
from .revisions import CurrentMemory, SentRevisions


class RootProblem(Exception):
    """The store's folder cannot be used; ``str(err)`` says why."""


@dataclass
class ChatSession:
    """The chat this MCP session is: its store, its workspace (None: Global only) and its id.

    ``sent`` holds what memory_read sent, by revision (shared by the server's connections), so
    that a later ``memory_read(since=...)`` answers with a change note.
    """

    store: MemoryStore
    workspace: str | None
    root_named: bool = True  # the folder was named (--root, $ODA_HOME): it must exist
    session_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    sent: SentRevisions = field(default_factory=SentRevisions)
    _current: CurrentMemory = field(default_factory=CurrentMemory)
    _feed: ChatFeed | None = None
    _refreshing: threading.Lock = field(default_factory=threading.Lock)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def save_scope(self) -> Scope:
        """Where memory_save puts a new memory: the chat's workspace, else Global."""
        return self.workspace

    @property
    def scopes(self) -> list[Scope]:
        """The sets this chat receives, in the order it receives them."""
        return [None] if self.workspace is None else [None, self.workspace]

    def check_root(self, *, writing: bool) -> bool:
        """Refuse a folder that cannot hold the memories; False when a read has nothing to read.

        A folder someone named must exist (a typo would otherwise start a new store there);
        Oda's own default folder may not exist yet on a fresh install: reads see no memories
        and the first save creates it.
        """
        root = self.store.root
        if not os.path.lexists(root):
            if self.root_named:
                raise RootProblem(msg.ROOT_MISSING.format(root=root))
            return writing  # a read finds nothing to read; a save goes ahead and creates it
        if not root.is_dir():
            raise RootProblem(msg.ROOT_NOT_FOLDER.format(root=root))
        try:
            os.listdir(root)
        except OSError as exc:
            raise RootProblem(msg.ROOT_UNREADABLE.format(root=root, reason=exc.strerror or exc)) from exc
        return True

    def refresh(self) -> None:
        """Bring this chat's sets up to date with the disk before a tool answers.

        The files the kernel says changed since the last call are read again (a change saved
        a moment before the call is already queued); when it cannot say, a pass over Global and
        the chat's workspace (a stat per file of those, none of any other workspace).
        """
        # One caller at a time (a tool call and a resource read may come together): events
        # taken from the feed are read into the picture before another caller answers.
        with self._refreshing:
            if self._feed is None:
                self._feed = ChatFeed(self.store.root, self.scopes)
            changed = self._feed.changes()
            if changed is None:
                self.store.refresh_scopes(self.scopes)
            elif changed:
                self.store.refresh(changed)

    def close(self) -> None:
        """Stop following the disk (the session is over)."""
        with self._refreshing:
            if self._feed is not None:
                self._feed.close()

    def chat_now(self) -> tuple[ChatMemory, str]:
        """What the chat receives now (as last refreshed) and its revision."""
        store = self.store
        memories = [m for scope in self.scopes for m in store.memories(scope)]
        return self._current.get(memories, lambda: store.chat_memory(self.workspace))
