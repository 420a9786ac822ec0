"""One MCP session's state: which chat it is, its id, and the revisions memory_read sent.

Over stdio one ``oda-tui mcp`` process serves one client, so a session lasts as long as that
connection; the server's lifespan makes a fresh ``ChatSession`` for each connection it serves.
A client may hold many conversations on one connection: memory_read keeps no "last read" per
conversation; each answer names its revision and the caller says which one it holds.
"""

from __future__ import annotations

import errno
import os
import threading
import uuid
from dataclasses import dataclass, field

from store import ChatMemory, Haystacks, MemoryStore, Scope

from . import messages as msg
from .chat_feed import ChatFeed
from .revisions import CurrentMemory, SentRevisions, held_with_own_write, revision_of


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
    haystacks: Haystacks = field(default_factory=Haystacks)  # memory_list's query, casefolded once
    _current: CurrentMemory = field(default_factory=CurrentMemory)
    _following: bool = False
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
        try:
            # One open says it is there, a folder, and readable (a listing of it is not needed).
            fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except (FileNotFoundError, NotADirectoryError) as exc:
            if os.path.lexists(root):
                raise RootProblem(msg.ROOT_NOT_FOLDER.format(root=root)) from exc
            if self.root_named:
                raise RootProblem(msg.ROOT_MISSING.format(root=root)) from exc
            return writing  # a read finds nothing to read; a save goes ahead and creates it
        except OSError as exc:
            if exc.errno == errno.ELOOP:  # a link that leads nowhere, or to itself
                raise RootProblem(msg.ROOT_NOT_FOLDER.format(root=root)) from exc
            raise RootProblem(msg.ROOT_UNREADABLE.format(root=root, reason=exc.strerror or exc)) from exc
        os.close(fd)
        return True

    def refresh(self) -> None:
        """Bring this chat's sets up to date with the disk before a tool answers.

        The files the kernel says changed since the last call are read again (a change saved
        a moment before the call is already queued); when it cannot say, a pass over Global and
        the chat's workspace (a stat per file of those, none of any other workspace). The store
        follows the same feed, so a change's budget check trusts these sets once caught up.
        """
        if not self._following:
            self.store.follow(self.scopes, ChatFeed(self.store.root, self.scopes))
            self._following = True
        self.store.catch_up()

    def load_rest(self) -> None:
        """Load the sets this chat does not receive (once its first answer is sent), so that a
        later change's budget check need not wait for them. A failure is left to the change
        that needs them: it loads them again and says what went wrong."""
        try:
            self.store.load_rest()
        except OSError:
            pass

    def close(self) -> None:
        """Stop following the disk (the session is over)."""
        self.store.unfollow()
        self._following = False

    def revision_after_write(self, written: tuple[Scope, str], since: str | None) -> str:
        """The revision a write answers, held as if sent, so a later ``memory_read(since=…)``
        does not send the writer its own change back.

        With ``since`` (the revision the writer holds, if held here): that memory with only the
        written one as it is now, so whatever others changed still comes in the next note.
        Without it: the chat's memory as this call sees it."""
        memories = [m for scope in self.scopes for m in self.store.memories(scope)]
        now, revision = self._current.revision(memories)
        held = None if since is None else self.sent.sent(since)
        if held is None:
            self.sent.remember(revision, now, self._current.chars)
            return revision
        now = held_with_own_write(held.entries, now, written)
        revision = revision_of(now)
        self.sent.remember(revision, now)
        return revision

    def chat_revision(self) -> str:
        """The revision of what the chat receives now (as last refreshed), its text not built."""
        memories = [m for scope in self.scopes for m in self.store.memories(scope)]
        return self._current.revision(memories)[1]

    def chat_now(self) -> tuple[ChatMemory, str]:
        """What the chat receives now (as last refreshed) and its revision."""
        memories = [m for scope in self.scopes for m in self.store.memories(scope)]
        return self._current.get(memories)
