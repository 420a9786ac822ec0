"""The tools that look without changing anything: memory_list and memory_get."""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping
from datetime import UTC
from typing import Any

from store import Limits, Memory, Problem, Scope, is_valid_id
from store import messages as store_msg

from . import messages as msg
from . import schemas
from .answers import Failed, Refused, ToolResult, chat_figures, listed_memory, to_json, whole_memory
from .arguments import Argument, ToolSpec, shown
from .session import ChatSession

PAGE = 50
PAGE_MAX = 500


def query_limit(limits: Limits) -> int:
    """The longest query: no memory holds more words than its title and text together."""
    return limits.title_max_chars + 1 + limits.text_max_chars


MEMORY_LIST = ToolSpec(
    "memory_list",
    "List the memories this chat receives and can change, Global first, then the workspace's, "
    "on and off: each one's id, title, whether it is on, who saved it (user or ai), its tokens "
    "and the start of its text. query keeps those holding every word (in the title or text, any "
    f"case). At most limit per call (default {PAGE}, at most {PAGE_MAX}); when next_cursor is not "
    "null, pass it as cursor for the next page.",
    (
        Argument(
            "query",
            str,
            "words every listed memory holds, in its title or text (any case)",
            max_length=query_limit,
        ),
        Argument("limit", int, f"at most this many memories (default {PAGE})", minimum=1, maximum=PAGE_MAX),
        Argument("cursor", str, "the next_cursor of the page before"),
    ),
    read_only=True,
    idempotent=True,
    title="List memories",
    output_schema=schemas.MEMORY_LIST,
)
MEMORY_GET = ToolSpec(
    "memory_get",
    "One memory whole, by the id memory_list gives: its title, its whole text, whether it is on, "
    "who saved it, when it was created and last changed, and its tokens.",
    (Argument("id", str, "the memory's id (eight characters 0-9 and a-f)", required=True),),
    read_only=True,
    idempotent=True,
    title="Read one memory",
    output_schema=schemas.MEMORY_GET,
)


def find_scope(session: ChatSession, memory_id: str) -> Scope:
    """The one scope of this chat holding ``memory_id`` (a memory or a problem file)."""
    unknown = store_msg.UNKNOWN_ID.format(id=shown(memory_id))
    if not is_valid_id(memory_id):
        raise Refused(unknown)
    found: list[Scope] = []
    for scope in session.scopes:
        item = session.store.find(scope, memory_id)
        if isinstance(item, Memory | Problem):
            found.append(scope)
    if not found:
        raise Refused(unknown)
    if len(found) > 1:
        raise Failed(msg.AMBIGUOUS.format(id=memory_id, key=session.workspace))
    return found[0]


def found_memory(session: ChatSession, memory_id: str) -> Memory:
    """The memory of this chat with ``memory_id``; a problem file is a failure naming it."""
    scope = find_scope(session, memory_id)
    item = session.store.find(scope, memory_id)
    if isinstance(item, Problem):
        raise Failed(f"its file has a problem: {item.message.rstrip('.')}")
    return session.store.get(scope, memory_id)


def _position(rank: int, memory: Memory) -> list[Any]:
    """Where a memory stands in the list (its scope, then the store's (created, id) order)."""
    created = "" if memory.created is None else memory.created.astimezone(UTC).isoformat()
    return [rank, 0 if memory.created is None else 1, created, memory.id]


def _cursor(position: list[Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(position).encode("utf-8")).decode("ascii")


def _after(cursor: str) -> list[Any]:
    """The position a cursor names; one memory_list did not give is refused."""
    try:
        position = json.loads(base64.urlsafe_b64decode(cursor.encode("ascii")))
    except (ValueError, UnicodeError, binascii.Error):
        position = None
    shape = [int, int, str, str]
    if not (isinstance(position, list) and [type(p) for p in position] == shape):
        raise Failed(msg.BAD_CURSOR.format(cursor=shown(cursor)))
    return position


def memory_list(session: ChatSession, args: Mapping[str, Any]) -> ToolResult:
    """A page of the chat's memories (on and off) matching ``query``, and the chat's figures."""
    if session.check_root(writing=False):
        session.refresh()
    query = args.get("query")
    if query is not None and len(query) > query_limit(session.store.limits):
        raise Failed(msg.QUERY_TOO_LONG.format(n=query_limit(session.store.limits), m=len(query)))
    limit = args.get("limit", PAGE)
    after = _after(args["cursor"]) if "cursor" in args else None
    scopes = session.scopes
    listed = [m for scope in scopes for m in session.store.memories(scope)]
    if query:
        listed = session.haystacks.matching(listed, query)
    rank = {scope: r for r, scope in enumerate(scopes)}
    found = [(rank[m.scope], m) for m in listed]
    # A position is worked out only where a cursor is compared or given (10,000 dates otherwise).
    waiting = found if after is None else [(r, m) for r, m in found if _position(r, m) > after]
    page = waiting[:limit]
    more = len(waiting) > limit
    data = {
        "chat": chat_figures(session),
        "query": query,
        "total": len(found),
        "memories": [listed_memory(m) for _r, m in page],
        "next_cursor": _cursor(_position(*page[-1])) if more else None,
    }
    body = to_json(data)
    return ToolResult(body, data, body=body)


def memory_get(session: ChatSession, args: Mapping[str, Any]) -> ToolResult:
    """One memory of this chat, whole."""
    if session.check_root(writing=False):
        session.refresh()
    memory = found_memory(session, args["id"])
    data = {**whole_memory(memory), "chat": chat_figures(session)}
    return ToolResult(memory.text, data)
