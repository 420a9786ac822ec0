"""The four memory tools, as plain functions over a ``ChatSession`` (no MCP SDK here).

Each returns a ``ToolResult``: the text the model reads, the same facts as JSON, and whether
the call was refused. A refusal is the store's sentence word for word (the spec's messages),
or one of ``messages``; nothing is written when a call is refused.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from store import (
    LooksSecret,
    Memory,
    Problem,
    Scope,
    StoreError,
    change_note,
    entry_tokens,
    is_valid_id,
)
from store import messages as store_msg
from store.secrets import describe_kinds

from . import messages as msg
from .arguments import Argument, BadArguments, ToolSpec, checked, shown
from .session import ChatSession, RootProblem


@dataclass(frozen=True)
class ToolResult:
    """What a tool call answers: ``text`` for the model, ``data`` as JSON, ``error`` if refused."""

    text: str
    data: dict[str, Any] | None = None
    error: bool = False


class Refused(Exception):
    """A call refused with ``str(err)`` as the model-facing sentence."""


MEMORY_LIST = ToolSpec(
    "memory_list",
    "List the memories this chat receives and can change (Global first, then the workspace's): "
    "id, title, whether it is on, who saved it (user or ai) and its token figure, plus the "
    "chat's token estimate against its limit.",
    read_only=True,
    idempotent=True,
)
MEMORY_SAVE = ToolSpec(
    "memory_save",
    "Save a new memory for future chats (in this chat's workspace, or Global when it has none). "
    "Keep it short and durable; never save secrets. It applies from the next step.",
    (
        Argument("title", str, "a short name for the memory (one line)", required=True),
        Argument("text", str, "the memory itself", required=True),
    ),
)
MEMORY_CHANGE = ToolSpec(
    "memory_change",
    "Change a memory's title, text or both, by the id memory_list gives. The person sees every "
    "change in oda-tui, and the earlier text stays as a version they can go back to.",
    (
        Argument("id", str, "the memory's id (eight characters 0-9 and a-f)", required=True),
        Argument("title", str, "the new title"),
        Argument("text", str, "the new text"),
    ),
)
MEMORY_READ = ToolSpec(
    "memory_read",
    "Read this chat's memory. Without since: the complete memory. Each answer names its "
    "revision; pass the revision you hold as since to get only what changed after it (or a "
    "line saying nothing did). Read the complete memory at the start of a conversation and "
    "after your context was compacted.",
    (Argument("since", str, "the revision of the memory you hold, from an earlier memory_read"),),
    read_only=True,
    idempotent=True,
)
SPECS = (MEMORY_LIST, MEMORY_SAVE, MEMORY_CHANGE, MEMORY_READ)


def _scope_name(scope: Scope) -> str:
    return "global" if scope is None else scope


def _chat_figures(session: ChatSession) -> dict[str, Any]:
    store = session.store
    return {
        "workspace": session.workspace,
        "tokens": store.chat_tokens(session.workspace),
        "limit": store.limits.chat_max_tokens,
    }


def _memory_data(memory: Memory) -> dict[str, Any]:
    return {
        "id": memory.id,
        "scope": _scope_name(memory.scope),
        "title": memory.title,
        "enabled": memory.enabled,
        "source": memory.source,
        "tokens": entry_tokens(memory.title, memory.text),
    }


def memory_list(session: ChatSession, _args: Mapping[str, Any]) -> ToolResult:
    """The chat's memories (on and off), each with its token figure, and the chat's estimate."""
    if session.check_root(writing=False):
        session.refresh()
    memories = [_memory_data(m) for scope in session.scopes for m in session.store.memories(scope)]
    data = {"chat": _chat_figures(session), "memories": memories}
    return ToolResult(_json(data), data)


def memory_save(session: ChatSession, args: Mapping[str, Any]) -> ToolResult:
    """A new memory in the chat's workspace (Global without one): ``source: ai``, this
    session's id, its first version from ``chat``."""
    session.check_root(writing=True)
    store = session.store
    session.refresh()
    memory = store.create(
        session.save_scope,
        args["title"],
        args["text"],
        source="ai",
        session_id=session.session_id,
        via="chat",
    )
    data = {**_memory_data(memory), "chat": _chat_figures(session)}
    where = "Global" if memory.scope is None else f"workspace {memory.scope}"
    return ToolResult(msg.SAVED.format(title=memory.title, id=memory.id, scope=where), data)


