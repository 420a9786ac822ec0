"""Lines on the wire the SDK cannot read itself, and what each gets instead of silence.

The SDK's stdio transport reads each line with a strict parser and drops one it cannot read
without a reply, so a client would wait for ever. ``triage`` reads such a line with Python's
own JSON parser and says what to do with it: a request the server can still take (a tool call
whose text holds a lone surrogate goes on, and the tool refuses it in its own words), an error
reply naming the problem, a batch to answer item by item, or nothing (a notification).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import mcp_types as types

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
_SURROGATE = re.compile("[\ud800-\udfff]")
#: The protocol revisions that had JSON-RPC batches (2025-06-18 removed them).
BATCH_VERSIONS = ("2024-11-05", "2025-03-26")

NOT_JSON = "The line is not a JSON-RPC message: {reason}"
NOT_TEXT = (
    "The request holds a lone surrogate (U+{code:04X}) or bytes that are not UTF-8, which are "
    "not valid text; nothing was done."
)
NOT_2_0 = 'The message is not JSON-RPC 2.0: "jsonrpc" must be "2.0"; nothing was done.'
BAD_ID = "The request id must be a string or a whole number; nothing was done."
NOT_A_MESSAGE = "The message is not a valid JSON-RPC request, notification or reply; nothing was done."
NO_BATCHES = (
    "Batches (a JSON array of messages) are not part of protocol version {version}; send one "
    "message per line. Nothing was done."
)
EMPTY_BATCH = "The batch is empty; nothing was done."


@dataclass(frozen=True)
class Forward:
    """A message the server takes as it is (read here because the SDK could not)."""

    message: types.JSONRPCMessage


@dataclass(frozen=True)
class Reply:
    """The JSON-RPC reply to send instead (any JSON value, written as it is)."""

    payload: Any


@dataclass(frozen=True)
class Batch:
    """A JSON array of messages (answered item by item where the protocol version has them)."""

    items: list[Any]


Triage = Forward | Reply | Batch | None


def error(request_id: Any, code: int, message: str) -> dict[str, Any]:
    """A JSON-RPC error reply; ``request_id`` is echoed as it came (null when unknown)."""
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def _echoable(request_id: Any) -> bool:
    return isinstance(request_id, str | int | float) and not isinstance(request_id, bool)


def _is_reply(message: dict[str, Any]) -> bool:
    """A reply to the server (a result or an error, no method): JSON-RPC answers none."""
    return "method" not in message and ("result" in message or "error" in message)


def triage(line: str) -> Triage:
    """What to do with a line the SDK could not read (None: nothing to answer)."""
    if not line.strip():
        return None
    try:
        message = json.loads(line.strip())
    except (ValueError, RecursionError) as exc:
        return Reply(error(None, PARSE_ERROR, NOT_JSON.format(reason=exc)))
    if isinstance(message, list):
        return Batch(message)
    return triage_item(message)


def triage_item(message: Any) -> Forward | Reply | None:
    """What to do with one message (a line's, or a batch item)."""
    if not isinstance(message, dict):
        return Reply(error(None, INVALID_REQUEST, NOT_A_MESSAGE))
    request_id = message.get("id")
    answerable = "id" in message and _echoable(request_id)
    if message.get("jsonrpc") != "2.0":
        return Reply(error(request_id if answerable else None, INVALID_REQUEST, NOT_2_0))
    if isinstance(request_id, float) or isinstance(request_id, bool):
        return Reply(error(request_id if answerable else None, INVALID_REQUEST, BAD_ID))
    if "id" in message and not answerable and not _is_reply(message):
        # null, an object or an array: JSON-RPC answers a request it cannot name with id null.
        return Reply(error(None, INVALID_REQUEST, BAD_ID))
    if not answerable:
        return None  # a notification (or a reply): JSON-RPC sends nothing back
    found = _SURROGATE.search(json.dumps(message, ensure_ascii=False))
    if found is not None and message.get("method") != "tools/call":
        return Reply(error(request_id, INVALID_REQUEST, NOT_TEXT.format(code=ord(found.group()))))
    try:
        # Python's own reading keeps a lone surrogate as it is: the tool then names the argument.
        return Forward(types.jsonrpc_message_adapter.validate_python(message, by_name=False))
    except ValueError:
        return Reply(error(request_id, INVALID_REQUEST, NOT_A_MESSAGE))


def batch_refusal(version: str | None) -> dict[str, Any] | None:
    """The reply refusing a batch on ``version`` (None: the version has batches)."""
    if version in BATCH_VERSIONS:
        return None
    return error(None, INVALID_REQUEST, NO_BATCHES.format(version=version or "(none agreed yet)"))
