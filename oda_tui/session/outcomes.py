"""What became of a change a person asked for: one message class per outcome.

An operation runs in the session's worker; its outcome arrives with the store as the change
left it: the session publishes that picture with the outcome in it (so whoever asked settles
before anything else follows the new picture), then posts the outcome to the node that asked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from textual.message import Message

from store import describe_kinds

if TYPE_CHECKING:
    from store import LooksSecret, Memory, MemoryStore, Scope


ResultT = TypeVar("ResultT")


class Outcome(Message):
    """The base of every outcome."""


class Done(Outcome):
    """A change went through; ``text`` (if any) says what was done."""

    def __init__(self, text: str | None = None) -> None:
        super().__init__()
        self.text = text


class Refused(Outcome):
    """A change was refused (or failed); ``error`` says why, in the store's words."""

    def __init__(self, error: str) -> None:
        super().__init__()
        self.error = error


class Saved(Outcome):
    """The editor's changes to a memory were saved; ``sent`` is the (title, text) sent."""

    def __init__(self, memory: Memory, note: str | None, sent: tuple[str, str]) -> None:
        super().__init__()
        self.memory = memory
        self.note = note
        self.sent = sent


class Created(Outcome):
    """A new memory was saved from the editor."""

    def __init__(self, memory: Memory, scope: Scope, sent: tuple[str, str]) -> None:
        super().__init__()
        self.memory = memory
        self.scope = scope
        self.sent = sent


class SaveRefused(Refused):
    """The store refused a save from the editor; the edits stay on screen."""


class SecretHeld(Outcome, Generic[ResultT]):
    """A save stopped before writing: the store found text that looks like a secret
    (``LooksSecret``). ``retry`` saves anyway."""

    def __init__(self, found: LooksSecret, retry: Operation[ResultT]) -> None:
        super().__init__()
        self.kinds = found.kinds
        self.message = str(found)  # the store's refusal, word for word
        self.retry = retry

    @property
    def what(self) -> str:
        """The kinds in words: "a password and an API key or token"."""
        return describe_kinds(self.kinds)


class FrontmatterSaved(Outcome):
    """The frontmatter block (``block``) was written; ``memory`` is the memory now."""

    def __init__(self, memory: Memory, block: str) -> None:
        super().__init__()
        self.memory = memory
        self.block = block


class FrontmatterRefused(Refused):
    """The store refused the frontmatter block; the edits to it stay on screen."""


class Toggled(Outcome):
    """A memory was turned on or off."""

    def __init__(self, memory: Memory) -> None:
        super().__init__()
        self.memory = memory


class ToggleRefused(Refused):
    """Turning a memory on or off was refused; ``enabled`` is what was asked."""

    def __init__(self, error: str, memory_id: str, enabled: bool) -> None:
        super().__init__(error)
        self.memory_id = memory_id
        self.enabled = enabled


class Deleted(Outcome):
    """A memory was deleted (it waits under Recently deleted)."""

    def __init__(self, title: str) -> None:
        super().__init__()
        self.title = title


@dataclass(frozen=True)
class Operation(Generic[ResultT]):
    """One change: ``change`` runs in a worker under the session's call lock; ``done`` turns its
    result into the outcome, ``refused`` an error into one."""

    change: Callable[[MemoryStore], ResultT]
    done: Callable[[ResultT], Outcome]
    refused: Callable[[str], Outcome] = Refused
    anyway: Operation[ResultT] | None = None
    """The same change with secret-looking text allowed: when there is one, the store's
    ``LooksSecret`` is a question to the person (``SecretHeld``), not a refusal."""


def asking_about_secrets(
    change: Callable[[MemoryStore, bool], ResultT],
    done: Callable[[ResultT], Outcome],
    refused: Callable[[str], Outcome] = Refused,
) -> Operation[ResultT]:
    """An operation whose ``change(store, allow_secret)`` may meet secret-looking text: first
    run with it refused, then (if the person says so) allowed."""
    return Operation(
        lambda store: change(store, False),
        done,
        refused,
        anyway=Operation(lambda store: change(store, True), done, refused),
    )


def simple(change: Callable[[MemoryStore], object], text: str | None = None) -> Operation[object]:
    """An operation whose success is a ``Done`` saying ``text``."""
    return Operation(change, lambda _result: Done(text))
