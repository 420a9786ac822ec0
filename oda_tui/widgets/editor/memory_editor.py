"""The editor for one memory: title, on/off, every other field of its frontmatter, text, live
counters and checks; F2 edits the frontmatter block itself as YAML.

What is open is the ``draft`` (a new one for each change) and whether it has unsaved edits is
``dirty``: both are reactives, and their watchers repaint the form and tell the screen."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from rich.cells import cell_len
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.events import DescendantFocus
from textual.geometry import Region
from textual.reactive import var
from textual.widgets import Input, Label, Static, Switch, TextArea

from store import Memory, Scope

from ...keys.actions import Place
from ...keys.bindings import apply_person_keys, bindings
from ...text.format import count
from ...text.glyphs import glyph
from ...text.safe import clean_block, clean_line
from ..frontmatter_view import FrontmatterView
from .counts import Limits, text_length, title_length, tokens_text
from .draft import Draft
from .memory_text import MemoryText
from .messages import DirtyChanged, FrontmatterSaveRequested, SaveRequested

#: A paste that would make the text this many times longer than its limit is held (``MemoryText``).
HOLD_FACTOR = 2

Check = Callable[[str], str | None]


@dataclass(frozen=True)
class Dropped:
    """The form's edits a revert dropped: whose they were and what they were."""

    memory_id: str | None
    scope: Scope
    is_new: bool
    title: str
    text: str
    enabled: bool


