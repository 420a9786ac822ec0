"""How a screen or widget reaches the session, without importing the app (which imports the
screens)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, cast

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from .session import StoreSession


class HasSession(Protocol):
    """An app that holds a store session (``OdaApp``)."""

    session: StoreSession


def session_of(node: DOMNode) -> StoreSession:
    """The session of the app ``node`` runs in."""
    return cast(HasSession, node.app).session
