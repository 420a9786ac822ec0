"""The pure rules a change is checked against: limits, encodable text, known ways and keys.

Each returns the typed refusal (or raises it); none touches the disk.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from store import messages as msg
from store.checks.secrets import new_secret_kinds
from store.disk.layout import is_valid_key
from store.errors import CouldNotChange, LooksSecret, MissingField, StoreError, TooLong
from store.format.fields import FIELD_ORDER, Fields, normalize_text, normalize_title
from store.format.render import render_new
from store.limits import Limits
from store.model import Scope

#: The ways a change can come (a version's source, for the changes the store makes itself).
VIAS = ("chat", "settings", "restore", "undo")


def title_refusal(title: str, limits: Limits) -> StoreError | None:
    """Why a title would be refused (after normalising), or None."""
    title = normalize_title(title)
    if not title:
        return MissingField("title")
    if len(title) > limits.title_max_chars:
        return TooLong("title", limits.title_max_chars, len(title))
    return None


def text_refusal(text: str, limits: Limits) -> StoreError | None:
    """Why a text would be refused (after normalising), or None."""
    text = normalize_text(text)
    if not text:
        return MissingField("text")
    return length_refusal(text, limits)


def length_refusal(text: str, limits: Limits) -> StoreError | None:
    """Why a text is too long, or None (a kept text is checked as it is, not normalised)."""
    if len(text) > limits.text_max_chars:
        return TooLong("text", limits.text_max_chars, len(text))
    return None


def secret_refusal(title: str, text: str, *, before: tuple[str, str] | None) -> StoreError | None:
    """Refusal for secret-looking text ``before`` (the current title and text) did not have."""
    kinds = new_secret_kinds((title, text), before)
    return LooksSecret(kinds) if kinds else None


def checked_new(
    title: str, text: str, limits: Limits, *, allow_secret: bool = False, session_id: str | None = None
) -> tuple[str, str]:
    """A new memory's title and text, normalised; refused with the spec's messages in this order:
    a character that cannot be saved, the title, the text, then secret-looking text (unless
    ``allow_secret``). ``MemoryStore.create`` and an import's dry run both check so."""
    check_encodable(title, text, session_id or "")
    title, text = normalize_title(title), normalize_text(text)
    refuse(title_refusal(title, limits) or text_refusal(text, limits))
    if not allow_secret:
        refuse(secret_refusal(title, text, before=None))
    return title, text


def checked_edit(title: str | None, text: str | None, limits: Limits) -> tuple[str | None, str | None]:
    """An edit's new title and text (None: kept as they are), normalised; refused with the
    spec's messages in ``checked_new``'s order (a character that cannot be saved, the title,
    the text; the secret check needs the text it replaces, so the edit makes it)."""
    check_encodable(title or "", text or "")
    if title is not None:
        title = normalize_title(title)
        refuse(title_refusal(title, limits))
    if text is not None:
        text = normalize_text(text)
        refuse(text_refusal(text, limits))
    return title, text


def new_file_bytes(fields: Fields, text: str, limits: Limits) -> bytes:
    """A new memory file's bytes, refused when they would be larger than the limit."""
    data = render_new(fields, text).encode("utf-8")
    check_size(data, limits)
    return data


def check_size(data: bytes, limits: Limits) -> None:
    """Refuse a file that would be larger than the limit."""
    if len(data) > limits.file_max_bytes:
        raise CouldNotChange(msg.FILE_WOULD_BE_TOO_LARGE.format(n=limits.file_max_bytes))


def check_encodable(*values: str) -> None:
    """Refuse text that cannot be written as UTF-8 (a lone surrogate from a tool call)."""
    for value in values:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise CouldNotChange(
                f"the text has a character that cannot be saved (U+{ord(value[exc.start]):04X})"
            ) from None


_EXTRA_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}\Z")


def checked_extra(extra: Mapping[str, str] | None) -> dict[str, str]:
    """Frontmatter keys of the caller's own (e.g. where an import came from) to write with a
    memory: each a plain name that is none of the memory's fields, with a one-line text."""
    found: dict[str, str] = {}
    for key, value in (extra or {}).items():
        if not isinstance(key, str) or not _EXTRA_KEY.match(key) or key in FIELD_ORDER:
            raise CouldNotChange(f'"{key}" is not a frontmatter key a caller can set')
        if not isinstance(value, str) or "\n" in value or "\r" in value:
            raise CouldNotChange(f'the frontmatter key "{key}" needs a one-line text')
        check_encodable(value)
        found[key] = value
    return found


def check_via(via: str) -> None:
    """Refuse a way of changing that is not one of ``VIAS``."""
    if via not in VIAS:
        raise CouldNotChange(f'"{via}" is not a way a change can come')


def check_scope(scope: Scope) -> None:
    """Refuse a workspace key that is not valid (None, the global set, always is)."""
    if scope is not None and (not isinstance(scope, str) or not is_valid_key(scope)):
        raise CouldNotChange(msg.BAD_WORKSPACE_KEY.format(key=scope))


def refuse(refusal: StoreError | None) -> None:
    """Raise ``refusal`` when there is one."""
    if refusal is not None:
        raise refusal
