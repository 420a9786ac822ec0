"""The tools that change memory: memory_save, memory_change and memory_delete.

Each goes through the store's checks and transaction (the spec's refusals word for word);
what a chat saves or changes is kept as a ``chat`` version and waits for the person's review.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from operator import attrgetter
from typing import Any

from store import (
    GLOBAL,
    ChangedSinceRead,
    Limits,
    Memory,
    MemoryStore,
    Problem,
    Scope,
    normalize_text,
    normalize_title,
)
from store import messages as store_msg

from . import messages as msg
from . import schemas
from .answers import Failed, Refused, ToolResult, chat_figures, scope_words, whole_memory
from .arguments import Argument, ToolSpec, shown
from .reading import find_scope, found_memory
from .session import ChatSession


def _title_limit(limits: Limits) -> int:
    return limits.title_max_chars


def _text_limit(limits: Limits) -> int:
    return limits.text_max_chars


GLOBAL_WORD = "global"

#: The revision a writer holds, which every write takes.
_SINCE = Argument(
    "since",
    str,
    "the revision of the memory you hold (memory_read's, or an earlier write's): the "
    "answer's revision is then that memory with this change, so what others changed "
    "still comes with memory_read(since=…)",
)
MEMORY_SAVE = ToolSpec(
    "memory_save",
    "Save a new memory for future chats (in this chat's workspace, or Global when it has none; "
    'scope "global" saves it in Global, used in every chat). '
    "Keep it short and durable; never save secrets. The title is one line of at most {title} "
    "characters, the text at most {text} characters, and the chat's whole memory stays under "
    "about {tokens} tokens. Saving the same title and text again "
    "answers with the memory already saved. It applies from the next step, and the person "
    "reviews it in oda-tui.",
    (
        Argument("title", str, "a short name for the memory (one line)", True, _title_limit),
        Argument("text", str, "the memory itself", True, _text_limit),
        Argument(
            "scope",
            str,
            '"global" for Global (every chat), or this chat\'s workspace key (the default)',
            max_length=lambda _limits: 255,
        ),
        _SINCE,
    ),
    idempotent=True,
    title="Save a new memory",
    output_schema=schemas.MEMORY_SAVE,
)
MEMORY_CHANGE = ToolSpec(
    "memory_change",
    "Change a memory by the id memory_list gives: a new title, a new whole text, or one exact "
    "passage of its text replaced (old_text, which must occur exactly once, by new_text); "
    "enabled turns it on or off (off: kept but not sent; turning off is never refused). "
    "A whole text replaces the current one (destructive): give the version memory_get gave "
    "with it; if the memory was changed since, nothing is changed and the answer holds it as it "
    "is now. A passage edit and on/off apply to the memory as it is now (a version given is "
    "checked). A "
    "title has at most {title} characters, a text at most {text}, and the chat's whole memory "
    "stays under about {tokens} tokens. The person sees every change in oda-tui, and the earlier "
    "text stays as a version they can go back to.",
    (
        Argument("id", str, "the memory's id (eight characters 0-9 and a-f)", required=True),
        Argument(
            "version",
            str,
            "the memory's version as memory_get or memory_list gave it: required with text",
            max_length=lambda _limits: 64,
        ),
        Argument("title", str, "the new title", max_length=_title_limit),
        Argument("text", str, "the new whole text", max_length=_text_limit),
        Argument(
            "old_text", str, "a passage of the current text, occurring exactly once", max_length=_text_limit
        ),
        Argument("new_text", str, "what replaces old_text (may be empty)", max_length=_text_limit),
        Argument("enabled", bool, "true: on (sent to the model); false: off"),
        _SINCE,
    ),
    # Not idempotent: a passage replaced by a text that holds it can be replaced again.
    destructive=True,  # a whole text replaces the one there
    title="Change a memory",
    output_schema=schemas.MEMORY_CHANGE,
)
MEMORY_DELETE = ToolSpec(
    "memory_delete",
    "Delete a memory by its id. It is no longer sent from the next step, and waits under "
    "Recently deleted in oda-tui, where the person can restore it; the deletion shows in their "
    "review. Give the version memory_get gave: if the memory was changed since, nothing is "
    "deleted and the answer holds it as it is now. Prefer memory_change with enabled=false to "
    "keep it without sending it.",
    (
        Argument("id", str, "the memory's id (eight characters 0-9 and a-f)", required=True),
        Argument(
            "version",
            str,
            "the memory's version as memory_get or memory_list gave it",
            required=True,
            max_length=lambda _limits: 64,
            missing=msg.DELETE_NEEDS_VERSION,
        ),
        _SINCE,
    ),
    destructive=True,
    idempotent=True,  # a second call finds nothing to delete and changes nothing
    title="Delete a memory",
    output_schema=schemas.MEMORY_DELETE,
)


def memory_save(session: ChatSession, args: Mapping[str, Any]) -> ToolResult:
    """A new memory in the chat's workspace (Global without one): ``source: ai``, this
    session's id, its first version from ``chat``; the same memory saved again is answered
    with the one already there."""
    session.check_root(writing=True)
    store = session.store
    scope = _save_scope(session, args.get("scope"))
    session.refresh()
    same = _already_saved(store, scope, args["title"], args["text"])
    if same is not None:
        template = msg.ALREADY_SAVED if same.enabled else msg.ALREADY_SAVED_OFF
        text = template.format(title=same.title, id=same.id, scope=scope_words(same))
        return _answer(session, args, text, same, saved=False)
    memory = store.create(
        scope,
        args["title"],
        args["text"],
        source="ai",
        session_id=session.session_id,
        via="chat",
    )
    text = msg.SAVED.format(title=memory.title, id=memory.id, scope=scope_words(memory))
    return _answer(session, args, text, memory, saved=True)


def _save_scope(session: ChatSession, asked: str | None) -> Scope:
    """Where memory_save puts the memory: ``"global"`` is Global, the chat's workspace key (or
    nothing) its own set; any other is refused, naming what this chat can give."""
    if asked is None:
        return session.save_scope
    if asked.casefold() == GLOBAL_WORD:
        return GLOBAL
    if asked == session.workspace:
        return asked
    if session.workspace is None:
        raise Failed(msg.SCOPE_NOT_HERE_GLOBAL.format(scope=shown(asked)))
    raise Failed(msg.SCOPE_NOT_HERE.format(scope=shown(asked), default=f"workspace {session.workspace}"))


def _already_saved(store: MemoryStore, scope: Scope, title: str, text: str) -> Memory | None:
    title, text = normalize_title(title), normalize_text(text)
    memories = store.memories(scope)
    titles = list(map(_TITLE, memories))  # looked through in C: a set may hold thousands
    at = -1
    while (at := _index(titles, title, at + 1)) >= 0:
        if memories[at].text == text:
            return memories[at]
    return None


_TITLE = attrgetter("title")


def _index(items: list[str], item: str, start: int) -> int:
    """Where ``item`` is in ``items`` from ``start`` on, or -1."""
    try:
        return items.index(item, start)
    except ValueError:
        return -1


def _answer(
    session: ChatSession,
    args: Mapping[str, Any],
    text: str,
    memory: Memory,
    *,
    error: bool = False,
    **facts: Any,
) -> ToolResult:
    """A write's answer: the memory whole, ``facts``, the chat's figures, the sentence, and the
    revision the writer holds now (``since`` in ``args``: the one it held before)."""
    data = {
        **whole_memory(memory),
        **facts,
        "chat": chat_figures(session),
        "message": text,
        "revision": session.revision_after_write((memory.scope, memory.id), args.get("since")),
    }
    return ToolResult(text, data, error=error)


def _not_as_read(
    session: ChatSession, args: Mapping[str, Any], exc: ChangedSinceRead, **facts: Any
) -> ToolResult:
    """The refusal of a change to a memory changed since the caller read it: the memory as it
    is now (its new version too), so the change can be made again over it in one step."""
    if exc.current is None:
        raise Failed(msg.CHANGED_INTO_PROBLEM.format(problem=(exc.problem or "").rstrip(".")))
    return _answer(session, args, msg.CHANGED_SINCE_READ, exc.current, error=True, **facts)


def _replaced(current: str, old: str, new: str) -> str:
    """``current`` with its one occurrence of ``old`` replaced by ``new``."""
    if not old:
        raise Failed(msg.PASSAGE_EMPTY)
    count = current.count(old)
    if count == 0:
        raise Failed(msg.PASSAGE_MISSING)
    if count > 1:
        raise Failed(msg.PASSAGE_TWICE.format(n=count))
    return current.replace(old, new, 1)


def memory_change(session: ChatSession, args: Mapping[str, Any]) -> ToolResult:
    """Change a memory of this chat through the store's checks; a change that changes nothing
    answers with the spec's note and saves nothing."""
    session.check_root(writing=True)
    store = session.store
    session.refresh()
    title, text, enabled = args.get("title"), args.get("text"), args.get("enabled")
    old, new = args.get("old_text"), args.get("new_text")
    if (old is None) != (new is None):
        raise Failed(msg.PASSAGE_ALONE)
    if old is not None and text is not None:
        raise Failed(msg.TEXT_AND_PASSAGE)
    if title is None and text is None and old is None and enabled is None:
        raise Refused(store_msg.GIVE_TITLE_OR_TEXT)
    version = args.get("version")
    scope = find_scope(session, args["id"])
    if title is None and text is None and old is None and isinstance(store.find(scope, args["id"]), Problem):
        return _switch_problem_file(session, args, scope, enabled is True)
    before = found_memory(session, args["id"])
    if text is not None and version is None:
        raise Failed(msg.TEXT_NEEDS_VERSION)
    # One transaction and at most one version, whatever of title, text and on/off it sets; a
    # passage is replaced in the text as it is under the lock (an outside edit just made counts).
    edited: str | Callable[[str], str] | None = text
    if old is not None:
        edited = functools.partial(_replaced, old=old, new=new or "")
    try:
        change = store.edit(
            before.scope, before.id, title=title, text=edited, enabled=enabled, via="chat", expected=version
        )
    except ChangedSinceRead as exc:
        return _not_as_read(session, args, exc, changed=False, note=msg.CHANGED_SINCE_READ)
    memory = change.memory
    sentence = _what_changed(before, memory, content_asked=title is not None or edited is not None)
    changed = change.changed
    return _answer(session, args, sentence, memory, changed=changed, note=None if changed else sentence)


