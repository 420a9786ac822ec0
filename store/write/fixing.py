"""A file the person fixed by hand (a problem file, an ignored file or ``settings.yaml``),
written as one of the store's transactions.

Under the store-wide lock the file is read as it is now and compared with what the person's
screen showed (``seen``). When another program saved it since, its text is kept first: as an
``external`` version when it is a memory, and otherwise the fix is refused, so the outside
text is never replaced. A fix that makes the file a memory is kept as a ``settings`` version
(the spec's source for a memory edited in the app's settings) before the file is swapped in.
Once the file is in place nothing refuses the change: the store's picture takes the file in,
and a look that fails then leaves it for the next ``refresh``.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING

from store import messages as msg
from store.disk import safe_io
from store.disk.layout import GLOBAL_DIR, WORKSPACES_DIR, history_dir, is_valid_key, memory_id_of
from store.durable import commit, history
from store.durable.commit import read_limited
from store.durable.history import NewVersion
from store.errors import CouldNotChange, StoreError
from store.format.fields import Document
from store.format.parse import parse_bytes
from store.limits import Limits
from store.model import Memory, Scope
from store.write.rules import refuse, secret_refusal

if TYPE_CHECKING:
    from store.write.transaction import Transactions


def memory_file_of(root: Path, path: Path) -> tuple[Scope, str] | None:
    """The scope and id of the memory file ``path`` (``global/<id>.md`` or
    ``workspaces/<key>/<id>.md``), None for any other file of the store."""
    parts = safe_io.relative_parts(root, path)
    if len(parts) == 2 and parts[0] == GLOBAL_DIR:
        scope: Scope = None
    elif len(parts) == 3 and parts[0] == WORKSPACES_DIR and is_valid_key(parts[1]):
        scope = parts[1]
    else:
        return None
    memory_id = memory_id_of(parts[-1])
    return None if memory_id is None else (scope, memory_id)


def write_fixed(
    changes: Transactions, path: Path, data: bytes, *, seen: bytes | None, allow_secret: bool
) -> Memory | None:
    """Write ``data`` as the file at ``path``, which the person's screen showed as ``seen``
    (None: there was no file). The memory the file is now, None when it is not one."""
    if not allow_secret:
        fixed = parse_bytes(data, history.READ_LIMITS)
        if isinstance(fixed, Document):
            refuse(secret_refusal(fixed.fields.title, fixed.text, before=None))
    where = memory_file_of(changes.root, path)
    scope, memory_id = where if where is not None else (None, None)
    with changes.transaction(scope, memory_id):
        limits = changes.sync.limits
        # Large enough for what the screen showed: a file over the limit is what is being fixed.
        wide = dataclasses.replace(limits, file_max_bytes=max(limits.file_max_bytes, len(seen or b"")))
        now = read_limited(changes.root, path, wide.file_max_bytes)
        if now is not None and now != seen and (where is None or not _is_memory(now, wide)):
            raise CouldNotChange(msg.SAVED_BY_ANOTHER)
        version = None
        hdir = None
        if where is not None and memory_id is not None:
            hdir = history_dir(changes.root, scope, memory_id)
            version = _version(changes, scope, memory_id, data)
        # Compared with what the screen read: a memory another program saved since is kept as
        # an ``external`` version, ordered before the fix's own.
        against = None if now is None else (seen or b"")
        commit.commit(changes.root, path, data, seen=against, hdir=hdir, version=version, limits=wide)
        return _taken_in(changes, path, scope, memory_id)


def _is_memory(data: bytes, limits: Limits) -> bool:
    return isinstance(parse_bytes(data, limits), Document)


def _version(changes: Transactions, scope: Scope, memory_id: str, data: bytes) -> NewVersion | None:
    """The ``settings`` version of a fix that makes the file a memory (checked against the
    chat's token limit like any change); None while it is still a problem."""
    doc = parse_bytes(data, changes.sync.limits)
    if not isinstance(doc, Document):
        return None
    if doc.fields.enabled:
        changes.budget.check_tokens(scope, memory_id, None, (doc.fields.title, doc.text))
    return NewVersion(changes.now(), "settings", doc.fields.title, doc.text, doc.fields.source)


def _taken_in(changes: Transactions, path: Path, scope: Scope, memory_id: str | None) -> Memory | None:
    """The file is in place: the picture reads it again. A look that fails now refuses nothing
    (the change is made); the picture forgets the file, and the next ``refresh`` reads it."""
    try:
        changes.sync.reload(path)
    except (OSError, StoreError):
        try:
            changes.sync.loaded().drop(str(path))
        except (OSError, StoreError):
            pass
        return None
    if memory_id is None:
        return None
    item = changes.sync.loaded().by_scope.get(scope, {}).get(memory_id)
    return item if isinstance(item, Memory) else None
