"""The memory tools, as plain functions over a ``ChatSession`` (no MCP SDK here).

The tools that look are in ``reading``, those that change memory in ``writing``; memory_read
is here. ``call`` runs any of them and turns every refusal and failure into an error result:
the spec's own sentence word for word, or a reason in the spec's form (``The memory could not
be changed: <reason>.``, and "could not be read" for a tool that only reads). Nothing is
written when a call is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from store import CouldNotChange, LooksSecret, StoreError, change_note, describe_kinds
from store import messages as store_msg

from . import messages as msg
from . import schemas
from .answers import Failed, Refused, ToolResult
from .arguments import Argument, BadArguments, ToolSpec, checked, shown
from .reading import MEMORY_GET, MEMORY_LIST, memory_get, memory_list
from .session import ChatSession, RootProblem
from .writing import MEMORY_CHANGE, MEMORY_DELETE, MEMORY_SAVE, memory_change, memory_delete, memory_save

__all__ = ["SPECS", "ToolResult", "call"]

MEMORY_READ = ToolSpec(
    "memory_read",
    "Read this chat's memory. Without since: the complete memory. Each answer names its "
    "revision; pass the revision you hold as since to get only what changed after it (or a "
    "line saying nothing did). Read the complete memory at the start of a conversation and "
    "after your context was compacted.",
    (Argument("since", str, "the revision of the memory you hold, from an earlier memory_read"),),
    read_only=True,
    idempotent=True,
    title="Read the chat's memory",
    output_schema=schemas.MEMORY_READ,
)


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
    # Over MCP the text block is the JSON: its ``text`` and ``revision`` are what the model reads.
    if since is None:
        return ToolResult(now.text or msg.EMPTY, {"kind": "full", "text": now.text, **figures})
    note = None if before is None else change_note(before, now)
    if since == revision or (before is not None and note is None):
        return ToolResult(msg.UNCHANGED, {"kind": "unchanged", "text": msg.UNCHANGED, **figures})
    if note is not None:
        return ToolResult(note, {"kind": "change", "text": note, **figures})
    sent = session.sent
    why = msg.REVISION_UNKNOWN.format(
        since=shown(since), held=len(sent), keep=sent.keep, chars=sent.keep_chars
    )
    return ToolResult(now.text or msg.EMPTY, {"kind": "full", "text": now.text, "reason": why, **figures})


Tool = Callable[[ChatSession, Mapping[str, Any]], ToolResult]
_TOOLS: dict[str, tuple[ToolSpec, Tool]] = {
    MEMORY_LIST.name: (MEMORY_LIST, memory_list),
    MEMORY_GET.name: (MEMORY_GET, memory_get),
    MEMORY_READ.name: (MEMORY_READ, memory_read),
    MEMORY_SAVE.name: (MEMORY_SAVE, memory_save),
    MEMORY_CHANGE.name: (MEMORY_CHANGE, memory_change),
    MEMORY_DELETE.name: (MEMORY_DELETE, memory_delete),
}
SPECS = tuple(spec for spec, _run in _TOOLS.values())


def failure(spec: ToolSpec, reason: str) -> ToolResult:
    """A refusal for ``reason`` in the spec's form: "could not be changed" or "… read"."""
    template = store_msg.COULD_NOT_CHANGE if spec.writes else msg.COULD_NOT_READ
    return ToolResult(template.format(reason=reason.rstrip(".")), error=True)


def call(session: ChatSession, name: str, arguments: Mapping[str, Any] | None) -> ToolResult:
    """Run one tool call; every refusal and failure comes back as an error result, never raised."""
    entry = _TOOLS.get(name)
    if entry is None:
        names = ", ".join(_TOOLS)
        return ToolResult(msg.UNKNOWN_TOOL.format(name=shown(str(name)), names=names), error=True)
    spec, run = entry
    try:
        args = checked(spec, arguments)
        with session.lock:  # one call at a time: memory_read's delta state stays consistent
            return run(session, args)
    except Exception as exc:  # a tool call never takes the server down
        return refusal(spec, session, exc)


def refusal(spec: ToolSpec, session: ChatSession, exc: Exception) -> ToolResult:
    """What a call that raised ``exc`` answers: the spec's sentence, or a reason in its form."""
    if isinstance(exc, LooksSecret):  # the model cannot confirm it as a person can in the app
        return failure(spec, msg.LOOKS_SECRET.format(what=describe_kinds(exc.kinds)))
    if isinstance(exc, CouldNotChange):
        return failure(spec, exc.reason)
    if isinstance(exc, Refused | StoreError):  # the spec's own sentences
        return ToolResult(str(exc), error=True)
    if isinstance(exc, BadArguments | Failed | RootProblem):
        return failure(spec, str(exc))
    if isinstance(exc, OSError):
        reason = exc.strerror or str(exc)
        if not spec.writes:
            reason = msg.ROOT_UNREADABLE.format(root=session.store.root, reason=reason)
        return failure(spec, reason)
    return failure(spec, msg.UNEXPECTED.format(reason=f"{type(exc).__name__}: {exc}"))
