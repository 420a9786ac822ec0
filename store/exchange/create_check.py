"""Would a new memory be saved, or a memory changed? The checks the store makes, without writing.

For a dry run of several new or changed memories in one scope (an import): ``CreationCheck``
makes create's own checks (``rules.checked_new``, then ``rules.new_file_bytes``) or edit's
(``rules.checked_edit``, then new secret-looking text), then the chat budget, counting each
memory it let through towards it, so the tenth memory that would take a chat over its limit is
the one said to be refused. The answer is from the store as last read; ``create`` and ``edit``
check again against the files as they are then.
"""

from __future__ import annotations

from store.checks.chat import chat_chars, entry_chars, tokens_for_chars
from store.errors import OverChatLimit, StoreError
from store.format.fields import Fields
from store.format.timestamps import now_utc
from store.memory_store import MemoryStore
from store.model import Memory, Scope
from store.write.rules import check_scope, checked_edit, checked_new, new_file_bytes, refuse, secret_refusal


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

    def refusal(self, title: str, text: str, extra: dict[str, str] | None = None) -> StoreError | None:
        """The store's refusal of this memory (None: it would be saved); a memory let through
        counts towards the chat budget of the ones checked after it. ``extra``: the
        frontmatter keys it would be written with (they count towards the file's size)."""
        try:
            self._check(title, text, extra or {})
        except StoreError as exc:
            return exc
        return None

    def change_refusal(self, memory: Memory, title: str | None, text: str | None) -> StoreError | None:
        """The store's refusal of changing ``memory`` (of this scope) to this title and text
        (None: kept), as ``MemoryStore.edit`` checks it; None when it would be changed. A
        change let through counts towards the chat budget of what is checked after it."""
        try:
            new_title, new_text = checked_edit(title, text, self.limits)
            after = (
                memory.title if new_title is None else new_title,
                memory.text if new_text is None else new_text,
            )
            refuse(secret_refusal(*after, before=(memory.title, memory.text)))
            if memory.enabled:
                grown = entry_chars(*after) - entry_chars(memory.title, memory.text)
                chars, count = self._added[0] + grown, self._added[1]
                self._check_budget(chars, count)
                self._added = (chars, count)
        except StoreError as exc:
            return exc
        return None

    def _check(self, title: str, text: str, extra: dict[str, str]) -> None:
        title, text = checked_new(title, text, self.limits)
        moment = now_utc()
        fields = Fields(
            title=title, enabled=True, source="user", created=moment, updated=moment, extra=dict(extra)
        )
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
