"""The browse pane of the main screen: the scopes, the filter, the memory list, the token meter
and the hygiene marks. It paints snapshots; choosing what to open is the screen's business."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Input, Static

from store import scope_label
from store.model import Memory, Scope
from store.search import matches, query_words

from ..session.snapshot import Snapshot, empty_scope_hint
from ..text.safe import clean_line
from ..widgets.memory_table import MemoryTable
from ..widgets.scope_list import ScopeList
from ..widgets.token_meter import TokenMeter
from .hygiene_marks import HygieneMarks


class BrowsePane(HygieneMarks, Horizontal):
    """Scopes beside the memory list of the selected scope."""

    class SummaryChanged(Message):
        """The one-line summary of the store (root, problems, marks) changed."""

        def __init__(self, summary: str) -> None:
            super().__init__()
            self.summary = summary

    def __init__(self, scope: Scope, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.scope: Scope = scope
        self.snapshot: Snapshot | None = None
        self.filter_words: list[str] = []
        self.root_label = ""

    def compose(self) -> ComposeResult:
        yield ScopeList(id="scopes")
        with Vertical(id="list-pane"):
            yield Input(id="filter", placeholder="Filter by title and text")
            yield MemoryTable(id="memories")
            yield Static("", id="list-empty", markup=False)
            yield TokenMeter(id="meter")

    def on_mount(self) -> None:
        self.scopes.border_title = "Scopes"
        self.table.border_title = "Memories"
        self.query_one("#list-empty", Static).update("Reading the memory folder…")

    @property
    def table(self) -> MemoryTable:
        return self.query_one(MemoryTable)

    @property
    def scopes(self) -> ScopeList:
        return self.query_one(ScopeList)

    @property
    def filter_input(self) -> Input:
        return self.query_one("#filter", Input)

    # -- painting ------------------------------------------------------------------------

    def show(self, snapshot: Snapshot, *, keep: str | None) -> None:
        """Paint a snapshot, touching only what changed and keeping cursor and scroll."""
        self.snapshot = snapshot
        if self.scope not in {s.scope for s in snapshot.scopes}:
            self.scope = None  # its folder went away
        self.scopes.show(snapshot.scopes, self.scope)
        self.show_list(keep=keep)
        self.update_meter()
        self.update_summary()
        self.schedule_marks()

    def listed(self) -> list[Memory]:
        """The memories listed: the selected scope's, filtered."""
        if self.snapshot is None:
            return []
        memories = self.snapshot.memories.get(self.scope, ())
        if not self.filter_words:
            return list(memories)
        return [m for m in memories if matches(m, self.filter_words)]

    def show_list(self, *, keep: str | None = None, reset: bool = False) -> None:
        """List the selected scope's memories; ``reset`` goes back to the first row."""
        visible = self.listed()
        table = self.table
        self.show_marks()
        if reset:
            table.show(visible, keep=visible[0].id if visible else None)
            table.reset_cursor()
        else:
            table.show(visible, keep=keep)
        total = len(self.snapshot.memories.get(self.scope, ())) if self.snapshot else 0
        label = scope_label(self.scope)
        if self.filter_words:
            table.border_title = f"Memories in {label} · {len(visible)} of {total} match"
        else:
            table.border_title = f"Memories in {label} · {total}"
        empty = self.query_one("#list-empty", Static)
        if not visible:
            if self.filter_words:
                empty.update("No memory matches the filter. Press Escape to clear it.")
            elif (
                self.snapshot is not None
                and not any(self.snapshot.memories.values())
                and not self.snapshot.problems
            ):
                empty.update(
                    "There are no memories yet. Press n to add the first one: "
                    "give it a title and a text, then press Ctrl+S to save."
                )
            elif self.snapshot is not None:
                empty.update(empty_scope_hint(self.snapshot, self.scope))
        self.query_one("#list-pane").set_class(not visible, "-empty")

    def show_error(self, text: str) -> None:
        """Say in the list that the store could not be read."""
        self.query_one("#list-empty", Static).update(text)

    def update_meter(self) -> None:
        """The tokens a chat in the selected scope receives, against the limit."""
        if self.snapshot is None:
            return
        tokens, chat_scope = self.snapshot.meter(self.scope)
        self.query_one(TokenMeter).show(tokens, self.snapshot.limits.chat_max_tokens, chat_scope, self.scope)

    def update_summary(self) -> None:
        """Announce the store's one-line summary: the root, problems, and the marks."""
        if self.snapshot is None:
            return
        parts = [self.root_label]
        problems = len(self.snapshot.problems)
        if problems:
            parts.append(f"{problems} problem file{'s' if problems != 1 else ''} (press !)")
        if self.snapshot.settings_problems:
            parts.append("settings.yaml has problems")
        parts += self.marks_subtitle()
        self.post_message(self.SummaryChanged(" · ".join(parts)))

    # -- moving ----------------------------------------------------------------------------

    def select_scope(self, scope: Scope, *, keep: str | None = None) -> None:
        """Show another scope's memories (the first row, unless ``keep`` names one)."""
        self.scope = scope
        self.scopes.select_scope(scope)
        if keep is None:
            self.show_list(reset=True)
        else:
            self.show_list(keep=keep)
            self.table.select_memory(keep)
        self.update_meter()

    def reveal(self, scope: Scope, memory_id: str) -> bool:
        """Put the cursor on a memory of any scope, clearing a filter that hides it; False when
        the memory is no longer there."""
        memory = self.snapshot.find(scope, memory_id) if self.snapshot is not None else None
        if memory is None:
            return False
        if self.filter_words and not matches(memory, self.filter_words):
            self.clear_filter()
        self.select_scope(scope, keep=memory_id)
        return True

    def find(self, memory_id: str | None) -> Memory | None:
        """A memory of the selected scope by id."""
        if memory_id is None or self.snapshot is None:
            return None
        return self.snapshot.find(self.scope, memory_id)

    def current(self) -> Memory | None:
        """The memory under the list's cursor."""
        return self.find(self.table.current_id)

    def no_row_hint(self) -> str | None:
        """What to say where no memory is under the cursor (None before the first snapshot)."""
        if self.snapshot is None:
            return None
        if self.snapshot.memories.get(self.scope):
            return "No memory matches the filter."
        return empty_scope_hint(self.snapshot, self.scope)

    def show_filter(self) -> None:
        """Show the filter and type into it."""
        self.filter_input.add_class("-shown")
        self.filter_input.focus()

    def clear_filter(self, *, hide: bool = False) -> None:
        """Empty the filter (and hide it)."""
        if self.filter_input.value:
            self.filter_input.value = ""
        self.filter_words = []
        if hide:
            self.filter_input.remove_class("-shown")

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        # Not stopped: the screen then opens the row the filter leaves under the cursor.
        self.filter_words = query_words(event.value)
        self.show_list()

    @on(Input.Submitted, "#filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.table.focus()

    def root_changed(self, root: str) -> None:
        """The root shown first in the summary."""
        self.root_label = clean_line(root)