def _find(session: ChatSession, memory_id: str) -> Scope:
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
        reason = msg.AMBIGUOUS.format(id=memory_id, key=session.workspace)
        raise Refused(store_msg.COULD_NOT_CHANGE.format(reason=reason))
    return found[0]


def memory_change(session: ChatSession, args: Mapping[str, Any]) -> ToolResult:
    """Change a memory of this chat, through the store's checks; a change that changes nothing
    answers with the spec's note and saves nothing."""
    session.check_root(writing=True)
    store = session.store
    session.refresh()
    title, text = args.get("title"), args.get("text")
    if title is None and text is None:
        raise Refused(store_msg.GIVE_TITLE_OR_TEXT)
    scope = _find(session, args["id"])
    change = store.change(scope, args["id"], title=title, text=text, via="chat")
    memory = change.memory
    data = {**_memory_data(memory), "changed": change.changed, "chat": _chat_figures(session)}
    if not change.changed:
        note = change.note or store_msg.UNCHANGED
        return ToolResult(note, {**data, "note": note})
    return ToolResult(msg.CHANGED.format(title=memory.title, id=memory.id), data)


def memory_read(session: ChatSession, args: Mapping[str, Any]) -> ToolResult:
    """The complete memory, or with ``since`` what changed after that revision; each answer
    names the revision it brings the caller to."""
    if session.check_root(writing=False):
        session.refresh()
    now, revision = session.chat_now()
    since = args.get("since")
    # Looked up before the new revision is held: holding it may forget the oldest.
    before = None if since is None or since == revision else session.sent.sent(since)
    session.sent.remember(revision, now)
    figures = {"revision": revision, "tokens": now.tokens, "limit": session.store.limits.chat_max_tokens}
    told = msg.REVISION.format(revision=revision)
    if since is None:
        return ToolResult(f"{now.text or msg.EMPTY}\n\n{told}", {"kind": "full", "text": now.text, **figures})
    note = None if before is None else change_note(before, now)
    if since == revision or (before is not None and note is None):
        return ToolResult(
            f"{msg.UNCHANGED}\n\n{told}", {"kind": "unchanged", "text": msg.UNCHANGED, **figures}
        )
    if note is not None:
        return ToolResult(f"{note}\n\n{told}", {"kind": "change", "text": note, **figures})
    why = msg.REVISION_UNKNOWN.format(since=shown(since), keep=session.sent.keep)
    data = {"kind": "full", "text": now.text, "reason": why, **figures}
    return ToolResult(f"{why}\n\n{now.text or msg.EMPTY}\n\n{told}", data)


_TOOLS: dict[str, tuple[ToolSpec, Callable[[ChatSession, Mapping[str, Any]], ToolResult]]] = {
    MEMORY_LIST.name: (MEMORY_LIST, memory_list),
    MEMORY_SAVE.name: (MEMORY_SAVE, memory_save),
    MEMORY_CHANGE.name: (MEMORY_CHANGE, memory_change),
    MEMORY_READ.name: (MEMORY_READ, memory_read),
}


def call(session: ChatSession, name: str, arguments: Mapping[str, Any] | None) -> ToolResult:
    """Run one tool call; every refusal and failure comes back as an error result, never raised."""
    entry = _TOOLS.get(name)
    if entry is None:
        names = ", ".join(_TOOLS)
        return ToolResult(msg.UNKNOWN_TOOL.format(name=shown(str(name)), names=names), error=True)
    spec, run = entry
    writes = not spec.read_only
    try:
        args = checked(spec, arguments)
        with session.lock:  # one call at a time: memory_read's delta state stays consistent
            return run(session, args)
    except LooksSecret as exc:  # the model cannot confirm it as a person can in the app
        return ToolResult(msg.LOOKS_SECRET.format(what=describe_kinds(exc.kinds)), error=True)
    except (BadArguments, Refused, RootProblem, StoreError) as exc:
        return ToolResult(str(exc), error=True)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        if writes:
            return ToolResult(store_msg.COULD_NOT_CHANGE.format(reason=reason), error=True)
        return ToolResult(msg.ROOT_UNREADABLE.format(root=session.store.root, reason=reason), error=True)
    except Exception as exc:  # a tool call never takes the server down
        reason = f"{type(exc).__name__}: {exc}"
        if writes:
            return ToolResult(store_msg.COULD_NOT_CHANGE.format(reason=reason), error=True)
        return ToolResult(msg.UNEXPECTED.format(reason=reason), error=True)


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
