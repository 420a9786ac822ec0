"""Would a new memory be saved? The checks ``MemoryStore.create`` makes, without writing.

For a dry run of several new memories in one scope (an import): ``CreationCheck`` makes
create's own checks (``rules.checked_new``, then ``rules.new_file_bytes``), then the chat
budget, counting each memory it let through towards it, so the tenth memory that would take a
chat over its limit is the one said to be refused. The answer is from the store as last read;
``create`` checks again against the files as they are then.
"""

from __future__ import annotations

from store.checks.chat import chat_chars, entry_chars, tokens_for_chars
from store.errors import OverChatLimit, StoreError
from store.format.fields import Fields
from store.format.timestamps import now_utc
from store.memory_store import MemoryStore
from store.model import Scope
from store.write.rules import check_scope, checked_new, new_file_bytes


class CreationCheck:
    """The refusal each of a series of new, enabled memories of ``scope`` would meet."""

    def __init__(self, store: MemoryStore, scope: Scope) -> None:
        check_scope(scope)
        self.store = store
        self.scope = scope
        self.limits = store.limits
        # (characters, entries) each chat's memories add now, and what this series adds.
        self._sums: dict[Scope, tuple[int, int]] = {}
        for each in [None, *store.workspaces()]:
            sent = [m for m in store.memories(each) if m.enabled]
            self._sums[each] = (sum(entry_chars(m.title, m.text) for m in sent), len(sent))
        self._added = (0, 0)

    def refusal(self, title: str, text: str) -> StoreError | None:
        """The store's refusal of this memory (None: it would be saved); a memory let through
        counts towards the chat budget of the ones checked after it."""
        try:
            self._check(title, text)
        except StoreError as exc:
            return exc
        return None

    def _check(self, title: str, text: str) -> None:
        title, text = checked_new(title, text, self.limits)
        moment = now_utc()
        fields = Fields(title=title, enabled=True, source="user", created=moment, updated=moment)
        new_file_bytes(fields, text, self.limits)  # refused when the file would be too large
        chars, count = self._added[0] + entry_chars(title, text), self._added[1] + 1
        self._check_budget(chars, count)
        self._added = (chars, count)

    def _check_budget(self, chars: int, count: int) -> None:
        """Refuse when a chat this scope reaches would go over the limit and grow (naming the
        chat that would be largest), as the store's budget check does."""
        limit = self.limits.chat_max_tokens
        chats: list[Scope] = [self.scope] if self.scope is not None else [None, *self.store.workspaces()]
        worst: tuple[int, Scope] | None = None
        for chat in chats:
            total, entries = self._sums.get(None, (0, 0))
            if chat is not None:
                more, n = self._sums.get(chat, (0, 0))
                total, entries = total + more, entries + n
            before = tokens_for_chars(chat_chars(total + self._added[0], entries + self._added[1]))
            after = tokens_for_chars(chat_chars(total + chars, entries + count))
            if after > limit and after > before and (worst is None or after > worst[0]):
                worst = (after, chat)
        if worst is not None:
            raise OverChatLimit(worst[1], worst[0], limit)
