"""The memory list of one scope: a virtual table that paints only the rows on screen (what a row
says, and which columns fit, is ``memory_rows``).

Built on the Line API rather than ``DataTable`` so that a scope of 10,000 memories switches,
filters and repaints at once; replacing the rows keeps the cursor on the same memory and the
scroll position where it was.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from store import Memory

from ..keys.actions import Place
from ..keys.bindings import apply_person_keys, bindings
from ..text.format import page_step, position
from .memory_rows import COLUMN_KEYS, COLUMNS, row_cells, row_line


class MemoryTable(ScrollView, can_focus=True):
    """One row per memory, a header line, and a row cursor."""

    DEFAULT_CSS = """
    MemoryTable {
        height: 1fr;
        overflow-x: hidden;
        background: $surface;
        border: round $panel-lighten-2;
        border-title-color: $text-muted;
        scrollbar-size-vertical: 1;
    }
    MemoryTable:focus {
        border: round $primary;
    }
    MemoryTable > .memory-table--header {
        text-style: bold;
        background: $panel;
        color: $foreground;
    }
    MemoryTable > .memory-table--zebra {
        background: $surface-darken-1 40%;
    }
    MemoryTable > .memory-table--cursor {
        background: $block-cursor-background;
        color: $block-cursor-foreground;
        text-style: $block-cursor-text-style;
    }
    MemoryTable > .memory-table--cursor-blurred {
        background: $block-cursor-blurred-background;
    }
    """

    COMPONENT_CLASSES = {
        "memory-table--header",
        "memory-table--cursor",
        "memory-table--cursor-blurred",
        "memory-table--zebra",
    }

    BINDINGS = bindings(Place.LIST) + bindings(Place.LISTS)

    cursor_row: reactive[int] = reactive(0, always_update=False, repaint=False)
    #: Whether any memory is listed: the keys that act on a memory are offered only then, and
    #: Textual asks ``check_action`` again whenever it changes (``bindings=True``).
    has_rows: reactive[bool] = reactive(False, repaint=False, bindings=True)

    class MemoryHighlighted(Message):
        """The person moved the cursor onto a memory."""

        def __init__(self, memory_id: str | None) -> None:
            super().__init__()
            self.memory_id = memory_id

    class MemoryChosen(Message):
        """Enter (or a double click) on a memory: open it in the editor."""

        def __init__(self, memory_id: str) -> None:
            super().__init__()
            self.memory_id = memory_id

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        apply_person_keys(self)
        self._shown: list[Memory] = []
        self._index: dict[str, int] = {}
        self._cells: dict[str, tuple[Memory, tuple[Text, ...]]] = {}
        #: Ids shown with the duplicate mark (``mark_duplicates``).
        self.duplicates: frozenset[str] = frozenset()
        #: The memory with unsaved edits in the editor, marked on its row (``mark_draft``).
        self.draft_id: str | None = None
        #: Bumped each time the rows change; ``painted_generation`` catches up when a frame
        #: paints them (the benchmark times "shown" by it; tests can count repaints with it).
        self.shown_generation = 0
        self.painted_generation = 0
        #: Painted lines by memory id: (cells, width, strip); a repaint reuses them.
        self._strips: dict[str, tuple[tuple[Text, ...], int, Strip]] = {}
        self._frame_styles: tuple[Style, ...] | None = None

    # -- data ----------------------------------------------------------------------------

    @property
    def memory_ids(self) -> list[str]:
        """The ids shown, top to bottom."""
        return [m.id for m in self._shown]

    @property
    def row_count(self) -> int:
        """How many memories are listed."""
        return len(self._shown)

    @property
    def current_id(self) -> str | None:
        """The id under the cursor, or None when the list is empty."""
        if 0 <= self.cursor_row < len(self._shown):
            return self._shown[self.cursor_row].id
        return None

    def mark_duplicates(self, ids: frozenset[str]) -> None:
        """Mark these memories (of the scope shown) as duplicates; repaints when that changes."""
        if ids == self.duplicates:
            return
        for memory_id in ids ^ self.duplicates:
            self._cells.pop(memory_id, None)
        self.duplicates = ids
        self.refresh()

    def mark_draft(self, memory_id: str | None) -> None:
        """Mark the row of the memory with unsaved edits (None: no row is marked)."""
        if memory_id == self.draft_id:
            return
        for old in (self.draft_id, memory_id):
            if old is not None:
                self._cells.pop(old, None)
        self.draft_id = memory_id
        self.refresh()

    def has_memory(self, memory_id: str) -> bool:
        """True when the memory is listed."""
        return memory_id in self._index

    def cells(self, memory: Memory) -> tuple[Text, ...]:
        """A memory's cells, built once per version of the memory."""
        cached = self._cells.get(memory.id)
        if cached is not None and cached[0] == memory:
            return cached[1]
        cells = row_cells(memory, memory.id in self.duplicates, memory.id == self.draft_id)
        self._cells[memory.id] = (memory, cells)
        return cells

    def cell_text(self, memory_id: str, column: str) -> str:
        """The plain text of one cell (for tests and screen readers of the code)."""
        memory = self._shown[self._index[memory_id]]
        return self.cells(memory)[COLUMN_KEYS.index(column)].plain

    def show(self, memories: Sequence[Memory], *, keep: str | None = None) -> None:
        """Show these memories; repaints only when something differs.

        The cursor stays on ``keep`` (else on the memory it was on) when still listed, without
        a highlight message; the scroll position is kept.
        """
        new = list(memories)
        if new == self._shown:
            return
        keep = keep if keep is not None else self.current_id
        self._shown = new
        self._index = {m.id: i for i, m in enumerate(new)}
        if len(self._cells) > 4 * len(new) + 1000:
            self._cells = {k: v for k, v in self._cells.items() if k in self._index}
        self._update_virtual_size()
        row = self._index.get(keep) if keep is not None else None
        if row is None:
            row = min(self.cursor_row, max(len(new) - 1, 0))
        self._set_cursor(row, announce=False)
        self.shown_generation += 1
        self.refresh()
        self.has_rows = bool(new)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Edit (Enter) is offered only when there is a memory to edit.
        return action != "choose" or self.current_id is not None

    def select_memory(self, memory_id: str) -> None:
        """Put the cursor on a memory without announcing it."""
        row = self._index.get(memory_id)
        if row is not None:
            self._set_cursor(row, announce=False)

    def reset_cursor(self) -> None:
        """Back to the first row, scrolled to the top, without announcing it."""
        self._set_cursor(0, announce=False)
        self.scroll_to(y=0, animate=False, immediate=True)

    # -- cursor --------------------------------------------------------------------------

    def _set_cursor(self, row: int, *, announce: bool) -> None:
        row = max(0, min(row, len(self._shown) - 1)) if self._shown else 0
        moved = row != self.cursor_row
        self.set_reactive(MemoryTable.cursor_row, row)
        self._scroll_cursor_visible()
        self.refresh()
        self.border_subtitle = position(row, len(self._shown))
        if announce and moved:
            self.post_message(self.MemoryHighlighted(self.current_id))

    def _scroll_cursor_visible(self) -> None:
        visible = max(self.scrollable_content_region.height - 1, 1)
        top = round(self.scroll_y)
        if self.cursor_row < top:
            self.scroll_to(y=self.cursor_row, animate=False, immediate=True)
        elif self.cursor_row >= top + visible:
            self.scroll_to(y=self.cursor_row - visible + 1, animate=False, immediate=True)

    def action_cursor(self, delta: int) -> None:
        """Move the cursor up or down."""
        self._set_cursor(self.cursor_row + delta, announce=True)

    def action_page(self, pages: float) -> None:
        """Move the cursor ``pages`` pages up (negative) or down: ``1``, or ``0.5`` for half one."""
        page = max(self.scrollable_content_region.height - 2, 1)
        self._set_cursor(self.cursor_row + page_step(pages, page), announce=True)

    def action_jump(self, row: int) -> None:
        """Go to the first (0) or last (-1) row."""
        self._set_cursor(len(self._shown) - 1 if row < 0 else row, announce=True)

    def action_choose(self) -> None:
        """Open the memory under the cursor."""
        memory_id = self.current_id
        if memory_id is not None:
            self.post_message(self.MemoryChosen(memory_id))

    async def _on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y < 1:
            return
        row = round(self.scroll_y) + offset.y - 1
        if not 0 <= row < len(self._shown):
            return
        self._set_cursor(row, announce=True)
        if event.chain >= 2:
            self.action_choose()

    # -- painting ------------------------------------------------------------------------

    def _update_virtual_size(self) -> None:
        self.virtual_size = Size(self.scrollable_content_region.width, len(self._shown) + 1)

    def on_resize(self, event: events.Resize) -> None:
        self._update_virtual_size()
        self._scroll_cursor_visible()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def _line(self, cells: Sequence[Text], width: int, style: Style | None) -> Strip:
        segments = list(row_line(cells, width).render(self.app.console))
        strip = Strip(segments).crop_extend(0, width, None)
        return strip.apply_style(style) if style else strip

    def render_lines(self, crop: Region) -> list[Strip]:
        self._frame_styles = None  # the styles may have changed since the last frame
        return super().render_lines(crop)

    def _styles(self) -> tuple[Style, ...]:
        """This frame's base, header, zebra, cursor and blurred-cursor styles."""
        if self._frame_styles is None:
            component = self.get_component_rich_style
            self._frame_styles = (
                self.rich_style,
                component("memory-table--header"),
                component("memory-table--zebra"),
                component("memory-table--cursor"),
                component("memory-table--cursor-blurred"),
            )
        return self._frame_styles

    def render_line(self, y: int) -> Strip:
        self.painted_generation = self.shown_generation
        width = self.scrollable_content_region.width
        base, header_style, zebra, cursor, blurred = self._styles()
        if y == 0:
            header = tuple(Text(label) for _, label, _, _ in COLUMNS)
            return self._line(header, width, base + header_style)
        row = round(self.scroll_y) + y - 1
        if row >= len(self._shown):
            return Strip([Segment(" " * width, base)], width)
        memory = self._shown[row]
        style = base
        if row % 2:
            style += zebra
        if row == self.cursor_row:
            style += cursor if self.has_focus else blurred
        cells = self.cells(memory)
        cached = self._strips.get(memory.id)
        if cached is not None and cached[0] is cells and cached[1] == width:
            strip = cached[2]
        else:
            # Cached unstyled: a row that moves (zebra) or takes the cursor is not rebuilt.
            strip = self._line(cells, width, None)
            if len(self._strips) > 2000:
                self._strips.clear()
            self._strips[memory.id] = (cells, width, strip)
        return strip.apply_style(style) if style else strip
