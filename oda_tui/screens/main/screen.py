"""The main screen: the browse pane beside the detail pane, following the session's store.

It composes the two panes, keeps them in step (what is open follows the list) and holds the key
policy. The store is the session's; saving, reconciling the editor and asking before unsaved edits
are lost are the detail pane's; painting the list and finding a memory in it are the browse pane's;
the keys' actions open the other screens, and what they do to a memory outside the editor is
``memory_actions`` and ``moving``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.events import DescendantFocus, Resize
from textual.reactive import var
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Header, Input

from store import Memory, Scope

from ...keys.actions import MAIN_HELP, Place
from ...keys.bindings import apply_person_keys, bindings, spoken_key
from ...session.access import session_of
from ...session.outcomes import Created, Deleted, Done, Operation, Refused
from ...session.session import PreviewState, StorePicture, StoreSession
from ...session.snapshot import Snapshot
from ...text.glyphs import glyph
from ...text.safe import clean_line
from ...widgets.editor.messages import DirtyChanged
from ...widgets.key_footer import KeyFooter
from ...widgets.memory_table import MemoryTable
from ...widgets.scope_list import ScopeList
from ...widgets.title_bar import Summary
from .browse import BrowsePane
from .detail_mount import DetailMount, unless_closing
from .draft_keeper import DraftKeeper
from .key_policy import offered, until_pane
from .memory_actions import copy_to_clipboard, delete_memory, edit_outside, toggle_memory

if TYPE_CHECKING:
    from ...widgets.editor.memory_editor import MemoryEditor
    from .detail import DetailPane

__all__ = ["MainScreen"]


class MainScreen(Screen[None]):
    """Browse and edit every memory, live with the disk."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    AUTO_FOCUS = "#memories"
    BINDINGS = bindings(Place.MAIN)

    #: True once the detail pane is mounted (the frame after the list's first one).
    detail_ready: var[bool] = var(False, init=False, bindings=True)

    def __init__(self, workspace: str | None = None) -> None:
        super().__init__()
        apply_person_keys(self)
        # The breakpoint class from the start: added on the first resize instead, it would
        # restyle every widget of the screen while the store is being read.
        self.add_class(*self._get_breakpoint_classes(self.app.size.width, self.HORIZONTAL_BREAKPOINTS))
        self._start_scope: Scope = workspace
        self.loaded = False
        #: How many times outside changes led to a repaint (tests count bursts with it).
        self.outside_repaints = 0
        #: The detail pane is mounted after the list's first frame; until then what it would
        #: show waits here, and the keys that act on it are not offered.
        self._detail_mount: DetailMount | None = None
        self._waiting: StorePicture | None = None
        self._waiting_preview: PreviewState | None = None
        self.drafts = DraftKeeper(self)  # kept on an exit from outside, offered back at start
        #: The store's one-line summary (the ``sub_title``), with its short form for the header.
        self.summary: Summary | None = None

    @property
    def session(self) -> StoreSession:
        return session_of(self)

    @property
    def browse(self) -> BrowsePane:
        return self.query_one(BrowsePane)

    @property
    def detail(self) -> DetailPane:
        # By name: the pane's module (and the editor's) is imported after the first frame.
        return cast("DetailPane", self.query_one("DetailPane"))

    @property
    def editor(self) -> MemoryEditor:
        return cast("MemoryEditor", self.query_one("MemoryEditor"))

    @property
    def table(self) -> MemoryTable:
        """The browse pane's memory list."""
        return self.browse.table

    @property
    def scopes(self) -> ScopeList:
        """The browse pane's list of scopes."""
        return self.browse.scopes

    @property
    def scope(self) -> Scope:
        """The selected scope."""
        return self.browse.scope

    @property
    def snapshot(self) -> Snapshot | None:
        """The snapshot on screen."""
        return self.browse.snapshot

    def compose(self) -> ComposeResult:
        yield Header(icon=glyph("app"))
        with Horizontal(id="body"):
            yield BrowsePane(self._start_scope, id="browse")
            # The detail pane's place; the pane itself (a third of the screen's widgets) comes
            # in the frame after the list's, so the list is on screen sooner.
            yield Vertical(id="detail")
        yield KeyFooter()

    def on_mount(self) -> None:
        session = self.session
        self.browse.root_changed(str(session.root))
        self._detail_mount = DetailMount(self.query_one("#detail"), self._detail_mounted)
        self._detail_mount.start()  # before anything that follows the store
        session.changed.subscribe(self, self._store_changed, immediate=True)
        session.preview_read.subscribe(self, self._preview_read)
        session.start()

    def after_detail_mount(self, callback: Callable[[], None]) -> bool:
        """Run ``callback`` once the detail pane is mounted, if it is being mounted now (True)."""
        return self._detail_mount is not None and self._detail_mount.after_mount(callback)

    def _detail_mounted(self) -> None:
        self.detail_ready = True  # the keys that need the pane are offered from now on
        with unless_closing(self.app):
            if self._waiting is not None:
                self._follow(self._waiting)
            if self._waiting_preview is not None:
                self._preview_read(self._waiting_preview)
            self._waiting = self._waiting_preview = None
            for run in self._detail_mount.kept_keys() if self._detail_mount else ():
                run()

    # -- following the store ---------------------------------------------------------------

    def _store_changed(self, state: StorePicture) -> None:
        self.loaded = self.loaded or state.initial
        if state.error is not None:
            what = "Re-reading the memory folder failed"
            if state.initial:
                what = "The memory folder could not be read"
            timeout = 10 if state.initial else None
            self.notify(f"{what}: {clean_line(state.error)}", severity="error", markup=False, timeout=timeout)
            if state.initial:
                self.browse.show_error("The memory folder could not be read.")
                return
        if state.snapshot is None:
            return
        if state.outside:
            self.outside_repaints += 1
        self.browse.show(state.snapshot, keep=self.editor.memory_id if self.detail_ready else None)
        self.session.preview_scope = self.scope
        if state.initial:
            # The list first: the editor opens its memory in the frame after the list's.
            self.call_after_refresh(self._follow, state)
        else:
            self._follow(state)

    def _follow(self, state: StorePicture) -> None:
        assert state.snapshot is not None
        if not self.detail_ready:
            self._waiting = state
            return
        with unless_closing(self.app):
            self.detail.follow(state, self._open_current_row)
            self.detail.show_preview(state.preview_scope, state.preview, self.scope)
            self.drafts.followed(state)

    def _preview_read(self, state: PreviewState) -> None:
        if not self.detail_ready:
            self._waiting_preview = state
            return
        with unless_closing(self.app):
            self.detail.show_preview(state.scope, state.preview, self.scope)

    @on(BrowsePane.SummaryChanged)
    def _summary_changed(self, message: BrowsePane.SummaryChanged) -> None:
        self.summary = message.summary
        self.sub_title = message.summary.line

    def on_created(self, outcome: Created) -> None:
        if outcome.scope == self.scope:
            self.table.select_memory(outcome.memory.id)

    def on_deleted(self, outcome: Deleted) -> None:
        self.notify(f"Deleted “{clean_line(outcome.title)}”. It waits under Recently deleted.", markup=False)

    def on_done(self, outcome: Done) -> None:
        if outcome.text:
            self.notify(clean_line(outcome.text), markup=False)

    def on_refused(self, outcome: Refused) -> None:
        self.notify(clean_line(outcome.error), severity="error", markup=False, timeout=8)

    # -- what is open follows the list ----------------------------------------------------------

    def _open_current_row(self) -> None:
        memory = self.browse.current()
        if memory is not None:
            self.editor.load(memory)
        elif (hint := self.browse.no_row_hint()) is not None:
            self.editor.clear(hint)

    def _back_to_open_memory(self) -> None:
        memory_id = self.editor.memory_id
        if memory_id is not None:
            self.table.select_memory(memory_id)

    @on(MemoryTable.MemoryHighlighted)
    def _memory_highlighted(self, message: MemoryTable.MemoryHighlighted) -> None:
        memory_id = message.memory_id
        if not self.detail_ready or memory_id is None or memory_id == self.editor.memory_id:
            return
        self.detail.guard(self._open_current_row, self._back_to_open_memory)

    @on(MemoryTable.MemoryChosen)
    @until_pane
    def _memory_chosen(self, message: MemoryTable.MemoryChosen) -> None:

        def open_and_edit() -> None:
            if message.memory_id != self.editor.memory_id:
                self._open_current_row()
            self.show_detail("tab-editor")
            self.editor.text_area.focus()

        if message.memory_id == self.editor.memory_id:
            open_and_edit()
        else:
            self.detail.guard(open_and_edit, self._back_to_open_memory)

    @on(ScopeList.ScopeHighlighted)
    def _scope_highlighted(self, message: ScopeList.ScopeHighlighted) -> None:
        if message.scope == self.scope or not self.detail_ready:
            return

        def switch() -> None:
            self.browse.select_scope(message.scope)
            self._open_current_row()
            self.session.read_preview(message.scope)

        self.detail.guard(switch, lambda: self.scopes.select_scope(self.scope))

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        event.stop()
        if self.detail_ready and not self.editor.is_dirty and self.table.current_id != self.editor.memory_id:
            self._open_current_row()

    @on(DirtyChanged)
    def _dirty_changed(self, message: DirtyChanged) -> None:
        self.table.mark_draft(self.editor.memory_id if message.dirty else None)

    def jump_to_scope(self, scope: Scope) -> None:
        """Select a scope (asking first when there are unsaved edits)."""
        self.post_message(ScopeList.ScopeHighlighted(scope))

    def jump_to(self, scope: Scope, memory_id: str) -> None:
        """Open a memory of any scope in the editor (asking first about unsaved edits)."""

        def go() -> None:
            if not self.browse.reveal(scope, memory_id):
                self.notify("That memory is no longer there.", markup=False)
                return
            self._open_current_row()
            self.session.read_preview(scope)
            self.show_detail("tab-editor")
            self.call_after_refresh(self.editor.text_area.focus)

        if self.editor.memory_id == memory_id and self.editor.scope == scope:
            go()
        else:
            self.detail.guard(go)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return offered(self, action, parameters)

    def run_operation(self, operation: Operation[Any]) -> None:
        """Run one change through the session; its outcome comes back to this screen."""
        self.session.run(operation, reply_to=self)

    def keep_for_pane(self, run: Callable[[], None]) -> None:
        """Keep what a key pressed before the detail pane is mounted asked for, until it is."""
        assert self._detail_mount is not None
        self._detail_mount.keep_key(run)

    def show_detail(self, tab: str) -> None:
        """Show the detail pane on ``tab`` (on a narrow screen, in place of the list)."""
        self.detail.active = tab
        self.set_class(True, "-detail")

    def on_resize(self, event: Resize) -> None:
        # Narrowed to one pane at a time while the focus is in the list: show the list, not the
        # detail pane (the focus would be on a hidden widget, so nowhere, and no key would work).
        if self.has_class("-narrow") and self.has_class("-detail") and self.detail_ready:
            if not self.detail.contains(self.focused):
                self.set_class(False, "-detail")

    def on_descendant_focus(self, event: DescendantFocus) -> None:
        self.set_class(self.detail_ready and self.detail.contains(event.widget), "-detail")

    def target(self) -> Memory | None:
        """The memory a key acts on: the open one in the editor, else the one under the cursor."""
        if self.detail_ready and self.detail.contains(self.focused) and self.editor.memory is not None:
            return self.editor.memory
        return self.browse.current()

    # -- actions --------------------------------------------------------------------------------

    @until_pane
    def action_new_memory(self) -> None:
        """Start a new memory in the selected scope."""

        def start() -> None:
            self.editor.start_new(self.scope)
            self.show_detail("tab-editor")
            self.editor.title_input.focus()

        self.detail.guard(start)

    def action_filter(self) -> None:
        """Show the filter and type into it."""
        self.set_class(False, "-detail")
        self.browse.show_filter()

    @until_pane
    def action_preview(self) -> None:
        """Show what a chat in the selected scope receives."""
        detail = self.detail
        narrow = self.has_class("-narrow")
        if detail.active == "tab-preview" and (not narrow or self.has_class("-detail")):
            detail.active = "tab-editor"
            if narrow:
                self.set_class(False, "-detail")
            return
        self.show_detail("tab-preview")
        if narrow:
            # Focus once the pane is displayed; a hidden widget cannot take the focus.
            self.call_after_refresh(self.detail.preview.focus)

    def action_save(self) -> None:
        """Save the open memory."""
        if not self.editor.request_save():
            self.notify("There are no unsaved changes.", markup=False)

    def action_revert(self) -> None:
        """Drop the unsaved edits; pressed again before anything is typed, bring them back."""
        editor = self.editor
        if editor.is_dirty:
            editor.revert()
            again = spoken_key(self.app, "editor.revert")
            self.notify(f"Your edits were dropped. {again} again brings them back.", markup=False)
        elif editor.can_bring_back:
            editor.bring_back()
            self.notify("Your edits are back.", markup=False)
        self.refresh_bindings()

    def action_back(self) -> None:
        """Leave the editor or the filter for the memory list."""
        # From the filter, or from the list while a filter is on: clear it (not from the editor).
        if self.focused is self.browse.filter_input or (
            self.browse.filter_words and not self.detail.contains(self.focused)
        ):
            self.browse.clear_filter(hide=True)
            self.browse.show_list(keep=self.editor.memory_id)
        self.set_class(False, "-detail")
        self.table.focus()

    # What the keys do to the memory they act on is in memory_actions and moving; the screens
    # they open are imported the first time (none is needed for the first frame).

    @until_pane
    def action_toggle_memory(self) -> None:
        """Turn the memory on or off (in the editor's form: flip its switch)."""
        toggle_memory(self, self.target())

    @until_pane
    def action_delete_memory(self) -> None:
        """Delete the memory, after asking."""
        delete_memory(self, self.target())

    @until_pane
    def action_copy_memory(self) -> None:
        """Copy the memory to a scope the person picks."""
        from .moving import copy_to

        copy_to(self, self.target())

    @until_pane
    def action_move_memory(self) -> None:
        """Move the memory with its history to a scope the person picks."""
        from .moving import move_to

        move_to(self, self.target())

    @until_pane
    def action_edit_outside(self) -> None:
        """Open the memory in the person's own editor."""
        edit_outside(self, self.target())

    def action_copy_id(self) -> None:
        """Put the memory's id on the clipboard."""
        copy_to_clipboard(self, self.target(), "id")

    def action_copy_path(self) -> None:
        """Put the path of the memory's file on the clipboard."""
        copy_to_clipboard(self, self.target(), "path")

    def action_focus_pane(self, pane: str) -> None:
        """Go to a pane: the scopes (``1``), the memory list (``2``), or the editor or the chat
        preview, whichever tab is shown (``3``)."""
        if pane == "scopes":
            self.set_class(False, "-detail")
            self.scopes.focus()
        elif pane == "list":
            self.set_class(False, "-detail")
            self.table.focus()
        else:
            self._focus_detail()

    @until_pane
    def _focus_detail(self) -> None:
        detail, editor = self.detail, self.editor
        self.show_detail(detail.active or "tab-editor")
        if detail.active == "tab-preview":
            target: Widget = detail.preview
        elif editor.memory is not None or editor.is_new:
            target = editor.text_area
        else:  # no memory open: the pane's tabs, so the focus is there all the same
            target = detail.query_one("Tabs")
        # Once the pane is displayed (on a narrow screen it was hidden): a hidden widget cannot
        # take the focus.
        self.call_after_refresh(target.focus)

    @until_pane
    def action_open_history(self) -> None:
        """Show the history of the memory."""
        from ..history import HistoryScreen

        if (memory := self.target()) is None:
            self.notify("There is no memory here to show the history of.", markup=False)
        else:
            self.app.push_screen(HistoryScreen(memory.scope, memory.id, memory.title))

    @until_pane
    def action_open_review(self) -> None:
        """Show what the agent saved, to review."""
        from ..review import ReviewScreen

        self.app.push_screen(ReviewScreen())

    @until_pane
    def action_open_problems(self) -> None:
        """Show the problem files."""
        from ..problems import ProblemsScreen

        self.app.push_screen(ProblemsScreen())

    @until_pane
    def action_open_deleted(self) -> None:
        """Show Recently deleted."""
        from ..deleted import DeletedScreen

        self.app.push_screen(DeletedScreen())

    @until_pane
    def action_open_duplicates(self) -> None:
        """Show the duplicates and similar memories."""
        from ..duplicates import DuplicatesScreen

        self.app.push_screen(DuplicatesScreen())

    def action_help(self) -> None:
        """Show every key."""
        from ..help import HelpScreen

        self.app.push_screen(HelpScreen.of(self.app, MAIN_HELP))

    async def action_quit(self) -> None:
        """Quit, after asking when there are unsaved edits."""
        await self.app.action_quit()
