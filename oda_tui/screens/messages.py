"""Messages the main screen's workers post back to the UI thread."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.message import Message

from store.model import ChatMemory, Scope

from ..snapshot import Snapshot


class StoreRead(Message):
    """A fresh snapshot of the store (after loading or after outside changes)."""

    def __init__(
        self,
        snapshot: Snapshot | None,
        preview_scope: Scope,
        preview: ChatMemory | None,
        changed: set[Path],
        initial: bool = False,
        error: str | None = None,
    ) -> None:
        super().__init__()
        self.snapshot = snapshot
        self.preview_scope = preview_scope
        self.preview = preview
        self.changed = changed
        self.initial = initial
        self.error = error


class OpFinished(Message):
    """A change the person asked for went through (``error`` is None) or was refused."""

    def __init__(
        self,
        kind: str,
        result: Any,
        error: str | None,
        context: dict[str, Any],
        snapshot: Snapshot,
        preview_scope: Scope,
        preview: ChatMemory | None,
    ) -> None:
        super().__init__()
        self.kind = kind
        self.result = result
        self.error = error
        self.context = context
        self.snapshot = snapshot
        self.preview_scope = preview_scope
        self.preview = preview


class PreviewRead(Message):
    """The chat text for a scope, read after the person moved to it."""

    def __init__(self, scope: Scope, preview: ChatMemory) -> None:
        super().__init__()
        self.scope = scope
        self.preview = preview
