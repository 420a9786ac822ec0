"""The detail pane of the main screen: the editor and the chat preview, the editor kept in line
with the disk (reload, conflict, orphan), its unsaved edits guarded, and its saves (one store
call each, secret-looking text a question, the outcome settled as the store is followed)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from textual import on
from textual.widget import Widget
from textual.widgets import TabbedContent, TabPane

from store import Change, ChatMemory, Memory, Scope

from ...session.access import session_of
from ...session.outcomes import (
    Created,
    FrontmatterRefused,
    FrontmatterSaved,
    Operation,
    Outcome,
    ResultT,
    Saved,
    SaveRefused,
    SecretHeld,
    Toggled,
    ToggleRefused,
    asking_about_secrets,
)
from ...session.session import StorePicture, StoreSession
from ...session.snapshot import Snapshot
from ...text.safe import clean_line
from ...text.words import CREATES_AGAIN
from ...widgets.chat_preview import ChatPreview
from ...widgets.editor.counts import Limits
from ...widgets.editor.memory_editor import MemoryEditor
from ...widgets.editor.messages import FrontmatterSaveRequested, SaveRequested


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
        self._save: asyncio.Future[Outcome] | None = None  # the editor's save in flight
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
        from ...dialogs.confirm import ConfirmDialog

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

    def follow(self, state: StorePicture, open_current: Callable[[], None]) -> None:
        """Take a new picture: the limits, the outcome of the editor's own save when it is what
        left the store so, then bring the editor in line with the disk. ``open_current`` opens
        the memory under the list's cursor."""
        snapshot = state.snapshot
        assert snapshot is not None
        limits = snapshot.limits
        store = self.session.store
        self.editor.configure(
            Limits(title=limits.title_max_chars, text=limits.text_max_chars),
            store.check_title,
            store.check_text,
        )
        self._open_current = open_current
        if state.asker is self and state.outcome is not None:
            self._settle(state.outcome)
        self._reconcile(snapshot)

    def _reconcile(self, snapshot: Snapshot) -> None:
        """Reload, prompt, or keep a deleted memory's edits."""
        open_current = self._open_current
        editor = self.editor
        if editor.is_new or self.saving:  # the save's own outcome settles the editor
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
                    f"saving them {CREATES_AGAIN}",
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
        from ...dialogs.conflict import Choice, ConflictDialog

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
                self._reload_theirs(latest)
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

    def _reload_theirs(self, latest: Memory) -> None:
        """Show the text on disk; the edits it drops are kept as a draft first (the prompt
        opened by itself), or, when that cannot be done, stay in the editor."""
        editor = self.editor
        if editor.raw_mode and editor.frontmatter.is_dirty:
            editor.keep_mine(latest)  # a draft holds no frontmatter block: nothing is dropped unkept
            self.notify(
                "Your edits to the frontmatter cannot be kept as a draft, so they stay in the editor. "
                "Save them (their text is kept as a version), or drop them with Ctrl+R.",
                severity="warning",
                markup=False,
                timeout=10,
            )
            return
        # The main screen's ``DraftKeeper`` (named, not imported: it knows this pane).
        drafts = getattr(self.screen, "drafts", None)
        keep_discarded: Callable[[], Path | None] = getattr(drafts, "keep_discarded", lambda: None)
        try:
            kept = keep_discarded()
        except OSError as exc:
            editor.keep_mine(latest)
            self.notify(
                f"Your edits could not be kept as a draft ({clean_line(exc.strerror or str(exc))}), "
                "so they stay in the editor. When you save, the text on disk is kept as a version.",
                severity="warning",
                markup=False,
                timeout=10,
            )
            return
        if (
            kept is None
            and editor.is_dirty
            and editor.draft.differs(editor.title_input.value, editor.switch.value, editor.text_area.text)
        ):
            editor.keep_mine(latest)  # too large for a draft: nothing is dropped unkept
            self.notify(
                "Your edits are too large to keep as a draft, so they stay in the editor.",
                severity="warning",
                markup=False,
            )
            return
        editor.load(latest)
        if kept is None:
            self.notify("Reloaded the version on disk.", markup=False)
            return
        self.notify(
            "Reloaded the version on disk. Your edits were kept as a draft: they come back in the "
            "editor the next time the app starts.",
            markup=False,
            timeout=10,
        )

    def show_preview(self, scope: Scope, preview: ChatMemory | None, shown_scope: Scope) -> None:
        """Show what a chat in ``scope`` receives, if that is still the scope shown."""
        # The chat text can be long (tens of ms to lay out at 10,000 memories): it is set right
        # after the frame that shows the list, so the list never waits for it.
        if preview is not None and scope == shown_scope:
            self.call_after_refresh(self.preview.show, scope, preview.text, preview.tokens)

    # -- saving -------------------------------------------------------------------------------

    @property
    def saving(self) -> bool:
        """True while a save of the editor is on its way to the store."""
        return self._save is not None and not self._save.done()

    def save_editor(self) -> asyncio.Future[Outcome] | None:
        """Save the editor's edits (the save in flight, if there is one); None when there is
        nothing to save. The future resolves with the outcome once the editor has settled it."""
        if self.saving:
            return self._save
        request = self.editor.save_request()
        return None if request is None else self._start_save(request)

    @on(SaveRequested)
    @on(FrontmatterSaveRequested)
    def _save_requested(self, message: SaveRequested | FrontmatterSaveRequested) -> None:
        message.stop()
        if not self.saving:
            self._start_save(message)

    def _start_save(self, request: SaveRequested | FrontmatterSaveRequested) -> asyncio.Future[Outcome]:
        """One store call for the save (``create``, ``edit`` or ``change_frontmatter``), whose
        secret-looking text is a question; its outcome settles the editor (``_settle``)."""
        scope = request.scope
        if isinstance(request, FrontmatterSaveRequested):
            memory_id, block = request.memory_id, request.block
            return self._run_save(
                asking_about_secrets(
                    lambda store, allow: store.change_frontmatter(
                        scope, memory_id, block, allow_secret=allow
                    ),
                    lambda memory: FrontmatterSaved(memory, block),
                    FrontmatterRefused,
                )
            )
        if request.memory_id is None:
            title, text, enabled, sent = request.title, request.text, request.enabled, request.sent
            return self._run_save(
                asking_about_secrets(
                    lambda store, allow: store.create(
                        scope, title, text, enabled=enabled, allow_secret=allow
                    ),
                    lambda memory: Created(memory, scope, sent),
                    SaveRefused,
                )
            )
        return self._run_save(self._edit_operation(request))

    def _run_save(self, operation: Operation[ResultT]) -> asyncio.Future[Outcome]:
        """Run a save (a create, an edit, a frontmatter change), its outcome back here."""
        self._save = self.session.run(operation, reply_to=self)
        return self._save

    def _edit_operation(self, request: SaveRequested) -> Operation[Change]:
        """Title, text and switch in one ``edit``: one transaction, one version, so a refusal
        leaves the memory as it was, the switch included."""
        base = self.editor.memory
        assert base is not None and request.memory_id is not None
        scope, memory_id, sent = request.scope, request.memory_id, request.sent
        title = request.title if request.title != base.title else None
        text = request.text if request.text != base.text else None
        enabled = request.enabled
        return asking_about_secrets(
            lambda store, allow: store.edit(
                scope, memory_id, title=title, text=text, enabled=enabled, allow_secret=allow
            ),
            lambda change: Saved(change.memory, change.note, sent),
            SaveRefused,
        )

    def _settle(self, outcome: Outcome) -> None:
        """Bring the editor in line with its own save, before the new picture is followed."""
        editor = self.editor
        if isinstance(outcome, Saved):
            editor.saved(outcome.memory, *outcome.sent)
            note = clean_line(outcome.note) if outcome.note else None
            self.notify(note or f"Saved “{clean_line(outcome.memory.title)}”.", markup=False)
        elif isinstance(outcome, Created):
            # The screen, which the outcome reaches next, selects the new memory in the list.
            again = editor.orphan
            if outcome.scope == editor.scope and editor.is_new:
                editor.saved(outcome.memory, *outcome.sent)
            title = clean_line(outcome.memory.title)
            if again:
                self.notify(
                    f"Saved “{title}” again, as a new memory (id {outcome.memory.id}): the deleted one, "
                    "with its versions, stays under Recently deleted.",
                    markup=False,
                )
            else:
                self.notify(f"Saved the new memory “{title}”.", markup=False)
        elif isinstance(outcome, FrontmatterSaved):
            editor.frontmatter_saved(outcome.memory, outcome.block)
            self.notify(f"Saved the frontmatter of “{clean_line(outcome.memory.title)}”.", markup=False)
        elif isinstance(outcome, FrontmatterRefused):
            editor.frontmatter.problem = outcome.error
            self.notify(clean_line(outcome.error), severity="error", markup=False, timeout=8)
        elif isinstance(outcome, SaveRefused):
            editor.show_error(outcome.error)
            self.notify(clean_line(outcome.error), severity="error", markup=False, timeout=8)
        elif isinstance(outcome, SecretHeld):
            self._ask_about_secret(outcome)

    def _ask_about_secret(self, held: SecretHeld[ResultT]) -> None:
        """Ask before saving secret-looking text; no keeps the edits on screen, unsaved."""
        from ...dialogs.secret import SecretDialog

        def answered(yes: bool | None) -> None:
            if yes:
                self._save = self.session.run(held.retry, reply_to=self)
            else:
                self.notify("Not saved. Your edits are still in the editor.", markup=False)

        self.app.push_screen(SecretDialog(held.what, held.message), answered)

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
