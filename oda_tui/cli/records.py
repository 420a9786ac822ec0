"""The JSON shape of the store's records; keys are stable and documented for scripts."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from store import Memory, Scope, Version, entry_tokens, format_timestamp, scope_label

from ..text.words import saved_by, source_words


def moment(value: datetime | None) -> str | None:
    """A timestamp as the memory files write it (UTC, milliseconds, Z), or None."""
    return None if value is None else format_timestamp(value)


def scope_record(scope: Scope) -> dict[str, Any]:
    """A scope: ``scope`` is null for Global, else the workspace key; ``label`` names it."""
    return {"scope": scope, "label": scope_label(scope)}


def memory_record(memory: Memory) -> dict[str, Any]:
    """Everything about one memory, its text included."""
    return {
        "id": memory.id,
        **scope_record(memory.scope),
        "title": memory.title,
        "enabled": memory.enabled,
        "source": memory.source,
        "saved_by": saved_by(memory.source),
        "session_id": memory.session_id,
        "created": moment(memory.created),
        "updated": moment(memory.updated),
        "tokens": entry_tokens(memory.title, memory.text),
        "path": str(memory.path),
        "extra": memory.extra,
        "text": memory.text,
    }


def version_record(version: Version) -> dict[str, Any]:
    """One kept version, newest first in any list."""
    return {
        "name": version.name,
        "moment": moment(version.moment),
        "source": version.source,
        "source_words": source_words(version.source),
        "title": version.title,
        "text": version.text,
    }