class MemoryEditor(Vertical):
    """Edits one memory (or a new one); the detail pane does the saving, the frontmatter block's
    included."""

    BINDINGS = bindings(Place.EDITOR)

    DEFAULT_CSS = """
        MemoryEditor { height: 1fr; padding: 0 1; }
        /* Empty until a memory opens: the editor shows one or the other (_show_form). */
        MemoryEditor #editor-form { height: 1fr; display: none; }
        MemoryEditor #editor-empty { padding: 1; color: $text-muted; }
        MemoryEditor #editor-heading { height: 1; text-style: bold; text-wrap: nowrap; text-overflow: ellipsis; }
        MemoryEditor.-dirty #editor-heading { color: $warning; }
        MemoryEditor .field-head { height: 1; }
        MemoryEditor .field-label { width: 1fr; color: $text-muted; }
        MemoryEditor .counter { width: auto; color: $text-muted; }
        MemoryEditor .counter.-over { color: $error; text-style: bold; }
        MemoryEditor #meta-row { height: auto; }
        MemoryEditor #enabled, MemoryEditor #enabled:focus { border: none; height: 1; padding: 0; width: auto; }
        MemoryEditor #enabled:focus { background-tint: $foreground 15%; }
        MemoryEditor #enabled-label { width: 4; margin: 0 1; }
        MemoryEditor #meta { width: 1fr; height: auto; color: $text-muted; }
        MemoryEditor #text { height: 1fr; min-height: 3; }
        MemoryEditor #validation { display: none; height: auto; color: $error; text-style: bold; }
        MemoryEditor #validation.-shown { display: block; }
        MemoryEditor #frontmatter { display: none; }
        MemoryEditor.-raw #frontmatter { display: block; }
        MemoryEditor.-raw #title-head, MemoryEditor.-raw #title, MemoryEditor.-raw #meta-row { display: none; }
        MemoryEditor #enabled-note { color: $text-muted; width: 1fr; }
        MemoryEditor.-new #enabled-note { display: none; }
        MemoryEditor #tokens { color: $text-muted; height: 1; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    #: What is open, and what the edits are measured against; every change repaints the form.
    draft: var[Draft] = var(Draft(), always_update=True, init=False, bindings=True)
    #: Whether the edits are unsaved, as last announced to the screen.
    dirty: var[bool] = var(False, init=False, toggle_class="-dirty", bindings=True)
    #: True while the frontmatter block is edited as YAML (F2).
    raw_mode: var[bool] = var(False, init=False, toggle_class="-raw")
    #: The limits the counters measure against.
    limits: var[Limits] = var(Limits(), init=False)

    def __init__(self, *, id: str | None = None) -> None:
        # Empty from the start: setting the class after mount would restyle the whole form.
        super().__init__(id=id)
        apply_person_keys(self)
        self._check_title: Check = lambda _t: None
        self._check_text: Check = lambda _t: None
        #: What the last revert dropped (``bring_back``).
        self._dropped: Dropped | None = None

    def compose(self) -> ComposeResult:
        yield Static(f"Loading{glyph('more')}", id="editor-empty", markup=False)
        with Vertical(id="editor-form"):
            yield Static("", id="editor-heading", markup=False)
            yield FrontmatterView(id="frontmatter")
            with Horizontal(classes="field-head", id="title-head"):
                yield Label("Title", classes="field-label")
                yield Label("", id="title-count", classes="counter", markup=False)
            yield Input(id="title", placeholder="A short name for the memory", select_on_focus=False)
            with Horizontal(id="meta-row"):
                yield Switch(id="enabled", value=True, tooltip="Turned on: sent with chats")
                yield Label("on", id="enabled-label", markup=False)
            yield Static("", id="meta", markup=False)
            yield Static("", id="tokens", markup=False)
            with Horizontal(classes="field-head"):
                yield Label("Text", classes="field-label")
                yield Label("", id="text-count", classes="counter", markup=False)
            text = MemoryText(id="text", soft_wrap=True, tab_behavior="focus", show_line_numbers=False)
            text.hold_over = HOLD_FACTOR * self.limits.text
            yield text
            yield Static("", id="validation", markup=False)

    def configure(self, limits: Limits, check_title: Check, check_text: Check) -> None:
        """Use these limits and the store's own checks for live validation."""
        self._check_title = check_title
        self._check_text = check_text
        self.limits = limits

    def watch_limits(self, limits: Limits) -> None:
        self.query_one("#text", MemoryText).hold_over = HOLD_FACTOR * limits.text
        if self.draft.has_memory:
            self._update_counters()

    # -- state ---------------------------------------------------------------------------

    @property
    def memory(self) -> Memory | None:
        """The memory as last read from the store; edits are measured against it."""
        return self.draft.memory

    @property
    def scope(self) -> Scope:
        """The scope of the open (or new) memory."""
        return self.draft.scope

    @property
    def is_new(self) -> bool:
        """True while a new memory (or one deleted on disk) is open: saving creates it."""
        return self.draft.is_new

    @property
    def orphan(self) -> bool:
        """The open memory was deleted on disk while it had edits; saving creates it again."""
        return self.draft.orphan

    @property
    def title_input(self) -> Input:
        return self.query_one("#title", Input)

    @property
    def text_area(self) -> TextArea:
        return self.query_one("#text", TextArea)

    @property
    def switch(self) -> Switch:
        return self.query_one("#enabled", Switch)

    @property
    def frontmatter(self) -> FrontmatterView:
        return self.query_one(FrontmatterView)

    @property
    def outgoing_title(self) -> str:
        """The title to save: as typed, with the file's control characters kept."""
        return self.draft.outgoing_title(self.title_input.value)

    @property
    def outgoing_text(self) -> str:
        """The text to save: as typed, with the file's control characters kept."""
        return self.draft.outgoing_text(self.text_area.text)

    @property
    def memory_id(self) -> str | None:
        """The id of the open memory (None when empty or new)."""
        return self.draft.memory_id

    @property
    def is_dirty(self) -> bool:
        """True when the title, the switch or the text differ from what was last read (a new
        draft: not empty; the frontmatter block: edited)."""
        draft = self.draft
        if not draft.has_memory:
            return False  # the form may not even be composed yet
        if self.raw_mode and not draft.is_new:
            return self.frontmatter.is_dirty
        return draft.differs(self.title_input.value, self.switch.value, self.text_area.text)

    @property
    def save_error(self) -> str | None:
        """The store's refusal of the last save, while the edits are unchanged since."""
        return self.draft.save_error

    @property
    def display_title(self) -> str:
        """The title to quote in messages about the open memory."""
        return self.draft.display_title(self.title_input.value)

    @property
    def validation(self) -> str:
        """The validation text shown under the editor."""
        return str(self.query_one("#validation", Static).content)

    # -- loading -------------------------------------------------------------------------

    def _show_form(self, shown: bool) -> None:
        # Each part's own display, not a class on the editor: a class restyles every field of
        # the form, the costliest step of the first frame with a memory in it.
        self.query_one("#editor-empty").display = not shown
        self.query_one("#editor-form").display = shown

    def clear(self, hint: str) -> None:
        """Show no memory, only a hint."""
        self._dropped = None
        self.query_one("#editor-empty", Static).update(hint)
        self._show_form(False)
        self.raw_mode = False
        self.draft = Draft()

    def load(self, memory: Memory) -> None:
        """Open a saved memory; reopening the same one keeps the cursor positions."""
        same = self.memory is not None and self.memory.id == memory.id and not self.is_new
        if not same:
            self.raw_mode = False
            self._dropped = None  # another memory's dropped edits never come back over this one
        elif self.raw_mode:
            # Show the block as it is on disk now; edits to it were dropped by whoever asked
            # (reload theirs, discard), and keys typed after this call are kept.
            self.frontmatter.read(memory, drop_edits=self.frontmatter.is_dirty)
        self._show_form(True)
        self._fill(clean_line(memory.title), clean_block(memory.text), keep_cursor=same)
        self.set_enabled(memory.enabled)
        self.draft = Draft.of(memory)

    def start_new(self, scope: Scope) -> None:
        """Open an empty draft for a new memory in ``scope``."""
        self._dropped = None
        self._show_form(True)
        self.raw_mode = False
        self._fill("", "", keep_cursor=False)
        self.set_enabled(True)
        self.draft = Draft.new(scope)

    def restore_typed(self, title: str, text: str, enabled: bool) -> None:
        """Put back what was typed (a kept draft) over what is open, as unsaved edits."""
        self._fill(clean_line(title), clean_block(text), keep_cursor=False)
        self.set_enabled(enabled)
        self.draft = self.draft.refused(None)

    def keep_mine(self, theirs: Memory) -> None:
        """Measure the edits against the version now on disk, keeping them on screen."""
        if self.memory is None or self.switch.value == self.memory.enabled:
            self.set_enabled(theirs.enabled)  # the switch was not edited: theirs
        self.draft = self.draft.based_on(theirs)

    def mark_orphan(self) -> None:
        """The open memory was deleted on disk; keep the edits and save them as a new memory."""
        self.draft = self.draft.orphaned()

    def saved(self, memory: Memory, sent_title: str, sent_text: str) -> None:
        """A save went through; adopt the stored values unless the person typed on meanwhile."""
        self._dropped = None
        typed_on = self.title_input.value != clean_line(sent_title) or self.text_area.text != clean_block(
            sent_text
        )
        if not typed_on:
            self._fill(clean_line(memory.title), clean_block(memory.text), keep_cursor=True)
        self.set_enabled(memory.enabled)
        self.draft = Draft.of(memory)

    def set_enabled(self, enabled: bool) -> None:
        """Set the switch without asking the store."""
        with self.prevent(Switch.Changed):
            self.switch.value = enabled
        self.query_one("#enabled-label", Label).update("on" if enabled else "off")

    def show_error(self, message: str) -> None:
        """Show a refusal from the store; the edits stay on screen."""
        self.draft = self.draft.refused(message)

    def _fill(self, title: str, text: str, *, keep_cursor: bool) -> None:
        title_input, text_area = self.title_input, self.text_area
        position = title_input.cursor_position
        location = text_area.cursor_location
        scroll = text_area.scroll_offset
        with self.prevent(Input.Changed, TextArea.Changed):
            if title_input.value != title:
                title_input.value = title
            if text_area.text != text:
                text_area.load_text(text)
        if keep_cursor:
            title_input.cursor_position = min(position, len(title))
            text_area.cursor_location = location
            text_area.scroll_to(scroll.x, scroll.y, animate=False, immediate=True)
        else:
            # The cursor at the end, ready to add to the title, but its start in view: a long
            # title is read from its beginning until the cursor moves.
            title_input.cursor_position = len(title)
            # (after the refresh: the cursor's own scroll into view is made then)
            title_input.call_after_refresh(title_input.scroll_to, 0, 0, animate=False, immediate=True)
            text_area.cursor_location = (0, 0)

    # -- display -------------------------------------------------------------------------

    def watch_draft(self, old: Draft, draft: Draft) -> None:
        if replace(old, save_error=None) != replace(draft, save_error=None):  # not only the refusal
            self.set_class(draft.is_new, "-new")  # a new memory's switch is saved with it
            self.query_one("#editor-heading", Static).update(draft.heading())
            self.query_one("#meta", Static).update(draft.meta())
        self._update_counters()
        self._note_dirty()

    def watch_dirty(self, dirty: bool) -> None:
        # Sent by the editor, whoever made the change: Textual stops a message at its sender,
        # and a save's outcome is handled by the pane between here and the screen.
        self.post_message(DirtyChanged(dirty).set_sender(self))

    def watch_raw_mode(self, raw: bool) -> None:
        self.text_area.read_only = raw  # the text below the block is kept as it is
        if not raw:
            self.frontmatter.forget()

    def _update_counters(self) -> None:
        # Counted as they will be saved: a control character shown as ``\x9b`` is one character.
        title = self.draft.outgoing_title(self.title_input.value)
        text = self.draft.outgoing_text(self.text_area.text)
        tlen, xlen = title_length(title), text_length(text)
        title_count = self.query_one("#title-count", Label)
        title_count.update(f"{count(tlen)}/{count(self.limits.title)}")
        title_count.set_class(tlen > self.limits.title, "-over")
        text_count = self.query_one("#text-count", Label)
        text_count.update(f"{count(xlen)}/{count(self.limits.text)}")
        text_count.set_class(xlen > self.limits.text, "-over")
        self.query_one("#tokens", Static).update(tokens_text(title, text, enabled=self.switch.value))
        # An empty field breaks no rule until it is saved (the save's refusal says so then).
        checks = (self._check_title(title) if title else None, self._check_text(text) if text else None)
        messages = [m for m in checks if m]
        save_error = self.draft.save_error
        if save_error and save_error not in messages:
            messages.append(save_error)
        validation = self.query_one("#validation", Static)
        validation.update("\n".join(clean_line(m) for m in messages))
        validation.set_class(bool(messages), "-shown")

    def _note_dirty(self) -> None:
        self.dirty = self.is_dirty

    # -- events --------------------------------------------------------------------------

    @on(Input.Changed, "#title")
    @on(TextArea.Changed, "#text")
    def _typed(self, event: Input.Changed | TextArea.Changed) -> None:
        event.stop()
        self.draft = self.draft.refused(None)  # the edits changed since the refusal

    @on(TextArea.Changed, "#frontmatter-raw")
    def _block_changed(self, event: TextArea.Changed) -> None:
        event.stop()
        self._note_dirty()

    def on_descendant_focus(self, event: DescendantFocus) -> None:
        if event.widget is self.title_input:
            # The start of a long title was in view while the field was not used: in it, the
            # cursor is (where typing goes).
            field = self.title_input
            cursor = cell_len(field.value[: field.cursor_position])
            field.scroll_to_region(Region(cursor, 0, 1, 1), force=True, animate=False, immediate=True)

    @on(MemoryText.PasteHeld)
    def _paste_held(self, event: MemoryText.PasteHeld) -> None:
        """Say at once that the paste is far over the limit, and offer the part that fits."""
        from ...dialogs import ConfirmDialog

        event.stop()
        pasted, room = event.text, max(self.limits.text - event.kept, 0)
        if not room:
            self.notify(
                f"Not pasted: the {count(len(pasted))} characters would take the text past its limit of "
                f"{count(self.limits.text)}, which it has reached already.",
                severity="warning",
                markup=False,
            )
            return

        def answered(yes: bool | None) -> None:
            if yes:
                area = self.text_area
                area.replace(pasted[:room], *area.selection)
                area.focus()

        self.app.push_screen(
            ConfirmDialog(
                f"The text you pasted has {count(len(pasted))} characters; a memory's text holds "
                f"{count(self.limits.text)}.",
                yes=f"Paste the first {count(room)}",
                no="Do not paste",
                danger=False,
                detail="It was not put in the editor: a save would refuse that much. Paste what fits, "
                "or paste it in parts, one memory each.",
            ),
            answered,
        )

    @on(Input.Submitted, "#title")
    def _title_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.text_area.focus()

    @on(Switch.Changed, "#enabled")
    def _switch_changed(self, event: Switch.Changed) -> None:
        event.stop()
        # Part of the draft, like the title and the text: saved with Ctrl+S, reverted with Ctrl+R.
        self.query_one("#enabled-label", Label).update("on" if event.value else "off")
        self._update_counters()
        self._note_dirty()

    def request_save(self) -> bool:
        """Ask the screen to save; False when there is nothing to save."""
        request = self.save_request()
        if request is None:
            return False
        self.post_message(request)
        return True

    def save_request(self) -> SaveRequested | FrontmatterSaveRequested | None:
        """What saving the edits asks of the store (the block in F2); None when nothing to save."""
        if not self.draft.has_memory:
            return None
        if not self.is_new and not self.is_dirty:
            return None
        if self.raw_mode and self.memory is not None:
            return FrontmatterSaveRequested(self.memory.scope, self.memory.id, self.frontmatter.block)
        return SaveRequested(
            self.scope,
            None if self.is_new else self.memory_id,
            self.outgoing_title,
            self.outgoing_text,
            self.switch.value,
        )

    def revert(self) -> None:
        """Drop the edits: back to what was last read (an empty draft for a new memory). What
        the form held is kept, for ``bring_back``."""
        dropped = None
        if self.is_dirty and not self.raw_mode:
            dropped = Dropped(
                self.memory_id,
                self.scope,
                self.is_new,
                self.title_input.value,
                self.text_area.text,
                self.switch.value,
            )
        if self.raw_mode and self.memory is not None and self.frontmatter.loaded is not None:
            self.frontmatter.revert()
            self._note_dirty()
        elif self.memory is not None and not self.is_new:
            self.load(self.memory)
        elif self.is_new:
            self.start_new(self.scope)
        if dropped is not None:
            self._dropped = dropped

    @property
    def can_bring_back(self) -> bool:
        """True when the edits the last revert dropped are this memory's and nothing was typed
        since: ``bring_back`` puts them back."""
        dropped = self._dropped
        return (
            dropped is not None
            and not self.is_dirty
            and not self.raw_mode
            and (dropped.memory_id, dropped.scope, dropped.is_new)
            == (self.memory_id, self.scope, self.is_new)
        )

    def bring_back(self) -> None:
        """Put the edits the last revert dropped back, as unsaved edits."""
        dropped, self._dropped = self._dropped, None
        if dropped is not None:
            self.restore_typed(dropped.title, dropped.text, dropped.enabled)

    # -- the frontmatter block (F2) ----------------------------------------------------------

    def action_frontmatter(self) -> None:
        """Switch between the form and the frontmatter block as written (YAML)."""
        if self.raw_mode:
            if self.frontmatter.is_dirty:
                self.notify("Save the frontmatter (Ctrl+S) or revert it (Ctrl+R) first.", markup=False)
                return
            self.raw_mode = False
            self.title_input.focus()
            return
        if self.memory is None or self.is_new:
            self.notify("Save the new memory first; then F2 shows its frontmatter.", markup=False)
            return
        if self.is_dirty:
            self.notify("Save your edits (Ctrl+S) or revert them (Ctrl+R) first.", markup=False)
            return
        self.frontmatter.read(self.memory)

    @on(FrontmatterView.Read)
    def _frontmatter_read(self, message: FrontmatterView.Read) -> None:
        message.stop()
        memory = self.memory
        if memory is None or memory.id != message.memory.id or self.is_new:
            return  # another memory is open by now
        if message.block is None:
            self.notify(clean_line(message.error or ""), severity="error", markup=False)
            return
        if self.raw_mode and self.frontmatter.is_dirty and not message.drop_edits:
            return  # typed while it was read: the edits stay, as with any change on disk
        self.frontmatter.show(message.block, memory.text)
        if not self.raw_mode:
            self.raw_mode = True
            self.frontmatter.area.focus()
        self._note_dirty()

    def frontmatter_saved(self, memory: Memory, block: str) -> None:
        """The block was written (through the session, like every save): show the memory now,
        the block as saved over its text."""
        self.frontmatter.saved(block, memory)
        self._fill(clean_line(memory.title), clean_block(memory.text), keep_cursor=True)
        self.set_enabled(memory.enabled)
        self.draft = self.draft.based_on(memory)
