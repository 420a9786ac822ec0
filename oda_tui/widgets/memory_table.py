"""The memory list of one scope, updated in place so the cursor and scroll stay put."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.binding import Binding
from textual.events import Resize
from textual.message import Message
from textual.widgets import DataTable
from textual.widgets.data_table import RowDoesNotExist

from store import estimate_tokens
from store.model import Memory

from ..format import count, local_moment
from ..safe import plain

# (key, label, width); the title takes what is left.
COLUMNS: tuple[tuple[str, str, int], ...] = (
    ("on", "On", 3),
    ("title", "Title", 0),
    ("by", "By", 5),
    ("updated", "Updated", 8),
    ("length", "Chars", 5),
    ("tokens", "Tokens", 6),
)
MIN_TITLE_WIDTH = 10
# Beyond this many removed rows a full rebuild is cheaper than remove_row (O(n) each).
REBUILD_THRESHOLD = 64


def row_cells(memory: Memory) -> tuple[Text, ...]:
    """The cells of one memory's row; every piece of user text is plain ``Text``."""
    on = Text("on", style="bold green") if memory.enabled else Text("off", style="dim")
    # "agent" reads "saved by the agent" under the "By" header; the editor spells it out.
    by = Text("agent", style="italic") if memory.saved_by_agent else Text("you", style="dim")
    return (
        on,
        plain(memory.title, style="" if memory.enabled else "dim"),
        by,
        Text(local_moment(memory.updated or memory.created)),
        Text(count(len(memory.text)), justify="right"),
        Text(count(estimate_tokens(f"## {memory.title}\n\n{memory.text}\n")), justify="right"),
    )


class MemoryTable(DataTable[Text]):
    """One row per memory, keyed by id."""

    BINDINGS = [
        Binding("enter", "select_cursor", "Edit", id="memory.edit"),
    ]

    class MemoryHighlighted(Message):
        """The cursor moved onto a memory (None: the list is empty)."""

        def __init__(self, memory_id: str | None) -> None:
            super().__init__()
            self.memory_id = memory_id

    class MemoryChosen(Message):
        """Enter on a memory: open it in the editor."""

        def __init__(self, memory_id: str) -> None:
            super().__init__()
            self.memory_id = memory_id

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self._shown: list[Memory] = []
        #: How many times the rows were (re)painted; tests use it to count repaints.
        self.paints = 0

    def on_mount(self) -> None:
        for key, label, width in COLUMNS:
            self.add_column(Text(label), key=key, width=width or MIN_TITLE_WIDTH)
        self._fit_title()

    def on_resize(self, event: Resize) -> None:
        self._fit_title()

    def _fit_title(self) -> None:
        fixed = sum(w + 2 * self.cell_padding for _, _, w in COLUMNS if w)
        room = self.scrollable_content_region.width - fixed - 2 * self.cell_padding
        column = self.columns.get("title")  # type: ignore[call-overload]
        if column is None:
            return
        column.width = max(MIN_TITLE_WIDTH, room)
        column.auto_width = False
        self._require_update_dimensions = True
        self.refresh()

    @property
    def memory_ids(self) -> list[str]:
        """The ids shown, top to bottom."""
        return [m.id for m in self._shown]

    @property
    def current_id(self) -> str | None:
        """The id under the cursor, or None when the list is empty."""
        if not self._shown or self.cursor_row < 0 or self.cursor_row >= len(self._shown):
            return None
        return self._shown[self.cursor_row].id

    def show(self, memories: Sequence[Memory], *, keep: str | None = None) -> None:
        """Show these memories, touching only rows that changed.

        The cursor stays on ``keep`` (or on the memory it was on) when that is still listed,
        and no highlight message is posted for the move; the scroll position is kept.
        """
        new = list(memories)
        keep = keep if keep is not None else self.current_id
        old_ids = self.memory_ids
        new_ids = [m.id for m in new]
        with self.prevent(DataTable.RowHighlighted):
            if old_ids == new_ids:
                changed = [(o, n) for o, n in zip(self._shown, new, strict=True) if o != n]
                for _, memory in changed:
                    self._update_row(memory)
                self._shown = new
                if not changed:
                    return
            else:
                self._apply_list_change(new, old_ids, new_ids)
            self._place_cursor(keep)
        self.paints += 1

    def _apply_list_change(self, new: list[Memory], old_ids: list[str], new_ids: list[str]) -> None:
        new_set = set(new_ids)
        removed = [i for i in old_ids if i not in new_set]
        kept_old = [i for i in old_ids if i in new_set]
        appended_only = new_ids[: len(kept_old)] == kept_old
        if appended_only and len(removed) <= REBUILD_THRESHOLD:
            old_by_id = {m.id: m for m in self._shown}
            for memory_id in removed:
                self.remove_row(memory_id)
            for memory in new[: len(kept_old)]:
                if old_by_id[memory.id] != memory:
                    self._update_row(memory)
            for memory in new[len(kept_old) :]:
                self.add_row(*row_cells(memory), key=memory.id)
        else:
            scroll_y = self.scroll_y
            self.clear()
            for memory in new:
                self.add_row(*row_cells(memory), key=memory.id)
            self.scroll_to(y=scroll_y, animate=False, immediate=True)
        self._shown = new

    def _update_row(self, memory: Memory) -> None:
        for (key, _, _), cell in zip(COLUMNS, row_cells(memory), strict=True):
            self.update_cell(memory.id, key, cell)

    def _place_cursor(self, memory_id: str | None) -> None:
        if memory_id is None or not self._shown:
            return
        try:
            index = self.get_row_index(memory_id)
        except RowDoesNotExist:
            return
        if index != self.cursor_row:
            self.move_cursor(row=index, animate=False, scroll=True)

    def select_memory(self, memory_id: str) -> None:
        """Put the cursor on a memory without announcing it."""
        with self.prevent(DataTable.RowHighlighted):
            self._place_cursor(memory_id)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self.post_message(self.MemoryHighlighted(event.row_key.value))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.row_key.value is not None:
            self.post_message(self.MemoryChosen(event.row_key.value))
