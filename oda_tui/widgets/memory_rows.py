"""What one row of the memory list says, and how its columns share a width: plain ``Text``
cells laid out in one line, with no widget (the table paints these lines and caches them)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from store import Memory, entry_tokens

from ..text.format import count, local_moment
from ..text.glyphs import glyph
from ..text.safe import plain
from ..text.words import saved_by

# (key, label, width, right-aligned); the title (width 0) takes the room that is left.
COLUMNS: tuple[tuple[str, str, int, bool], ...] = (
    ("on", "On", 3, False),
    ("title", "Title", 0, False),
    ("by", "Who", 18, False),
    ("updated", "Updated", 8, False),
    ("length", "Chars", 5, True),
    ("tokens", "+Tokens", 7, True),
)
COLUMN_KEYS = tuple(key for key, *_ in COLUMNS)
#: Dropped in this order while the title would get less than ``ROOMY_TITLE`` cells.
DROPPABLE = ("length", "updated")
ROOMY_TITLE = 20
MIN_TITLE_WIDTH = 10
PADDING = 1


def visible_columns(total: int) -> list[tuple[int, int]]:
    """The columns shown in ``total`` cells, as (index in ``COLUMNS``, width), left to right."""
    shown = list(range(len(COLUMNS)))

    def title_room() -> int:
        fixed = sum(COLUMNS[i][2] + 2 * PADDING for i in shown if COLUMNS[i][2])
        return total - fixed - 2 * PADDING

    for key in DROPPABLE:
        if title_room() >= ROOMY_TITLE:
            break
        shown.remove(COLUMN_KEYS.index(key))
    title = max(MIN_TITLE_WIDTH, title_room())
    return [(i, COLUMNS[i][2] or title) for i in shown]


def row_cells(memory: Memory, duplicate: bool = False, draft: bool = False) -> tuple[Text, ...]:
    """The cells of one memory's row; every piece of user text is plain ``Text``.

    A duplicate (always on: only memories that are on count) shows "on≡", ≡ in yellow. The
    tokens are what the memory adds to the estimate of what a chat receives (``+21``), never
    the chat's total.
    """
    on = Text("on", style="bold green") if memory.enabled else Text("off", style="dim")
    if duplicate:
        on.append(glyph("duplicate"), style="bold yellow")
    by = Text(saved_by(memory.source), style="italic" if memory.saved_by_agent else "dim")
    title = plain(memory.title, style="" if memory.enabled else "dim")
    if draft:  # unsaved edits wait in the editor
        title = Text.assemble((glyph("draft") + " ", "bold yellow"), title, no_wrap=True, overflow="ellipsis")
    return (
        on,
        title,
        by,
        Text(local_moment(memory.updated or memory.created)),
        Text(count(len(memory.text))),
        Text("+" + count(entry_tokens(memory.title, memory.text))),
    )


def row_line(cells: Sequence[Text], width: int) -> Text:
    """The cells of one row (or the header) in ``width`` cells: the columns that fit, each
    truncated with an ellipsis and padded to its width."""
    line = Text(no_wrap=True, end="")
    pad = " " * PADDING
    for index, column_width in visible_columns(width):
        cell = cells[index].copy()
        cell.truncate(column_width, overflow="ellipsis")
        if COLUMNS[index][3]:
            cell.pad_left(column_width - cell.cell_len)
        else:
            cell.pad_right(column_width - cell.cell_len)
        line.append(pad)
        line.append_text(cell)
        line.append(pad)
    return line
