"""The main screen: scopes, the memory list, the editor, the token meter and the chat preview."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.events import DescendantFocus
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Header, Input, Static, TabbedContent, TabPane

from store import MemoryStore, StoreError, scope_label
from store.model import ChatMemory, Memory, Scope

from ..dialogs import ConfirmDialog, ConflictDialog, SecretDialog
from ..dialogs.conflict import Choice
from ..dialogs.scope_picker import ScopePicker
from ..external_editor import open_in_editor
from ..glyphs import glyph
from ..keys.actions import Place
from ..keys.bindings import PersonKeys, bindings
from ..review_state import carry_mark
from ..safe import clean_line
from ..secret_check import SecretFound, change_checked, create_checked
from ..snapshot import Snapshot, empty_scope_hint, take_snapshot
from ..widgets.chat_preview import ChatPreview
from ..widgets.editor import Limits, MemoryEditor
from ..widgets.key_footer import KeyFooter
from ..widgets.memory_table import MemoryTable
from ..widgets.scope_list import ScopeList
from ..widgets.token_meter import TokenMeter
from .deleted import DeletedScreen
from .duplicates import DuplicatesScreen
from .help import HelpScreen
from .history import HistoryScreen
from .hygiene_marks import HygieneMarks
from .messages import OpFinished, PreviewRead, StoreRead
from .problems import ProblemsScreen
from .review import ReviewScreen

if TYPE_CHECKING:
    from ..app import OdaApp

#: The help's tables on the main screen, in order.
MAIN_HELP = (
    Place.MAIN,
    Place.APP,
    Place.LIST,
    Place.EDITOR,
    Place.HISTORY,
    Place.DELETED,
    Place.PROBLEMS,
    Place.DUPLICATES,
    Place.REVIEW,
    Place.SCREENS,
    Place.DIALOG,
    Place.QUIT,
    Place.CONFLICT,
    Place.PICKER,
)


def matches(memory: Memory, words: list[str]) -> bool:
    """True when every filter word occurs in the title or the text (any case)."""
    haystack = f"{memory.title}\n{memory.text}".casefold()
    return all(word in haystack for word in words)


class MainScreen(PersonKeys, HygieneMarks, Screen[None]):
    """Browse and edit every memory, live with the disk."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    AUTO_FOCUS = "#memories"

    BINDINGS = bindings(Place.MAIN)

    def __init__(self, workspace: str | None = None) -> None:
        super().__init__()
        self.scope: Scope = workspace
        #: The ``--workspace`` asked for: listed even before it holds a memory.
        self.requested_workspace: Scope = workspace
        self.snapshot: Snapshot | None = None
        self.filter_words: list[str] = []
        self.loaded = False
        #: How many times outside changes led to a repaint (tests count bursts with it).
        self.outside_repaints = 0
        self._refresh_running = False
        self._conflict_open = False
        self._saving = False

    # -- plumbing ------------------------------------------------------------------------

    @property
    def oda(self) -> OdaApp:
        return self.app  # type: ignore[return-value]

    @property
    def store(self) -> MemoryStore:
        return self.oda.store

    @property
    def editor(self) -> MemoryEditor:
        return self.query_one(MemoryEditor)

    @property
    def table(self) -> MemoryTable:
        return self.query_one(MemoryTable)

    @property
    def scopes(self) -> ScopeList:
        return self.query_one(ScopeList)

    def compose(self) -> ComposeResult:
        yield Header(icon=glyph("app"))
        with Horizontal(id="body"):
            with Horizontal(id="browse"):
                yield ScopeList(id="scopes")
                with Vertical(id="list-pane"):
                    yield Input(id="filter", placeholder="Filter by title and text")
                    yield MemoryTable(id="memories")
                    yield Static("", id="list-empty", markup=False)
                    yield TokenMeter(id="meter")
            with TabbedContent(id="detail", initial="tab-editor"):
                with TabPane("Editor", id="tab-editor"):
                    yield MemoryEditor(id="editor")
                with TabPane("Chat preview", id="tab-preview"):
                    yield ChatPreview(id="preview")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.scopes.border_title = "Scopes"
        self.table.border_title = "Memories"
        self.query_one("#list-empty", Static).update("Reading the memory folder…")
        self.load_store()

    # -- workers: every store call runs in a thread, under the app's store lock -----------

    @work(thread=True, group="load", exit_on_error=False)
    def load_store(self) -> None:
        """Read the whole store (it may be large) without blocking the UI."""
        scope = self.scope
        # The load makes tens of thousands of objects and no garbage cycles: the collector
        # would only walk them again and again while they are made.
        collecting = gc.isenabled()
        gc.disable()
        try:
            with self.oda.store_lock:
                snapshot = take_snapshot(self.store, self.requested_workspace)
        except Exception as exc:  # a broken store must still show a message, not a trace
            self.post_message(StoreRead(None, scope, None, set(), initial=True, error=str(exc)))
            return
        finally:
            if collecting:
                gc.enable()
        # The list first; what a chat receives (the whole text, built) comes right after.
        self.post_message(StoreRead(snapshot, scope, None, set(), initial=True))
        self._post_preview(scope)

    @work(thread=True, group="refresh", exit_on_error=False)
    def refresh_from_disk(self) -> None:
        """Apply outside changes: re-read only the changed paths and paint at once; a burst
        waits for quiet so it costs one repaint (changes arriving meanwhile wait for the next
        refresh, which ``on_store_read`` starts)."""
        watcher = self.oda.watcher
        changed: set[Path] = set()
        scope = self.scope
        snapshot = preview = None
        taken = 0
        try:
            while watcher is not None:
                paths = watcher.take()
                taken += len(paths)
                if paths:
                    with self.oda.store_lock:
                        changed |= self.store.refresh(paths)
                # A save or two paints at once; a burst (a git checkout) is let finish first,
                # so it costs one repaint, not one per batch.
                wait = watcher.settle_time(taken) - watcher.quiet_for()
                if wait > 0:
                    time.sleep(wait)
                    continue
                if not watcher.has_pending:
                    break
            if changed:
                with self.oda.store_lock:
                    snapshot = take_snapshot(self.store, self.requested_workspace)
                    preview = self._read_preview(scope)
        except Exception as exc:  # keep watching even if one refresh fails
            self.post_message(StoreRead(None, scope, None, changed, error=str(exc)))
            return
        self.post_message(StoreRead(snapshot, scope, preview, changed))

    @work(thread=True, group="preview", exclusive=True, exit_on_error=False)
    def load_preview(self, scope: Scope) -> None:
        """Read what a chat for ``scope`` receives."""
        self._post_preview(scope)

    def _post_preview(self, scope: Scope) -> None:
        with self.oda.store_lock:
            preview = self._read_preview(scope)
        if preview is not None:
            self.post_message(PreviewRead(scope, preview))

    @work(thread=True, group="ops", exit_on_error=False)
    def run_op(self, kind: str, op: Callable[[MemoryStore], Any], context: dict[str, Any]) -> None:
        """Run one change through the store, then read the store again."""
        scope = self.scope
        result: Any = None
        error: str | None = None
        with self.oda.store_lock:
            try:
                result = op(self.store)
            except StoreError as exc:
                error = str(exc)
            except Exception as exc:  # shown to the person rather than crashing the app
                error = f"The change could not be made: {exc}"
            snapshot = take_snapshot(self.store, self.requested_workspace)
            preview = self._read_preview(scope)
        self.post_message(OpFinished(kind, result, error, context, snapshot, scope, preview))

    def _read_preview(self, scope: Scope) -> ChatMemory | None:
        try:
            return self.store.chat_memory(scope)
        except StoreError:
            return None

    # -- outside changes -------------------------------------------------------------------

    def files_changed(self) -> None:
        """The watcher saw changes: refresh unless a refresh is already collecting them."""
        if not self.loaded or self._refresh_running:
            return
        self._refresh_running = True
        self.refresh_from_disk()

    # -- painting ------------------------------------------------------------------------

    def on_store_read(self, message: StoreRead) -> None:
        if message.initial:
            self.loaded = True
            # What is loaded now lives as long as the app: keep it out of the collector's
            # full passes, which otherwise stall the UI for ~80 ms at 10,000 memories.
            self.call_after_refresh(gc.freeze)
            if message.error is not None:
                self.notify(
                    f"The memory folder could not be read: {clean_line(message.error)}",
                    severity="error",
                    markup=False,
                    timeout=10,
                )
                self.query_one("#list-empty", Static).update("The memory folder could not be read.")
                return
        else:
            self._refresh_running = False
            if message.error is not None:
                self.notify(
                    f"Re-reading the memory folder failed: {clean_line(message.error)}",
                    severity="error",
                    markup=False,
                )
        if message.snapshot is not None:
            if not message.initial:
                self.outside_repaints += 1
            self.apply_snapshot(message.snapshot)
            self._apply_preview(message.preview_scope, message.preview)
        watcher = self.oda.watcher
        if watcher is not None and watcher.has_pending:
            self.files_changed()

    def apply_snapshot(self, snapshot: Snapshot) -> None:
        """Paint a snapshot, touching only what changed and keeping cursor and scroll."""
        self.snapshot = snapshot
        if self.scope not in {s.scope for s in snapshot.scopes}:
            self.scope = None  # its folder went away
        limits = snapshot.limits
        self.editor.configure(
            Limits(title=limits.title_max_chars, text=limits.text_max_chars),
            self.store.check_title,
            self.store.check_text,
        )
        self.scopes.show(snapshot.scopes, self.scope)
        self._show_list(keep=self.editor.memory_id)
        self._update_meter()
        self._update_subtitle()
        self._reconcile_editor()
        self.schedule_marks()

    def _visible(self) -> list[Memory]:
        if self.snapshot is None:
            return []
        memories = self.snapshot.memories.get(self.scope, ())
        if not self.filter_words:
            return list(memories)
        return [m for m in memories if matches(m, self.filter_words)]

    def _show_list(self, *, keep: str | None = None, reset: bool = False) -> None:
        visible = self._visible()
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
            else:
                empty.update(empty_scope_hint(self.snapshot, self.scope))
        self.query_one("#list-pane").set_class(not visible, "-empty")

    def _update_meter(self) -> None:
        if self.snapshot is None:
            return
        tokens, chat_scope = self.snapshot.meter(self.scope)
        self.query_one(TokenMeter).show(tokens, self.snapshot.limits.chat_max_tokens, chat_scope, self.scope)

    def _update_subtitle(self) -> None:
        if self.snapshot is None:
            return
        parts = [clean_line(str(self.oda.root))]
        problems = len(self.snapshot.problems)
        if problems:
            parts.append(f"{problems} problem file{'s' if problems != 1 else ''} (press !)")
        if self.snapshot.settings_problems:
            parts.append("settings.yaml has problems")
        parts += self.marks_subtitle()
        self.sub_title = " · ".join(parts)

    def _apply_preview(self, scope: Scope, preview: ChatMemory | None) -> None:
        # The chat text can be long (tens of ms to lay out at 10,000 memories): it is set
        # right after the frame that shows the list, so the list never waits for it.
        if preview is not None:
            self.call_after_refresh(self._show_preview, scope, preview)

    def _show_preview(self, scope: Scope, preview: ChatMemory) -> None:
        if scope == self.scope:
            self.query_one(ChatPreview).show(scope, preview.text, preview.tokens)

    def on_preview_read(self, message: PreviewRead) -> None:
        self._apply_preview(message.scope, message.preview)

    def _reconcile_editor(self) -> None:
        """Bring the editor in line with the disk: reload, prompt, or keep a deleted memory's edits."""
        editor, snapshot = self.editor, self.snapshot
        if snapshot is None or editor.is_new:
            return
        base = editor.memory
        if base is None:
            self._open_current_row()
            return
        current = snapshot.find(base.scope, base.id)
        if current is None:
            if editor.is_dirty:
                editor.mark_orphan()
                self.notify(
                    f"“{clean_line(base.title)}” was deleted on disk. Your edits are still here; "
                    "saving them creates the memory again.",
                    severity="warning",
                    markup=False,
                )
            else:
                self._open_current_row()
            return
        if current == base:
            return
        same_words = (current.title, current.text) == (base.title, base.text)
        if not editor.is_dirty:
            editor.load(current)
        elif same_words:
            editor.keep_mine(current)
        elif not self._conflict_open:
            self._ask_conflict(current)

    def _ask_conflict(self, theirs: Memory) -> None:
        self._conflict_open = True
        self.notify(
            f"“{clean_line(theirs.title)}” changed on disk while you were editing it.",
            severity="warning",
            markup=False,
        )

        def resolved(choice: Choice | None) -> None:
            self._conflict_open = False
            editor = self.editor
            base = editor.memory
            if base is None or editor.is_new or self.snapshot is None:
                return
            latest = self.snapshot.find(base.scope, base.id)
            if latest is None:
                self._reconcile_editor()
            elif choice == "theirs":
                editor.load(latest)
                self.notify("Reloaded the version on disk.", markup=False)
            else:
                editor.keep_mine(latest)
                self.notify(
                    "Kept your edits. When you save, the text on disk is kept as a version.",
                    markup=False,
                )

        mine = (self.editor.outgoing_title, self.editor.outgoing_text)
        self.app.push_screen(
            ConflictDialog(theirs.title, theirs=(theirs.title, theirs.text), mine=mine), resolved
        )

    # -- opening memories ------------------------------------------------------------------

    def _open_current_row(self) -> None:
        memory_id = self.table.current_id
        memory = self.snapshot.find(self.scope, memory_id) if memory_id and self.snapshot else None
        if memory is not None:
            self.editor.load(memory)
        elif self.snapshot is not None:
            if self.snapshot.memories.get(self.scope):
                hint = "No memory matches the filter."
            else:
                hint = empty_scope_hint(self.snapshot, self.scope)
            self.editor.clear(hint)

    def _guard(self, proceed: Callable[[], None], cancel: Callable[[], None] | None = None) -> None:
        """Run ``proceed`` now, or after the person agrees to drop unsaved edits."""
        editor = self.editor
        if not editor.is_dirty:
            proceed()
            return
        if editor.is_new:
            question = "Discard the new memory you have not saved?"
        else:
            question = f"Discard your unsaved changes to “{clean_line(editor.display_title)}”?"

        def answered(discard: bool | None) -> None:
            if discard:
                proceed()
            elif cancel is not None:
                cancel()

        self.app.push_screen(
            ConfirmDialog(question, yes="Discard", no="Keep editing"),
            answered,
        )

    def _back_to_open_memory(self) -> None:
        memory_id = self.editor.memory_id
        if memory_id is not None:
            self.table.select_memory(memory_id)

    @on(MemoryTable.MemoryHighlighted)
    def _memory_highlighted(self, message: MemoryTable.MemoryHighlighted) -> None:
        memory_id = message.memory_id
        if memory_id is None or memory_id == self.editor.memory_id:
            return
        self._guard(self._open_current_row, self._back_to_open_memory)

    @on(MemoryTable.MemoryChosen)
    def _memory_chosen(self, message: MemoryTable.MemoryChosen) -> None:
        def open_and_edit() -> None:
            if message.memory_id != self.editor.memory_id:
                self._open_current_row()
            self._show_detail("tab-editor")
            self.editor.text_area.focus()

        if message.memory_id == self.editor.memory_id:
            open_and_edit()
        else:
            self._guard(open_and_edit, self._back_to_open_memory)

    @on(ScopeList.ScopeHighlighted)
    def _scope_highlighted(self, message: ScopeList.ScopeHighlighted) -> None:
        if message.scope == self.scope:
            return

        def switch() -> None:
            self.scope = message.scope
            self.scopes.select_scope(message.scope)
            self._show_list(reset=True)
            self._open_current_row()
            self._update_meter()
            self.load_preview(message.scope)

        self._guard(switch, lambda: self.scopes.select_scope(self.scope))

    # -- editor requests ---------------------------------------------------------------------

    @on(MemoryEditor.SaveRequested)
    def _save_requested(self, message: MemoryEditor.SaveRequested) -> None:
        if self._saving:
            return
        scope, sent = message.scope, (message.title, message.text)
        context: dict[str, Any] = {"sent": sent, "scope": scope}
        if message.memory_id is None:
            title, text, enabled = message.title, message.text, message.enabled
            context["save"] = lambda store, allow: create_checked(
                store, scope, title, text, enabled=enabled, allow_secret=allow
            )
            self._run_save("create", context)
            return
        base = self.editor.memory
        assert base is not None
        new_title = message.title if message.title != base.title else None
        new_text = message.text if message.text != base.text else None
        memory_id = message.memory_id
        context["save"] = lambda store, allow: change_checked(
            store, scope, memory_id, title=new_title, text=new_text, allow_secret=allow
        )
        self._run_save("save", context)

    def _run_save(self, kind: str, context: dict[str, Any], *, allow_secret: bool = False) -> None:
        """Save; text that looks like a secret stops with ``SecretFound`` unless allowed."""
        self._saving = True
        save = context["save"]
        self.run_op(kind, lambda store: save(store, allow_secret), context)

    def _confirm_secret(self, message: OpFinished) -> None:
        """Ask before saving secret-looking text; no keeps the edits on screen, unsaved."""
        found: SecretFound = message.result

        def answered(yes: bool | None) -> None:
            if yes:
                self._run_save(message.kind, message.context, allow_secret=True)
            else:
                self.notify("Not saved. Your edits are still in the editor.", markup=False)

        self.app.push_screen(SecretDialog(found.what, found.message), answered)

    @on(MemoryEditor.ToggleRequested)
    def _toggle_requested(self, message: MemoryEditor.ToggleRequested) -> None:
        self._set_enabled(message.scope, message.memory_id, message.enabled)

    @on(MemoryEditor.FrontmatterWritten)
    def _frontmatter_written(self, message: MemoryEditor.FrontmatterWritten) -> None:
        self.run_op("frontmatter", lambda store: None, {})  # the store has it: paint it

    @on(MemoryEditor.DirtyChanged)
    def _dirty_changed(self, message: MemoryEditor.DirtyChanged) -> None:
        self.table.mark_draft(self.editor.memory_id if message.dirty else None)
        self.refresh_bindings()

    def _set_enabled(self, scope: Scope, memory_id: str, enabled: bool) -> None:
        self.run_op(
            "toggle",
            lambda store: store.set_enabled(scope, memory_id, enabled),
            {"scope": scope, "id": memory_id, "enabled": enabled},
        )

    def on_op_finished(self, message: OpFinished) -> None:
        kind, error, editor = message.kind, message.error, self.editor
        if kind in ("save", "create"):
            self._saving = False
            if isinstance(message.result, SecretFound):
                self._confirm_secret(message)
                return
        if error is not None:
            if kind in ("save", "create"):
                editor.show_error(error)
            elif kind == "toggle" and editor.memory_id == message.context["id"]:
                editor.set_enabled(not message.context["enabled"])
            self.notify(clean_line(error), severity="error", markup=False, timeout=8)
        elif kind == "save":
            change = message.result
            title, text = message.context["sent"]
            editor.saved(change.memory, title, text)
            if change.note:
                self.notify(clean_line(change.note), markup=False)
            else:
                self.notify(f"Saved “{clean_line(change.memory.title)}”.", markup=False)
        elif kind == "create":
            memory = message.result
            title, text = message.context["sent"]
            if message.context["scope"] == self.scope:
                editor.saved(memory, title, text)
            self.notify(f"Saved the new memory “{clean_line(memory.title)}”.", markup=False)
        elif kind == "toggle":
            memory = message.result
            if editor.memory_id == memory.id:
                editor.set_enabled(memory.enabled)
            state = "on" if memory.enabled else "off"
            self.notify(f"“{clean_line(memory.title)}” is turned {state}.", markup=False)
        elif kind == "delete":
            self.notify(
                f"Deleted “{clean_line(message.context['title'])}”. It waits under Recently deleted.",
                markup=False,
            )
        elif "done" in message.context:
            self.notify(clean_line(message.context["done"]), markup=False)
        self.apply_snapshot(message.snapshot)
        after = message.context.get("after")
        if after is not None:
            after()
        if kind == "create" and error is None and message.context["scope"] == self.scope:
            self.table.select_memory(message.result.id)
        self._apply_preview(message.preview_scope, message.preview)
        self.refresh_bindings()

    # -- actions --------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # A printable key is not even offered while a text field has the focus: the field
        # consumes it (see keys.bindings); every other key keeps working there.
        focused = self.focused
        if action in ("save", "revert"):
            # Shown only while there is something to save, so the Footer fits 80 columns.
            return self.editor.is_dirty or (self.editor.is_new and self._in_detail(focused))
        if action == "back":
            return self._in_detail(focused) or focused is self.query_one("#filter") or bool(self.filter_words)
        return True

    def _in_detail(self, widget: Widget | None) -> bool:
        detail = self.query_one("#detail")
        while widget is not None:
            if widget is detail:
                return True
            widget = widget.parent if isinstance(widget.parent, Widget) else None
        return False

    def _show_detail(self, tab: str) -> None:
        self.query_one("#detail", TabbedContent).active = tab
        self.set_class(True, "-detail")

    def on_descendant_focus(self, event: DescendantFocus) -> None:
        self.set_class(self._in_detail(event.widget), "-detail")
        self.refresh_bindings()

    def _target(self) -> Memory | None:
        """The memory a key acts on: the open one in the editor, else the one under the cursor."""
        if self._in_detail(self.focused) and self.editor.memory is not None:
            return self.editor.memory
        memory_id = self.table.current_id
        if memory_id is None or self.snapshot is None:
            return None
        return self.snapshot.find(self.scope, memory_id)

    def action_new_memory(self) -> None:
        """Start a new memory in the selected scope."""

        def start() -> None:
            self.editor.start_new(self.scope)
            self._show_detail("tab-editor")
            self.editor.title_input.focus()

        self._guard(start)

    def action_toggle(self) -> None:
        """Turn the memory on or off."""
        memory = self._target()
        if memory is None:
            self.notify("There is no memory here to turn on or off.", markup=False)
            return
        self._set_enabled(memory.scope, memory.id, not memory.enabled)

    def action_delete(self) -> None:
        """Delete the memory, after a confirmation."""
        memory = self._target()
        if memory is None:
            self.notify("There is no memory here to delete.", markup=False)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.run_op(
                    "delete",
                    lambda store: store.delete(memory.scope, memory.id),
                    {"title": memory.title, "id": memory.id},
                )

        detail = "It moves to Recently deleted, where you can restore it."
        if self.editor.memory_id == memory.id and self.editor.is_dirty:
            detail += " Your unsaved edits to it are lost."
        self.app.push_screen(
            ConfirmDialog(
                f"Delete “{clean_line(memory.title)}” from {scope_label(memory.scope)}?",
                yes="Delete",
                no="Cancel",
                detail=detail,
            ),
            answered,
        )

    def action_filter(self) -> None:
        """Show the filter and type into it."""
        filter_input = self.query_one("#filter", Input)
        filter_input.add_class("-shown")
        self.set_class(False, "-detail")
        filter_input.focus()

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.filter_words = event.value.casefold().split()
        self._show_list(keep=self.editor.memory_id)
        if not self.editor.is_dirty and self.table.current_id != self.editor.memory_id:
            self._open_current_row()

    @on(Input.Submitted, "#filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.table.focus()

    def action_preview(self) -> None:
        """Show what a chat in the selected scope receives."""
        detail = self.query_one("#detail", TabbedContent)
        narrow = self.has_class("-narrow")
        if detail.active == "tab-preview" and (not narrow or self.has_class("-detail")):
            detail.active = "tab-editor"
            if narrow:
                self.set_class(False, "-detail")
            return
        self._show_detail("tab-preview")
        if narrow:
            # Focus once the pane is displayed; a hidden widget cannot take the focus.
            self.call_after_refresh(self.query_one(ChatPreview).focus)

    def action_save(self) -> None:
        """Save the open memory."""
        if not self.editor.request_save():
            self.notify("There are no unsaved changes.", markup=False)

    def action_revert(self) -> None:
        """Drop the unsaved edits."""
        if self.editor.is_dirty:
            self.editor.revert()
            self.notify("Your edits were dropped.", markup=False)

    def action_back(self) -> None:
        """Leave the editor or the filter for the memory list."""
        filter_input = self.query_one("#filter", Input)
        # From the filter, or from the list while a filter is on: clear it (not from the editor).
        if self.focused is filter_input or (self.filter_words and not self._in_detail(self.focused)):
            if filter_input.value:
                filter_input.value = ""
            filter_input.remove_class("-shown")
        self.set_class(False, "-detail")
        self.table.focus()

    def action_history(self) -> None:
        """Show every version of the memory, with restore and undo."""
        memory = self._target()
        if memory is None:
            self.notify("There is no memory here to show the history of.", markup=False)
            return
        self.app.push_screen(HistoryScreen(memory.scope, memory.id, memory.title))

    def action_deleted(self) -> None:
        """Show the deleted memories of every scope."""
        self.app.push_screen(DeletedScreen())

    def jump_to_scope(self, scope: Scope) -> None:
        """Select a scope (asking first when there are unsaved edits)."""
        self.post_message(ScopeList.ScopeHighlighted(scope))

    def jump_to(self, scope: Scope, memory_id: str) -> None:
        """Open a memory of any scope in the editor (asking first about unsaved edits)."""

        def go() -> None:
            if self.snapshot is None or self.snapshot.find(scope, memory_id) is None:
                self.notify("That memory is no longer there.", markup=False)
                return
            self.scope = scope
            self.scopes.select_scope(scope)
            if self.filter_words and memory_id not in [m.id for m in self._visible()]:
                self.query_one("#filter", Input).value = ""
                self.filter_words = []
            self._show_list(keep=memory_id)
            self.table.select_memory(memory_id)
            self._open_current_row()
            self._update_meter()
            self.load_preview(scope)
            self._show_detail("tab-editor")
            self.call_after_refresh(self.editor.text_area.focus)

        if self.editor.memory_id == memory_id and self.editor.scope == scope:
            go()
        else:
            self._guard(go)

    def action_copy_to(self) -> None:
        """Copy the memory to another scope (refused there over a limit, with the store's words)."""
        memory = self._target()
        if memory is None or self.snapshot is None:
            self.notify("There is no memory here to copy.", markup=False)
            return
        targets = [s.scope for s in self.snapshot.scopes if s.scope != memory.scope]

        def chosen(answer: tuple[Scope] | None) -> None:
            if answer is None:
                return
            (target,) = answer
            self.run_op(
                "copy",
                lambda store: store.create(
                    target,
                    memory.title,
                    memory.text,
                    enabled=memory.enabled,
                    source=memory.source,
                    session_id=memory.session_id,
                ),
                {"done": f"Copied “{clean_line(memory.title)}” to {scope_label(target)}."},
            )

        self.app.push_screen(ScopePicker(f"Copy “{clean_line(memory.title)}” to:", targets), chosen)

    def action_move_to(self) -> None:
        """Move the memory to another scope with its history (refused there over a limit)."""
        memory = self._target()
        if memory is None or self.snapshot is None:
            self.notify("There is no memory here to move.", markup=False)
            return
        targets = [s.scope for s in self.snapshot.scopes if s.scope != memory.scope]

        def chosen(answer: tuple[Scope] | None) -> None:
            if answer is None:
                return
            (target,) = answer

            def move(store: MemoryStore) -> Memory:
                moved = store.move(memory.scope, memory.id, target)
                carry_mark(store, memory.scope, memory.id, moved.scope, moved.id)
                return moved

            self.run_op(
                "move",
                move,
                {"done": f"Moved “{clean_line(memory.title)}” to {scope_label(target)}."},
            )

        def pick() -> None:
            question = f"Move “{clean_line(memory.title)}” to:"
            self.app.push_screen(ScopePicker(question, targets), chosen)

        if self.editor.memory_id == memory.id:
            self._guard(pick)  # unsaved edits to it would be left behind
        else:
            pick()

    def action_problems(self) -> None:
        """Show the problem files, ignored entries and settings problems."""
        self.app.push_screen(ProblemsScreen())

    def action_duplicates(self) -> None:
        """Show duplicate and similar memories; keep one, turn off or delete the others."""
        self.app.push_screen(DuplicatesScreen())

    def action_review(self) -> None:
        """Review what the agent saved: accept, edit, turn off or delete."""
        self.app.push_screen(ReviewScreen())

    def action_external_editor(self) -> None:
        """Open the memory's file in $VISUAL or $EDITOR; it is read again on return."""
        memory = self._target()
        if memory is None:
            self.notify("There is no memory here to open.", markup=False)
            return

        def edit() -> None:
            if self.editor.memory_id == memory.id:
                self.editor.revert()
            error = open_in_editor(self.app, memory.path)
            if error:
                self.notify(error, severity="warning", markup=False)
            self.run_op("refresh_file", lambda store: store.refresh([memory.path]), {})

        self._guard(edit)

    def action_help(self) -> None:
        """Show every key."""
        self.app.push_screen(HelpScreen.of(self.app, MAIN_HELP))

    async def action_quit(self) -> None:
        """Quit, after asking when there are unsaved edits."""
        await self.oda.action_quit()
