"""The store's refusals: one ``StoreError`` subclass per reason, carrying its values.

``str(err)`` is always the spec's message word for word, so a caller may show it as it is, and
may also tell why a change was refused without reading the message.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from store import messages as msg
from store.messages import describe_kinds
from store.model import Memory

Field = Literal["title", "text"]


class StoreError(Exception):
    """A change the store refused, or could not make; ``str(err)`` is the user-facing message."""

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""


class UnknownMemory(StoreError):
    """No memory (or only a problem file where a memory is needed) has this id in the scope."""

    def __init__(self, memory_id: str) -> None:
        super().__init__(msg.UNKNOWN_ID.format(id=memory_id))
        self.memory_id = memory_id


class NothingToChange(StoreError):
    """A change gave neither a title nor a text."""

    def __init__(self) -> None:
        super().__init__(msg.GIVE_TITLE_OR_TEXT)


class MissingField(StoreError):
    """The title or the text is empty (after normalising)."""

    def __init__(self, field: Field) -> None:
        super().__init__(msg.NEEDS_TITLE if field == "title" else msg.NEEDS_TEXT)
        self.field: Field = field


class TooLong(StoreError):
    """The title or the text is longer than its limit (characters)."""

    def __init__(self, field: Field, limit: int, length: int) -> None:
        template = msg.TITLE_TOO_LONG if field == "title" else msg.TEXT_TOO_LONG
        super().__init__(template.format(n=limit, m=length))
        self.field: Field = field
        self.limit = limit
        self.length = length


class OverChatLimit(StoreError):
    """The change would take what a chat receives over the token limit.

    ``workspace`` is the chat that would be largest (None: a chat outside any workspace).
    """

    def __init__(self, workspace: str | None, tokens: int, limit: int) -> None:
        if workspace is None:
            text = msg.CHAT_OVER_LIMIT.format(n=tokens, m=limit)
        else:
            text = msg.WORKSPACE_CHAT_OVER_LIMIT.format(key=workspace, n=tokens, m=limit)
        super().__init__(text)
        self.workspace = workspace
        self.tokens = tokens
        self.limit = limit


class CouldNotChange(StoreError):
    """The change could not be made; ``reason`` is the part after "could not be changed: "."""

    def __init__(self, reason: str) -> None:
        super().__init__(msg.COULD_NOT_CHANGE.format(reason=reason))
        self.reason = reason


class ChangedSinceRead(StoreError):
    """The memory is not as the caller read it: its fingerprint is not the one the caller gave.

    ``current`` is the memory as it is now (None when its file now has a problem, which
    ``problem`` names), so the caller can show it or make its change again over it.
    """

    def __init__(self, current: Memory | None, problem: str | None = None) -> None:
        super().__init__(msg.COULD_NOT_CHANGE.format(reason=msg.CHANGED_SINCE_READ))
        self.current = current
        self.problem = problem


class NoSuchVersion(StoreError):
    """No kept version of the memory has this name."""

    def __init__(self, name: str) -> None:
        super().__init__(msg.NO_SUCH_VERSION.format(name=name))
        self.name = name


class NothingToUndo(StoreError):
    """No change from a chat is waiting to be undone."""

    def __init__(self) -> None:
        super().__init__(msg.NOTHING_TO_UNDO)


class LooksSecret(StoreError):
    """The text looks like it contains a secret (``kinds``: e.g. "password")."""

    def __init__(self, kinds: Iterable[str]) -> None:
        self.kinds = tuple(kinds)
        super().__init__(msg.LOOKS_SECRET.format(what=describe_kinds(self.kinds)))


__all__ = [
    "ChangedSinceRead",
    "CouldNotChange",
    "LooksSecret",
    "MissingField",
    "NoSuchVersion",
    "NothingToChange",
    "NothingToUndo",
    "OverChatLimit",
    "StoreError",
    "TooLong",
    "UnknownMemory",
]
