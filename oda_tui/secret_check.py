"""Saving secret-looking text: find it before the store refuses it, so the app can ask first.

No Textual here: the save operations the main screen runs in its worker thread, each able to
stop at a ``SecretFound`` (nothing saved) or go ahead with ``allow_secret=True``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from store.memoryfile import normalize_text, normalize_title
from store.secrets import describe_kinds, new_secret_kinds

if TYPE_CHECKING:
    from store import MemoryStore
    from store.model import Change, Memory, Scope


@dataclass(frozen=True)
class SecretFound:
    """A save stopped before writing: the text looks like it holds a secret."""

    kinds: tuple[str, ...]
    message: str  # the store's refusal, word for word

    @property
    def what(self) -> str:
        """The kinds in words: "a password and an API key or token"."""
        return describe_kinds(self.kinds)


def _found(store: MemoryStore, title: str, text: str, before: tuple[str, str] | None) -> SecretFound | None:
    message = store.check_secret(title, text, before=before)
    if message is None:
        return None
    return SecretFound(new_secret_kinds((title, text), before), message)


def create_checked(
    store: MemoryStore, scope: Scope, title: str, text: str, *, enabled: bool, allow_secret: bool
) -> Memory | SecretFound:
    """Create a memory in Settings, or stop at secret-looking text unless ``allow_secret``."""
    valid = store.check_title(title) is None and store.check_text(text) is None
    if not allow_secret and valid:  # otherwise the store's own refusal comes first
        found = _found(store, normalize_title(title), normalize_text(text), None)
        if found is not None:
            return found
    return store.create(scope, title, text, enabled=enabled, via="settings", allow_secret=allow_secret)


def change_checked(
    store: MemoryStore,
    scope: Scope,
    memory_id: str,
    *,
    title: str | None,
    text: str | None,
    allow_secret: bool,
) -> Change | SecretFound:
    """Change a memory, or stop at secret-looking text it did not have unless ``allow_secret``."""
    valid = (title is None or store.check_title(title) is None) and (
        text is None or store.check_text(text) is None
    )
    if not allow_secret and valid and (title is not None or text is not None):
        current = store.get(scope, memory_id)
        new_title = current.title if title is None else normalize_title(title)
        new_text = current.text if text is None else normalize_text(text)
        found = _found(store, new_title, new_text, (current.title, current.text))
        if found is not None:
            return found
    return store.change(scope, memory_id, title=title, text=text, allow_secret=allow_secret)
