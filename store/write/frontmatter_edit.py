"""The frontmatter block as written: read it, check it with the store's own messages, write it.

A person can edit the block itself (every field, unknown keys and comments as they wrote them);
the text below it is kept byte for byte, and the write is one of the store's transactions.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from store import messages as msg
from store.durable import history
from store.durable.history import NewVersion
from store.errors import CouldNotChange
from store.format.fields import FileProblem
from store.format.parse import parse_text
from store.limits import Limits
from store.model import Memory, Scope
from store.write.rules import (
    check_encodable,
    check_size,
    length_refusal,
    refuse,
    secret_refusal,
    title_refusal,
)

if TYPE_CHECKING:
    from store.write.transaction import Transactions

_YAML_LINE = re.compile(r"\(line (\d+), column (\d+)\)")


def with_block(block: str, body: str) -> str:
    """A memory file's content from a frontmatter block and the body after its closing line."""
    block = block.replace("\r\n", "\n").strip("\n")
    return "---\n" + (block + "\n" if block else "") + "---\n" + body


def _as_in_block(message: str, block: str) -> str:
    """A YAML error's line number counted as the block was typed: ``with_block`` drops blank
    lines before the first field, which the editor's gutter still numbers."""
    dropped = len(block) - len(block.replace("\r\n", "\n").lstrip("\n"))
    if not dropped:
        return message
    return _YAML_LINE.sub(lambda m: f"(line {int(m.group(1)) + dropped}, column {m.group(2)})", message)


def block_problem(block: str, text: str, limits: Limits) -> str | None:
    """The store's own message for what is wrong with ``block`` over ``text``, or None.

    A file problem reads as the spec's problem message (``The frontmatter is not valid YAML:
    …``); a title or text over its limit reads as the change message.
    """
    content = with_block(block, f"\n{text}\n")
    if len(content.encode("utf-8", "surrogatepass")) > limits.file_max_bytes:  # before parsing
        return msg.FILE_TOO_LARGE.format(n=limits.file_max_bytes)
    parsed = parse_text(content, history.READ_LIMITS)
    if isinstance(parsed, FileProblem):
        return _as_in_block(parsed.message, block)
    refusal = title_refusal(parsed.fields.title, limits) or length_refusal(parsed.text, limits)
    return None if refusal is None else str(refusal)


def change_frontmatter(
    changes: Transactions,
    scope: Scope,
    memory_id: str,
    block: str,
    *,
    via: str = "settings",
    allow_secret: bool = False,
) -> Memory:
    """Write a new frontmatter block as given, the text below it kept byte for byte.

    Refused with ``check_frontmatter``'s message when the block is not a valid memory's,
    and like any change over a limit; a changed title is kept as a version.
    """
    check_encodable(block)
    with changes.changing(scope, memory_id, via=via) as now:
        doc = now.doc
        content = with_block(block, doc.body)
        data = content.encode("utf-8")
        limits = changes.sync.limits
        check_size(data, limits)
        parsed = parse_text(content, history.READ_LIMITS)
        if isinstance(parsed, FileProblem):
            # The spec's form for any other failure, naming the problem in the store's words.
            problem = _as_in_block(parsed.message, block).rstrip(".")
            raise CouldNotChange(f"the frontmatter block has a problem: {problem}")
        fields = parsed.fields
        refuse(title_refusal(fields.title, limits) or length_refusal(parsed.text, limits))
        if not allow_secret:
            refuse(secret_refusal(fields.title, parsed.text, before=(doc.fields.title, doc.text)))
        changes.record_outside(scope, memory_id, doc)
        if fields.enabled:
            before = (doc.fields.title, doc.text) if doc.fields.enabled else None
            changes.budget.check_tokens(scope, memory_id, before, (fields.title, parsed.text))
        version = None
        if fields.title != doc.fields.title:
            replaced = history.text_key(doc.fields.title, doc.text) if via == "chat" else None
            version = NewVersion(changes.now(), via, fields.title, parsed.text, fields.source, replaced)
        return changes.commit(scope, memory_id, data, seen=now.raw, version=version)
