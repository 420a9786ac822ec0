"""The detail pane of the main screen: the editor and the chat preview, the editor kept in line
with the disk (reload, conflict, orphan), its unsaved edits guarded, and the save pipeline
(secret check, outcomes)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

from textual import on
from textual.widget import Widget
from textual.widgets import TabbedContent, TabPane

from store import Change, MemoryStore, StoreError
from store.model import ChatMemory, Memory, Scope

from ..session.access import session_of
from ..session.outcomes import (
    Created,
    Operation,
    Saved,
    SaveRefused,
    SecretHeld,
    Toggled,
    ToggleRefused,
    simple,
)
from ..session.session import StoreSession
from ..session.snapshot import Snapshot
from ..text.safe import clean_line
from ..widgets.chat_preview import ChatPreview
from ..widgets.editor import MemoryEditor
from ..widgets.editor_counts import Limits
from ..widgets.editor_messages import SaveRequested
from ..widgets.frontmatter_view import FrontmatterView

ResultT = TypeVar("ResultT")


class DetailPane(TabbedContent):
    """Tabs for the editor of the open memory and for what a chat receives."""

    DEFAULT_CSS = """
    DetailPane {
        height: 1fr;
    }
    """

    @classmethod
    def with_tabs(cls) -> DetailPane:
        """The pane with its two tabs, the editor shown."""
        pane = cls(initial="tab-editor")
        pane.compose_add_child(TabPane("Editor", MemoryEditor(id="editor"), id="tab-editor"))
        pane.compose_add_child(TabPane("Chat preview", ChatPreview(id="preview"), id="tab-preview"))
        return pane

    def __init__(self, *, id: str | None = None, initial: str = "") -> None:
        super().__init__(id=id, initial=initial)
        self._conflict_open = False
        self._saving = False
        self._open_current: Callable[[], None] = lambda: None

    @property
    def session(self) -> StoreSession:
        return session_of(self)

    @property
    def editor(self) -> MemoryEditor:
        return self.query_one(MemoryEditor)

    @property
    def preview(self) -> ChatPreview:
        return self.query_one(ChatPreview)

    def contains(self, widget: Widget | None) -> bool:
        """True when ``widget`` is inside this pane."""
        while widget is not None:
            if widget is self:
                return True
            widget = widget.parent if isinstance(widget.parent, Widget) else None
        return False

    def guard(self, proceed: Callable[[], None], cancel: Callable[[], None] | None = None) -> None:
        """Run ``proceed`` now, or after the person agrees to drop the editor's unsaved edits."""
        editor = self.editor
        if not editor.is_dirty:
            proceed()
            return
        from ..dialogs.confirm import ConfirmDialog

        if editor.is_new:
            question = "Discard the new memory you have not saved?"
        else:
            question = f"Discard your unsaved changes to “{clean_line(editor.display_title)}”?"

        def answered(discard: bool | None) -> None:
            if discard:
                proceed()
            elif cancel is not None:
                cancel()

        self.app.push_screen(ConfirmDialog(question, yes="Discard", no="Keep editing"), answered)

    # -- following the store --------------------------------------------------------------------

    def follow(self, snapshot: Snapshot, open_current: Callable[[], None]) -> None:
        """Take a new snapshot: the limits, then bring the editor in line with the disk.
        ``open_current`` opens the memory under the list's cursor."""
        limits = snapshot.limits
        store = self.session.store
        self.editor.configure(
            Limits(title=limits.title_max_chars, text=limits.text_max_chars),
            store.check_title,
            store.check_text,
        )
        self._open_current = open_current
        self._reconcile(snapshot)

    def _reconcile(self, snapshot: Snapshot) -> None:
        """Reload, prompt, or keep a deleted memory's edits."""
        open_current = self._open_current
        editor = self.editor
        if editor.is_new or self._saving:  # a save's own outcome settles the editor
            return
        base = editor.memory
        if base is None:
            open_current()
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
                open_current()
            return
        if current == base:
            return
        same_words = (current.title, current.text) == (base.title, base.text)
        if not editor.is_dirty:
            editor.load(current)
        elif same_words:
            editor.keep_mine(current)
        elif not self._conflict_open:
            self.ask_conflict(current)

    def ask_conflict(self, theirs: Memory) -> None:
        """Say that the open memory changed on disk and ask: reload theirs, or keep the edits
        (measured against theirs, which a save keeps as a version)."""
        from ..dialogs.conflict import Choice, ConflictDialog

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
            snapshot = self.session.snapshot
            if base is None or editor.is_new or snapshot is None:
                return
            latest = snapshot.find(base.scope, base.id)
            if latest is None:
                self._reconcile(snapshot)
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

    def show_preview(self, scope: Scope, preview: ChatMemory | None, shown_scope: Scope) -> None:
        """Show what a chat in ``scope`` receives, if that is still the scope shown."""
        # The chat text can be long (tens of ms to lay out at 10,000 memories): it is set right
        # after the frame that shows the list, so the list never waits for it.
        if preview is not None and scope == shown_scope:
            self.call_after_refresh(self.preview.show, scope, preview.text, preview.tokens)

    # -- saving -------------------------------------------------------------------------------

    @on(SaveRequested)
    def _save_requested(self, message: SaveRequested) -> None:
        message.stop()
        if self._saving:
            return
        from ..secret_check import SecretFound, change_checked, create_checked  # only when saving

        scope, sent = message.scope, (message.title, message.text)
        if message.memory_id is None:
            title, text, enabled = message.title, message.text, message.enabled

            def create(allow: bool) -> Operation[Memory | SecretFound]:
                return Operation(
                    lambda store: create_checked(
                        store, scope, title, text, enabled=enabled, allow_secret=allow
                    ),
                    lambda result: self._held(result, create) or Created(cast(Memory, result), scope, sent),
                    SaveRefused,
                )

            self._run_save(create(False))
            return
        base = self.editor.memory
        assert base is not None
        new_title = message.title if message.title != base.title else None
        new_text = message.text if message.text != base.text else None
        memory_id = message.memory_id
        was, enabled = base.enabled, message.enabled

        def save(store: MemoryStore, allow: bool) -> Change | SecretFound:
            """The switch, then the words; a refusal of the words turns the switch back, so a
            save is all or nothing (turning on is checked against the limits like any change)."""
            if enabled != was:
                store.set_enabled(scope, memory_id, enabled)
            if new_title is None and new_text is None:
                return Change(store.get(scope, memory_id), changed=True)
            try:
                result = change_checked(
                    store, scope, memory_id, title=new_title, text=new_text, allow_secret=allow
                )
            except StoreError:
                if enabled != was:
                    store.set_enabled(scope, memory_id, was)
                raise
            if isinstance(result, SecretFound) and enabled != was:
                store.set_enabled(scope, memory_id, was)
            return result

        def change(allow: bool) -> Operation[Change | SecretFound]:
            return Operation(
                lambda store: save(store, allow),
                lambda result: (
                    self._held(result, change)
                    or Saved(cast(Change, result).memory, cast(Change, result).note, sent)
                ),
                SaveRefused,
            )

        self._run_save(change(False))

    @staticmethod
    def _held(result: object, again: Callable[[bool], Operation[ResultT]]) -> SecretHeld[ResultT] | None:
        from ..secret_check import SecretFound

        return SecretHeld(result, again(True)) if isinstance(result, SecretFound) else None

    def _run_save(self, operation: Operation[ResultT]) -> None:
        self._saving = True
        self.session.run(operation, reply_to=self)

    def on_saved(self, outcome: Saved) -> None:
        self._saving = False
        title, text = outcome.sent
        self.editor.saved(outcome.memory, title, text)
        if outcome.note:
            self.notify(clean_line(outcome.note), markup=False)
        else:
            self.notify(f"Saved “{clean_line(outcome.memory.title)}”.", markup=False)

    def on_created(self, outcome: Created) -> None:
        # Not stopped: the screen then selects the new memory in the list.
        self._saving = False
        title, text = outcome.sent
        if outcome.scope == self.editor.scope and self.editor.is_new:
            self.editor.saved(outcome.memory, title, text)
        self.notify(f"Saved the new memory “{clean_line(outcome.memory.title)}”.", markup=False)

    def on_save_refused(self, outcome: SaveRefused) -> None:
        self._saving = False
        self.editor.show_error(outcome.error)
        self.notify(clean_line(outcome.error), severity="error", markup=False, timeout=8)

    def on_secret_held(self, outcome: SecretHeld[object]) -> None:
        """Ask before saving secret-looking text; no keeps the edits on screen, unsaved."""
        from ..dialogs.secret import SecretDialog

        self._saving = False
        found = outcome.found

        def answered(yes: bool | None) -> None:
            if yes:
                self._run_save(outcome.retry)
            else:
                self.notify("Not saved. Your edits are still in the editor.", markup=False)

        self.app.push_screen(SecretDialog(found.what, found.message), answered)

    @on(FrontmatterView.Written)
    def _frontmatter_written(self, message: FrontmatterView.Written) -> None:
        message.stop()
        self.session.run(simple(lambda store: None), reply_to=self)  # the store has it: paint it

    # -- on and off ------------------------------------------------------------------------------

    def set_enabled(self, scope: Scope, memory_id: str, enabled: bool) -> None:
        """Turn a memory on or off."""
        self.session.run(
            Operation(
                lambda store: store.set_enabled(scope, memory_id, enabled),
                Toggled,
                lambda error: ToggleRefused(error, memory_id, enabled),
            ),
            reply_to=self,
        )

    def on_toggled(self, outcome: Toggled) -> None:
        memory = outcome.memory
        if self.editor.memory_id == memory.id:
            self.editor.set_enabled(memory.enabled)
        state = "on" if memory.enabled else "off"
        self.notify(f"“{clean_line(memory.title)}” is turned {state}.", markup=False)

    def on_toggle_refused(self, outcome: ToggleRefused) -> None:
        if self.editor.memory_id == outcome.memory_id:
            self.editor.set_enabled(not outcome.enabled)
        self.notify(clean_line(outcome.error), severity="error", markup=False, timeout=8)
