"""What a tool call answers, and the memory's facts as every tool gives them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pydantic_core

from store import Memory, entry_tokens, format_timestamp, memory_fingerprint

from .session import ChatSession

#: How much of a memory's text memory_list shows.
PREVIEW_CHARS = 160


@dataclass(frozen=True)
class ToolResult:
    """What a tool call answers: ``text`` for the model, ``data`` as JSON, ``error`` if refused.

    Over MCP a call's text block is ``data`` as JSON (the facts and, under ``message``, the
    sentence); a refused call without ``data`` has the sentence alone. A refusal with ``data``
    (a memory changed since it was read) carries the memory as it is now.
    """

    text: str
    data: dict[str, Any] | None = None
    error: bool = False
    #: ``data`` as JSON, when the tool made it already (memory_list's text is its JSON).
    body: str | None = None


class Refused(Exception):
    """A call refused with ``str(err)`` as the model-facing sentence (one of the spec's)."""


class Failed(Exception):
    """A call that failed for ``str(err)``: a reason, put into the spec's "could not" form."""


def to_json(data: Any) -> str:
    """The JSON of an answer: compact, and text as it is (not escaped to ASCII).

    Made by pydantic's encoder (the SDK's own, a third of the time of ``json``'s for a page of
    100 memories), with ``json``'s as the same text where that one refuses: a lone surrogate.
    """
    try:
        return pydantic_core.to_json(data).decode("utf-8")
    except pydantic_core.PydanticSerializationError:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def chat_figures(session: ChatSession) -> dict[str, Any]:
    """The chat's workspace, its token estimate and the limit."""
    store = session.store
    return {
        "workspace": session.workspace,
        "tokens": store.chat_tokens(session.workspace),
        "limit": store.limits.chat_max_tokens,
    }


def preview(text: str) -> str:
    """The start of a memory's text, cut at ``PREVIEW_CHARS`` with an ellipsis."""
    return text if len(text) <= PREVIEW_CHARS else text[: PREVIEW_CHARS - 1] + "…"


def _moment(moment: datetime | None) -> str | None:
    return None if moment is None else format_timestamp(moment.astimezone(UTC))


def listed_memory(memory: Memory) -> dict[str, Any]:
    """A memory as memory_list shows it: its facts and the start of its text."""
    return {
        "id": memory.id,
        "version": memory_fingerprint(memory),
        "scope": memory.scope,
        "title": memory.title,
        "enabled": memory.enabled,
        "source": memory.source,
        "tokens": entry_tokens(memory.title, memory.text),
        "preview": preview(memory.text),
    }


def whole_memory(memory: Memory) -> dict[str, Any]:
    """A memory as memory_get gives it: every fact and the whole text."""
    return {
        "id": memory.id,
        "version": memory_fingerprint(memory),
        "scope": memory.scope,
        "title": memory.title,
        "enabled": memory.enabled,
        "source": memory.source,
        "tokens": entry_tokens(memory.title, memory.text),
        "text": memory.text,
        "session_id": memory.session_id,
        "created": _moment(memory.created),
        "updated": _moment(memory.updated),
    }


def scope_words(memory: Memory) -> str:
    """Where a memory is, in a sentence: "Global" or "workspace KEY"."""
    return "Global" if memory.scope is None else f"workspace {memory.scope}"
