"""The chat budget: what each chat receives, in tokens, and the check every change passes.

A change is refused when some chat the memory reaches would go over ``chat_max_tokens`` and
grow. Under the store-wide lock the sums come from the files as they are now (another process
may have just written): a stat of each file of the scopes concerned, a read only of those
whose stat is not the one in the picture; sets a feed of change events follows
(``store.followed``) are caught up from the feed and summed from the picture.
"""

from __future__ import annotations

import os
from pathlib import Path

from store.checks.chat import chat_chars, entry_chars, tokens_for_chars
from store.disk.layout import WORKSPACES_DIR, scope_dir
from store.errors import OverChatLimit
from store.model import Ignored, Memory, Problem, Scope
from store.read.disk_sync import DiskSync
from store.read.picture import Picture
from store.read.scan import item_for, list_set, list_workspaces, open_set_folder, read_file, signature


def sums(state: Picture, scope: Scope) -> tuple[int, int]:
    """(characters, entries) the enabled memories of ``scope`` add to a chat, from the picture."""
    found = state.chat_sums.get(scope)
    if found is None:
        sent = [m for m in state.by_scope.get(scope, {}).values() if isinstance(m, Memory) and m.enabled]
        found = (sum(entry_chars(m.title, m.text) for m in sent), len(sent))
        state.chat_sums[scope] = found
    return found


def chat_tokens(state: Picture, workspace: str | None) -> int:
    """The estimate of what a chat in ``workspace`` receives (None: outside any workspace)."""
    total, count = sums(state, None)
    if workspace is not None:
        more, n = sums(state, workspace)
        total, count = total + more, count + n
    return tokens_for_chars(chat_chars(total, count))


class Budget:
    """The token check of a store's changes."""

    def __init__(self, sync: DiskSync) -> None:
        self.root = sync.root
        self.sync = sync

    def check_tokens(
        self,
        scope: Scope,
        memory_id: str,
        before: tuple[str, str] | None,
        after: tuple[str, str] | None,
    ) -> None:
        """Refuse when some chat this memory reaches would go over the limit and grow."""
        current = self.sync.loaded().by_scope.get(scope, {}).get(memory_id)
        if before is None and isinstance(current, Memory) and current.enabled:
            before = (current.title, current.text)
        delta_chars = (entry_chars(*after) if after else 0) - (entry_chars(*before) if before else 0)
        delta_count = (after is not None) - (before is not None)
        self.check_chats({scope: (delta_chars, delta_count)})

    def check_chats(self, deltas: dict[Scope, tuple[int, int]]) -> None:
        """Refuse when these changes (characters, entries, by scope) would take some chat over
        the limit and make it grow; the message names the chat that would be largest.

        The sums come from the files as they are now (another process may have just written),
        read again only where their stat changed, or from the picture of followed sets once
        caught up with their feed.
        """
        if all(chars <= 0 and count <= 0 for chars, count in deltas.values()):
            return  # no chat grows, so none can go over by this change
        limit = self.sync.limits.chat_max_tokens
        keys = {s for s in deltas if s is not None}
        chats: list[str | None] = [*sorted(keys)]
        workspaces = self.workspaces_now() if None in deltas else {}
        if None in deltas:
            chats = [None, *sorted(set(workspaces) | keys)]
        followed, _changed = self.sync.catch_up()
        state = self.sync.loaded()
        sums_now = {
            s: sums(state, s)
            if s in followed
            else self._sums_now(s, workspaces.get(s) if s is not None else None)
            for s in {None, *chats}
        }
        worst: tuple[int, str | None] | None = None
        for chat in chats:
            total, count = sums_now[None]
            d_chars, d_count = deltas.get(None, (0, 0))
            if chat is not None:
                more, n = sums_now[chat]
                extra_chars, extra_count = deltas.get(chat, (0, 0))
                total, count = total + more, count + n
                d_chars, d_count = d_chars + extra_chars, d_count + extra_count
            old = tokens_for_chars(chat_chars(total, count))
            new = tokens_for_chars(chat_chars(total + d_chars, count + d_count))
            if new > limit and new > old and (worst is None or new > worst[0]):
                worst = (new, chat)
        if worst is not None:
            tokens, chat = worst
            raise OverChatLimit(chat, tokens, limit)

    def workspaces_now(self) -> dict[str, Path]:
        """The workspace folders as they are now (key: folder)."""
        ignored: dict[str, Ignored] = {}
        with open_set_folder(self.root, self.root / WORKSPACES_DIR, ignored) as fd:
            if fd is None:
                return {}
            found, _ignored = list_workspaces(self.root, self.root / WORKSPACES_DIR, fd)
        return dict(found)

    def _sums_now(self, scope: Scope, folder: Path | None) -> tuple[int, int]:
        """(characters, entries) a scope adds to a chat, from its files as they are now: a stat
        of each, a read only of those whose stat is not the one in the picture."""
        state = self.sync.loaded()
        folder = folder or scope_dir(self.root, scope)
        total = count = 0
        with open_set_folder(self.root, folder, {}) as fd:
            if fd is None:
                return 0, 0
            files, _ignored = list_set(self.root, scope, folder, fd)
            for entry in files:
                item: Memory | Problem | None = state.items.get(entry.path)
                try:
                    st = os.stat(entry.name, dir_fd=fd, follow_symlinks=False)
                except OSError:
                    continue
                if item is None or signature(st) != state.sigs.get(entry.path):
                    found = read_file(entry.name, self.sync.limits, fd)
                    item = None if found is None else item_for(entry.path, scope, entry.id, found[1])
                if isinstance(item, Memory) and item.enabled:
                    total += entry_chars(item.title, item.text)
                    count += 1
        return total, count
