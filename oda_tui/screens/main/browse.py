"""The browse pane of the main screen: the scopes, the filter, the memory list, the token meter
and the hygiene marks. It paints snapshots; choosing what to open is the screen's business.

What it shows follows three reactives, the ``snapshot``, the selected ``scope`` and the
``filter_words``: their watchers repaint the parts that depend on them."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import var
from textual.widgets import Input, Static

from store import Memory, Scope, matches, query_words, scope_label

from ...session.access import session_of
from ...session.marks import Marks
from ...session.snapshot import Snapshot, empty_scope_hint
from ...text.glyphs import app_words, glyph
from ...text.safe import clean_line
from ...widgets.filter_input import FilterInput
from ...widgets.memory_table import MemoryTable
from ...widgets.scope_list import ScopeList
from ...widgets.title_bar import Summary
from ...widgets.token_meter import TokenMeter


class BrowsePane(Horizontal):
    """Scopes beside the memory list of the selected scope."""

    #: The store as last painted (None before the first read). Not compared: it is large.
    snapshot: var[Snapshot | None] = var(None, always_update=True, init=False)
    #: The scope whose memories are listed.
    scope: var[Scope] = var(None, init=False)
    #: The words the list is filtered by (casefolded).
    filter_words: var[list[str]] = var(list, init=False)

    class SummaryChanged(Message):
        """The one-line summary of the store (root, problems, marks) changed."""

        def __init__(self, summary: Summary) -> None:
            super().__init__()
            self.summary = summary

    def __init__(self, scope: Scope, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.set_reactive(BrowsePane.scope, scope)
        self.root_label = ""
        self.marks = Marks()

    def compose(self) -> ComposeResult:
        yield ScopeList(id="scopes")
        with Vertical(id="list-pane"):
            yield FilterInput(id="filter", placeholder="Filter by title and text")
            yield MemoryTable(id="memories")
            yield Static("", id="list-empty", markup=False)
            yield TokenMeter(id="meter")

    def on_mount(self) -> None:
        self.scopes.border_title = "Scopes"
        self.table.border_title = "Memories"
        self.query_one("#list-empty", Static).update(f"Reading the memory folder{glyph('more')}")
        session_of(self).marks.read.subscribe(self, self._marks_read)

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
        """Paint a snapshot, touching only what changed and keeping cursor (on ``keep`` when it is
        listed) and scroll."""
        self.snapshot = snapshot
        self._place_cursor(keep)

    def watch_snapshot(self, snapshot: Snapshot | None) -> None:
        if snapshot is None:
            return
        if self.scope not in {s.scope for s in snapshot.scopes}:
            self.scope = None  # its folder went away
        self.scopes.show(snapshot.scopes, self.scope)
        self.show_list()
        self.update_meter()
        self.update_summary()

    def watch_scope(self, scope: Scope) -> None:
        self.scopes.select_scope(scope)
        self.show_list()
        self.update_meter()

    def watch_filter_words(self) -> None:
        self.show_list()

    def listed(self) -> list[Memory]:
        """The memories listed: the selected scope's, filtered."""
        if self.snapshot is None:
            return []
        memories = self.snapshot.memories.get(self.scope, ())
        if not self.filter_words:
            return list(memories)
        return [m for m in memories if matches(m, self.filter_words)]

    def _place_cursor(self, keep: str | None) -> None:
        if keep is not None:
            self.table.select_memory(keep)

    def show_list(self, *, keep: str | None = None) -> None:
        """List the selected scope's memories, the cursor on ``keep`` when it is listed (else on
        the memory it was on)."""
        visible = self.listed()
        table = self.table
        self.show_marks()
        table.show(visible, keep=keep)
        self._place_cursor(keep)
        total = len(self.snapshot.memories.get(self.scope, ())) if self.snapshot else 0
        label = scope_label(self.scope)
        if self.filter_words:
            table.border_title = f"Memories in {label} {glyph('dot')} {len(visible)} of {total} match"
        else:
            table.border_title = f"Memories in {label} {glyph('dot')} {total}"
        empty = self.query_one("#list-empty", Static)
        if not visible:
            if self.filter_words:
                empty.update("No memory matches the filter. Press Escape to clear it.")
            elif self.snapshot is not None:
                empty.update(app_words(self._empty_hint(self.snapshot)))
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
        """Announce the store's one-line summary: what needs a look (folders that could not be
        read, problem files, reviews, duplicates), each in full and in short with its key first
        as the footer shows keys, then the root (last: the header cuts it first)."""
        if self.snapshot is None:
            return
        items: list[tuple[str, str]] = []
        unreadable = self.snapshot.unreadable
        if len(unreadable) == 1:
            [shut] = unreadable
            shown = self._shown_folder(shut.path)
            items.append((f"{shown} could not be read: {shut.error} (press !)", f"! {shown}: {shut.error}"))
        elif unreadable:
            items.append(
                (f"{len(unreadable)} folders could not be read (press !)", f"! {len(unreadable)} unreadable")
            )
        problems = len(self.snapshot.problems)
        if problems:
            files = f"problem file{'s' if problems != 1 else ''}"
            items.append(
                (f"{problems} {files} (press !)", f"! {problems} problem{'s' if problems != 1 else ''}")
            )
        if self.snapshot.settings_problems:
            items.append(("settings.yaml has problems", "settings.yaml has problems"))
        if self.marks.to_review:
            items.append(
                (f"{self.marks.to_review} to review (press r)", f"r {self.marks.to_review} to review")
            )
        if self.marks.duplicates:
            duplicate = glyph("duplicate")
            items.append((f"duplicates {duplicate} (press D)", f"D duplicates {duplicate}"))
        dot = f" {glyph('dot')} "
        full, short = dot.join(item[0] for item in items), dot.join(item[1] for item in items)
        self.post_message(self.SummaryChanged(Summary(full, short, self.root_label, dot)))

    # -- moving ----------------------------------------------------------------------------

    def select_scope(self, scope: Scope, *, keep: str | None = None) -> None:
        """Show another scope's memories (the first row, unless ``keep`` names one)."""
        self.scope = scope
        if keep is None:
            self.table.reset_cursor()
        else:
            self._place_cursor(keep)

    # -- the hygiene marks -------------------------------------------------------------------

    def _marks_read(self, marks: Marks) -> None:
        self.marks = marks
        self.show_marks()
        self.update_summary()

    def show_marks(self) -> None:
        """Mark the duplicates of the selected scope in the list."""
        self.table.mark_duplicates(self.marks.duplicates.get(self.scope, frozenset()))

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
        return app_words(self._empty_hint(self.snapshot))

    def _empty_hint(self, snapshot: Snapshot) -> str:
        return empty_scope_hint(snapshot, self.scope, root_named=session_of(self).root_named)

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

    @on(Input.Submitted, "#filter")
    @on(FilterInput.ToList)
    def _filter_left(self, event: Input.Submitted | FilterInput.ToList) -> None:
        event.stop()
        self.table.focus()

    def _shown_folder(self, folder: Path) -> str:
        """A folder of the store as the title bar names it: from the root (``global/``)."""
        assert self.snapshot is not None
        try:
            return clean_line(f"{folder.relative_to(self.snapshot.root)}/")
        except ValueError:
            return clean_line(str(folder))

    def root_changed(self, root: str) -> None:
        """The root shown first in the summary."""
        self.root_label = clean_line(root)
