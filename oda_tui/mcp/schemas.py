"""The JSON schemas of the tools' answers (each tool's ``outputSchema``).

Every successful call's ``structuredContent`` matches its tool's schema (a test checks each
one with a JSON-schema validator); a refused call carries no JSON, only its sentence.
"""

from __future__ import annotations

from typing import Any

_STRING = {"type": "string"}
_INT = {"type": "integer", "minimum": 0}
_BOOL = {"type": "boolean"}
_MESSAGE = {"type": "string", "description": "what was done, in a sentence"}
_MOMENT = {"type": ["string", "null"], "description": "ISO 8601 in UTC, or null when the file has none"}

SCOPE = {
    "type": ["string", "null"],
    "description": "null for Global, else the workspace's key (as the CLI's --json)",
}

CHAT = {
    "type": "object",
    "description": "the chat's figures: its workspace, its token estimate and the limit",
    "properties": {"workspace": SCOPE, "tokens": _INT, "limit": _INT},
    "required": ["workspace", "tokens", "limit"],
    "additionalProperties": False,
}

_MEMORY_FIELDS: dict[str, Any] = {
    "id": _STRING,
    "version": {
        **_STRING,
        "description": (
            "names this memory's title, text and on/off as read; pass it to memory_change with a "
            "whole text, and to memory_delete"
        ),
    },
    "scope": SCOPE,
    "title": _STRING,
    "enabled": {**_BOOL, "description": "on: sent to the model; off: kept but not sent"},
    "source": {"enum": ["user", "ai"], "description": "who saved it first: the person or an agent"},
    "tokens": {**_INT, "description": "what it adds to the chat's token estimate"},
}


def _object(properties: dict[str, Any], *, required: list[str] | None = None) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties) if required is None else required,
        "additionalProperties": False,
    }


LISTED_MEMORY = _object({**_MEMORY_FIELDS, "preview": {**_STRING, "description": "the start of its text"}})
WHOLE_MEMORY = _object(
    {
        **_MEMORY_FIELDS,
        "text": _STRING,
        "session_id": {"type": ["string", "null"], "description": "the chat that saved it, if an agent"},
        "created": _MOMENT,
        "updated": _MOMENT,
    }
)

MEMORY_LIST = _object(
    {
        "chat": CHAT,
        "query": {"type": ["string", "null"]},
        "total": {**_INT, "description": "how many memories match, over every page"},
        "memories": {"type": "array", "items": LISTED_MEMORY},
        "next_cursor": {"type": ["string", "null"], "description": "pass it as cursor for the next page"},
    }
)
MEMORY_GET = _object({**WHOLE_MEMORY["properties"], "chat": CHAT})
_REVISION = {
    **_STRING,
    "description": (
        "the revision you hold after this call (with since: that memory and this change only): "
        "pass it as since to memory_read, or to your next write"
    ),
}
MEMORY_SAVE = _object(
    {
        **WHOLE_MEMORY["properties"],
        "message": _MESSAGE,
        "saved": {**_BOOL, "description": "false: the same memory was already saved, nothing new was"},
        "chat": CHAT,
        "revision": _REVISION,
    }
)
MEMORY_CHANGE = _object(
    {
        **WHOLE_MEMORY["properties"],
        "message": _MESSAGE,
        "changed": {
            **_BOOL,
            "description": (
                "false: nothing was saved (it already was so, or it was changed since you read "
                "it: then this is the memory as it is now)"
            ),
        },
        "note": {"type": ["string", "null"]},
        "chat": CHAT,
        "revision": _REVISION,
    }
)
#: A deletion answers the id, title and set; one refused because the memory was changed since
#: it was read answers the memory as it is now, whole.
MEMORY_DELETE = _object(
    {
        **WHOLE_MEMORY["properties"],
        "deleted": _BOOL,
        "chat": CHAT,
        "message": _MESSAGE,
        "revision": _REVISION,
    },
    required=["id", "scope", "title", "deleted", "chat", "message", "revision"],
)
#: memory_read's answer: the object is open, so what a read adds (a revision) stays valid.
MEMORY_READ: dict[str, Any] = {
    "type": "object",
    "properties": {
        "kind": {"enum": ["full", "change", "unchanged"]},
        "text": _STRING,
        "revision": _STRING,
        "reason": _STRING,
        "message": _STRING,
        "tokens": _INT,
        "limit": _INT,
    },
    "required": ["kind", "text", "revision", "tokens", "limit"],
}
