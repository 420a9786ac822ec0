"""The in-memory picture of the disk: what each memory file is, by path and by scope."""

from __future__ import annotations

import bisect
import gc
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from operator import attrgetter
from pathlib import Path
from typing import Any

from store.checks.chat import entry_chars
from store.model import Ignored, Memory, Problem, Scope
from store.read.scan import Signature


class Picture:
    """The in-memory picture of the disk: what each file is, by path and by scope.

    Paths are keyed as strings: hashing a fresh ``Path`` costs more than reading its stat.
    """

    def __init__(self) -> None:
        self.sigs: dict[str, Signature] = {}
        self.items: dict[str, Memory | Problem] = {}
        self.by_scope: dict[Scope, dict[str, Memory | Problem]] = {None: {}}
        self.ignored: dict[str, Ignored] = {}
        # Links and other refused entries met in the history area (it is not scanned up front).
        self.history_ignored: dict[str, Ignored] = {}
        self.workspaces: dict[str, Path] = {}
        self.ordered: dict[Scope, list[Memory]] = {}
        self.chat_sums: dict[Scope, tuple[int, int]] = {}
        self.derived: dict[str, Any] = {}  # whole-store results (duplicates…), until any change

    def put(self, path: str, sig: Signature, item: Memory | Problem) -> None:
        """Take in what one file is now."""
        self.sigs[path] = sig
        before = self.items.get(path)
        self.items[path] = item
        scope_items = self.by_scope.setdefault(item.scope, {})
        replaced = scope_items.get(item.id)
        scope_items[item.id] = item
        in_place = self._reorder_in_place(replaced, item)
        self.touch(item.scope, sums_kept=True, order_kept=in_place)
        # The chat's sums follow the one entry that changed (a sum over 10,000 otherwise).
        if before is not None and before is not replaced:
            self.chat_sums.pop(item.scope, None)
        self._count(replaced, -1)
        self._count(item, +1)

    def drop(self, path: str) -> bool:
        """Forget one file; True when it was known."""
        item = self.items.pop(path, None)
        self.sigs.pop(path, None)
        if item is None:
            return False
        scope_items = self.by_scope.get(item.scope, {})
        if scope_items.get(item.id) is item:
            del scope_items[item.id]
            self._count(item, -1)
        self.touch(item.scope, sums_kept=True)
        return True

    def _reorder_in_place(self, replaced: Memory | Problem | None, item: Memory | Problem) -> bool:
        """Put ``item`` in its scope's order where it belongs, when that is cheap: in the place
        of the memory it replaces (an edit keeps ``created``), or by bisection for a new dated
        one. Sorting a set of thousands again for every change is what a chat's write would
        otherwise pay. False when the order must be made again."""
        ordered = self.ordered.get(item.scope)
        if ordered is None or not isinstance(item, Memory) or isinstance(replaced, Problem):
            return False
        if replaced is not None:
            if replaced.created != item.created:  # the same id: the same key, the same place
                return False
            for index, memory in enumerate(ordered):
                if memory is replaced:
                    ordered[index] = item
                    return True
            return False
        if item.created is None:
            return False
        first_dated = bisect.bisect_left(ordered, True, key=_is_dated)
        try:
            bisect.insort(ordered, item, lo=first_dated, key=_BY_CREATED_ID)
        except TypeError:  # a date with a zone beside one without: the order is made again
            return False
        return True

    def touch(self, scope: Scope, *, sums_kept: bool = False, order_kept: bool = False) -> None:
        """Something in ``scope`` changed: drop what was derived from it (but the chat's sums,
        when the caller keeps them up to date itself, and the order, when the caller put the
        one memory that changed in its place)."""
        if not order_kept:
            self.ordered.pop(scope, None)
        if not sums_kept:
            self.chat_sums.pop(scope, None)
        self.derived.clear()

    def _count(self, item: Memory | Problem | None, sign: int) -> None:
        """Add (+1) or take away (-1) what ``item`` adds to its scope's chat sums, if known."""
        if not isinstance(item, Memory) or not item.enabled:
            return
        found = self.chat_sums.get(item.scope)
        if found is not None:
            self.chat_sums[item.scope] = (
                found[0] + sign * entry_chars(item.title, item.text),
                found[1] + sign,
            )


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Hold off the cyclic garbage collector while a start builds thousands of records.

    None of them can be part of a cycle, yet every 700 new ones would trigger a collection
    that walks them all again (10 to 20% of a start at 10,000 files).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def in_order(items: Iterable[Memory | Problem]) -> list[Memory]:
    """The memories among ``items`` by (created, id); those without ``created`` first."""
    undated: list[Memory] = []
    dated: list[Memory] = []
    for item in items:
        if isinstance(item, Memory):
            (undated if item.created is None else dated).append(item)
    undated.sort(key=_BY_ID)
    dated.sort(key=_BY_CREATED_ID)  # C-level keys: a start sorts every scope once
    return undated + dated


_BY_ID = attrgetter("id")
_BY_CREATED_ID = attrgetter("created", "id")


def _is_dated(memory: Memory) -> bool:
    return memory.created is not None