def _switch_problem_file(session: ChatSession, args: Mapping[str, Any], scope: Scope, on: bool) -> ToolResult:
    """Turn a problem file on or off as the store decides: off is never refused (over its
    length limit it stays a problem file, not sent either way); on is refused with the store's
    own reason (the length and the limit)."""
    change = session.store.edit(scope, args["id"], enabled=on, via="chat", expected=args.get("version"))
    memory = change.memory
    names = {"title": memory.title, "id": memory.id}
    if change.changed:
        sentence = (msg.TURNED_ON if on else msg.TURNED_OFF).format(**names)
    else:
        sentence = (msg.ALREADY_ON if on else msg.ALREADY_OFF).format(**names)
    note = None if change.changed else sentence
    return _answer(session, args, sentence, memory, changed=change.changed, note=note)


def _what_changed(before: Memory, after: Memory, *, content_asked: bool) -> str:
    """The sentence for a change from ``before`` to ``after``."""
    names = {"title": after.title, "id": after.id}
    if (after.title, after.text) != (before.title, before.text):
        return msg.CHANGED.format(**names)
    if after.enabled != before.enabled:
        return (msg.TURNED_ON if after.enabled else msg.TURNED_OFF).format(**names)
    if content_asked:
        return store_msg.UNCHANGED
    return (msg.ALREADY_ON if after.enabled else msg.ALREADY_OFF).format(**names)


def memory_delete(session: ChatSession, args: Mapping[str, Any]) -> ToolResult:
    """Delete a memory of this chat: it waits under Recently deleted, restorable."""
    session.check_root(writing=True)
    store = session.store
    session.refresh()
    memory_id = args["id"]
    scope = find_scope(session, memory_id)
    item = store.find(scope, memory_id)
    title = item.title if isinstance(item, Memory) else item.path.name if isinstance(item, Problem) else ""
    try:
        store.delete(scope, memory_id, via="chat", expected=args["version"])
    except ChangedSinceRead as exc:
        return _not_as_read(session, args, exc, deleted=False)
    sentence = msg.DELETED.format(title=title, id=memory_id)
    data = {
        "id": memory_id,
        "scope": scope,
        "title": title,
        "deleted": True,
        "chat": chat_figures(session),
        "message": sentence,
        "revision": session.revision_after_write((scope, memory_id), args.get("since")),
    }
    return ToolResult(sentence, data)
