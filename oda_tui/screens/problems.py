"""Problem files, ignored entries, settings problems and secret warnings; fix a file in place
or in $EDITOR.

The file's editor is an editor like the main one: leaving it with unsaved edits (Esc, another
file, quitting) asks first; the file is checked again as the person types, in the store's
words; a save is one store call compared with the bytes shown (another program's newer save is
never replaced); the edits are kept as a draft when the app is ended from outside, and come
back when the file is shown again."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Header, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from store import Memory, MemoryStore, read_head, scope_label

from ..dialogs import ConfirmDialog
from ..external_editor import open_in_editor
from ..keys.actions import Place
from ..keys.bindings import bindings
from ..own_files.file_drafts import (
    bytes_hash,
    file_draft,
    forget_file_draft,
    keep_file_draft,
    new_file_draft,
)
from ..session.outcomes import Done, Refused, SecretHeld, asking_about_secrets
from ..text.glyphs import glyph
from ..text.safe import clean_block, clean_line
from ..widgets.key_footer import KeyFooter
from ..widgets.wrapping_option_list import WrappingOptionList
from .base import SubScreen

#: Files larger than this are shown cut short and cannot be edited in place.
MAX_EDIT_BYTES = 1024 * 1024

#: The glyph before each kind of entry (``glyphs`` names).
LABELS = {"problem": "problem", "ignored": "ignored", "settings": "settings", "secret": "secret"}
WARNING_NOTE = "A warning, not a problem: this memory is still sent to chats (problem files are not)."
#: How long typing pauses before the file is checked again.
CHECK_DELAY_S = 0.25


@dataclass(frozen=True)
class Entry:
    """One line of the problems list."""

    kind: str  # "problem", "ignored", "settings" or "secret" (a warning: still sent)
    message: str
    path: Path | None = None
    scope: str | None = None
    line: int | None = None


class ProblemsScreen(SubScreen[list[Entry]]):
    """Everything in the store that is not a usable memory, each with its reason."""

    CSS_PATH = "problems.tcss"
    BINDINGS = bindings(Place.PROBLEMS) + bindings(Place.SCREENS)
    HELP_PLACE = Place.PROBLEMS

    class FileRead(Message):
        """The raw content of one file."""

        def __init__(
            self, path: Path, text: str, editable: bool, line: int | None, data: bytes | None = None
        ) -> None:
            super().__init__()
            self.path = path
            self.text = text
            self.editable = editable
            self.line = line
            #: The file's bytes as read (None: it could not be read, or is too large to edit).
            self.data = data

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[Entry] = []
        self.shown: Path | None = None
        self._loaded_text = ""
        #: The bytes of the file the editor shows, as read: a save is compared with them (None:
        #: not known, e.g. a draft typed over a file that changed since).
        self._seen: bytes | None = None
        self._check_timer: Timer | None = None
        self._listed_once = False
        self._entry: Entry | None = None
        #: The save on its way: the file, the text and the bytes sent.
        self._saving: tuple[Path, str, bytes] | None = None

    def compose(self) -> ComposeResult:
        yield Header(icon=glyph("app"))
        with Horizontal(id="problems-body"):
            yield WrappingOptionList(id="problem-list", markup=False)
            with Vertical(id="problem-view"):
                yield Static("", id="problem-head", markup=False)
                yield TextArea(id="problem-raw", show_line_numbers=True, soft_wrap=False)
                yield Static("", id="problem-check", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.sub_title = "Problem files"
        self.query_one("#problem-list", OptionList).border_title = "Not used as memories"
        self.load()

    def read(self, store: MemoryStore) -> list[Entry]:
        """Read the problems, ignored entries, settings problems and secret warnings."""
        entries = [Entry("problem", p.message, p.path, p.scope, p.line) for p in store.problems()]
        entries += [Entry("ignored", i.reason, i.path) for i in store.ignored()]
        entries += [Entry("settings", m) for m in store.settings_problems()]
        entries += [
            Entry("secret", w.message, w.memory.path, w.memory.scope) for w in store.secret_warnings()
        ]
        return entries

    def _relative(self, path: Path) -> str:
        try:
            return str(path.relative_to(self.session.store.root))
        except ValueError:
            return str(path)

    def show_loaded(self, content: list[Entry]) -> None:
        self.entries = content
        option_list = self.query_one("#problem-list", OptionList)
        keep = next((i for i, e in enumerate(self.entries) if e.path == self.shown and e.path), None)
        keep = keep if keep is not None else min(option_list.highlighted or 0, len(self.entries))
        option_list.clear_options()
        for entry in self.entries:
            prompt = Text(no_wrap=True, overflow="ellipsis")
            label = glyph(LABELS[entry.kind]) + " "
            where = self._relative(entry.path) if entry.path else "settings.yaml"
            prompt.append(label + clean_line(where), style="bold")
            prompt.append("\n")
            prompt.append(clean_line(entry.message), style="dim")
            option_list.add_option(Option(prompt))
        warnings = any(e.kind == "secret" for e in self.entries)
        option_list.border_title = (
            f"Problems {glyph('dot')} {glyph('secret')} warnings" if warnings else "Not used as memories"
        )
        if (
            self.entries
            and self.is_dirty
            and self._path_of(self.entries[min(keep, len(self.entries) - 1)]) != self.shown
        ):
            # The file being edited is not listed now: its edits stay on screen, and no question
            # opens by itself (moving on asks, as a key the person presses).
            with self.prevent(OptionList.OptionHighlighted):
                option_list.highlighted = min(keep, len(self.entries) - 1)
        elif self.entries:
            option_list.highlighted = min(keep, len(self.entries) - 1)
            self._select(self.entries[option_list.highlighted])
        elif not self.is_dirty:
            self.shown = None
            self.query_one("#problem-head", Static).update(
                "No problem files: every file in the store is a usable memory."
            )
            self._set_raw("", editable=False)
        raw = self.query_one("#problem-raw", TextArea)
        # After a save the person stays where they were typing; the list has the focus at first.
        if not self._listed_once or not raw.has_focus or raw.read_only:
            option_list.focus()
        self._listed_once = True

    @on(OptionList.OptionHighlighted, "#problem-list")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        index = event.option_index
        entry = self.entries[index] if index < len(self.entries) else None
        if entry is not None and self.is_dirty and self._path_of(entry) != self.shown:
            self._stay_then_ask(index)
            return
        if entry is not None:
            self._select(entry)
        self.highlighted = index

    def _path_of(self, entry: Entry) -> Path:
        return entry.path if entry.path else self.session.store.root / "settings.yaml"

    def _stay_then_ask(self, wanted: int) -> None:
        """The cursor went to another file while this one has unsaved edits: it stays on this
        one until the person agrees to drop them."""
        option_list = self.query_one("#problem-list", OptionList)
        here = next((i for i, e in enumerate(self.entries) if self._path_of(e) == self.shown), None)
        if here is not None:
            with self.prevent(OptionList.OptionHighlighted):
                option_list.highlighted = here

        def go() -> None:
            option_list.highlighted = wanted

        self.guard(go)

    # -- unsaved edits ----------------------------------------------------------------------

    @property
    def is_dirty(self) -> bool:
        """True when the file's editor holds edits that are not saved."""
        raw = self.query_one("#problem-raw", TextArea)
        return self.shown is not None and not raw.read_only and raw.text != self._loaded_text

    @property
    def shown_name(self) -> str:
        """The shown file's path in the store, as the list names it."""
        return clean_line(self._relative(self.shown)) if self.shown is not None else ""

    def guard(self, proceed: Callable[[], None]) -> None:
        """Run ``proceed`` now, or once the person agrees to drop the unsaved edits."""
        if not self.is_dirty:
            proceed()
            return

        def answered(discard: bool | None) -> None:
            if discard:
                self.drop_edits()
                proceed()

        self.app.push_screen(
            ConfirmDialog(
                f"Discard your unsaved changes to {self.shown_name}?", yes="Discard", no="Keep editing"
            ),
            answered,
        )

    def drop_edits(self) -> None:
        """The person chose to drop the edits: the file's text as read again, its draft gone."""
        if self.shown is not None:
            forget_file_draft(self.session.store.root, self._store_path(self.shown))
        raw = self.query_one("#problem-raw", TextArea)
        raw.load_text(self._loaded_text)
        self._recheck()

    def keep_draft(self) -> Path | None:
        """Keep the unsaved edits as a draft (the app is ended from outside); the file written."""
        if not self.is_dirty or self.shown is None:
            return None
        raw = self.query_one("#problem-raw", TextArea)
        draft = new_file_draft(
            self.session.store.root, self._store_path(self.shown), raw.text, self._seen or b""
        )
        return keep_file_draft(draft)

    def _store_path(self, path: Path) -> str:
        """The file's path in the store, ``/`` between its parts: what its draft is kept under."""
        try:
            return path.relative_to(self.session.store.root).as_posix()
        except ValueError:
            return path.as_posix()

    def action_close(self) -> None:
        """Back to the main screen; with unsaved edits, ask first."""
        self.guard(self._close)

    def _close(self) -> None:
        self.dismiss(None)

    def _select(self, entry: Entry) -> None:
        self._entry = entry
        head = self.query_one("#problem-head", Static)
        where = self._relative(entry.path) if entry.path else "settings.yaml"
        line = f" (line {entry.line})" if entry.line else ""
        scope = f" in {scope_label(entry.scope)}" if entry.kind in ("problem", "secret") else ""
        note = f"\n{WARNING_NOTE}" if entry.kind == "secret" else ""
        head.update(f"{clean_line(where)}{scope}{line}\n{clean_line(entry.message)}{note}")
        path = entry.path if entry.path else self.session.store.root / "settings.yaml"
        if entry.kind == "ignored" and entry.path is not None and entry.path.is_dir():
            self.shown = None
            self._set_raw("", editable=False)
            return
        self.shown = path
        self.read_file(path, entry.line)

    @work(thread=True, group="problem-file", exclusive=True, exit_on_error=False)
    def read_file(self, path: Path, line: int | None) -> None:
        """Read a file's raw bytes for display (never parsed, never markup)."""
        try:
            # Only a regular file inside the store, no link followed, never a wait on a pipe.
            data = read_head(self.session.store.root, path, MAX_EDIT_BYTES)
        except OSError as exc:
            self.post_message(self.FileRead(path, f"(could not read: {exc.strerror})", False, None))
            return
        editable = len(data) <= MAX_EDIT_BYTES
        text = clean_block(data[:MAX_EDIT_BYTES].decode("utf-8", errors="replace"))
        self.post_message(self.FileRead(path, text, editable, line, data if editable else None))

    def on_problems_screen_file_read(self, message: FileRead) -> None:
        if message.path != self.shown:
            return
        raw = self.query_one("#problem-raw", TextArea)
        if message.editable and message.text == raw.text and not raw.read_only:
            # Read again after a save: the text is what the person typed, so it stays where it is.
            self._loaded_text, self._seen = message.text, message.data
            self._recheck()
            return
        if self.is_dirty:
            return  # the edits stay; a save compares the file with the bytes they were typed over
        self._set_raw(message.text, editable=message.editable, data=message.data)
        if message.editable and message.data is not None:
            self._offer_draft(message.path, message.data)
        line = message.line
        if line:
            # The cursor on the line the YAML error names, nothing selected: typing adds to it.
            raw.move_cursor((max(line - 1, 0), 0))
            raw.scroll_cursor_visible(center=True)

    def _offer_draft(self, path: Path, data: bytes) -> None:
        """Bring back the edits kept when the app was closed, if this file has a draft."""
        draft = file_draft(self.session.store.root, self._store_path(path))
        if draft is None or draft.text == self._loaded_text:
            return
        changed = draft.base != bytes_hash(data)
        if changed:
            self._seen = None  # the draft was typed over other bytes: a save compares with none
        self.query_one("#problem-raw", TextArea).load_text(draft.text)
        self._recheck()
        since = " The file changed on disk since." if changed else ""
        self.notify(
            f"Your unsaved edits to {self.shown_name} were kept when the app was closed. They are "
            f"back in the editor: Ctrl+S saves them, Esc asks before dropping them.{since}",
            severity="warning",
            markup=False,
            timeout=15,
        )

    def _set_raw(self, text: str, *, editable: bool, data: bytes | None = None) -> None:
        raw = self.query_one("#problem-raw", TextArea)
        raw.load_text(text)
        raw.read_only = not editable
        self._loaded_text = text
        self._seen = data
        self._recheck()

    # -- checked as the person types ------------------------------------------------------------

    @on(TextArea.Changed, "#problem-raw")
    def _typed(self, _event: TextArea.Changed) -> None:
        if self._check_timer is not None:
            self._check_timer.stop()
        self._check_timer = self.set_timer(CHECK_DELAY_S, self._recheck)

    def _recheck(self) -> None:
        """Say what the store finds wrong with the file as typed (a memory file only)."""
        self._check_timer = None
        check = self.query_one("#problem-check", Static)
        raw = self.query_one("#problem-raw", TextArea)
        entry = self._entry
        if entry is None or entry.kind not in ("problem", "secret") or raw.read_only or not self.is_dirty:
            check.update("")
            check.display = False
            return
        found = self.session.store.check_file(raw.text.encode("utf-8", "surrogatepass"))
        if found is None:
            words = "As typed, the file is a memory: Ctrl+S saves it."
        else:
            message, line = found
            where = f" (line {line})" if line else ""
            words = f"As typed{where}: {clean_line(message)}"
        check.update(words)
        check.display = True

    def action_save(self) -> None:
        """Save the edited file atomically; the store reads it again."""
        path = self.shown
        raw = self.query_one("#problem-raw", TextArea)
        if path is None or raw.read_only:
            return
        if raw.text == self._loaded_text:
            self.notify("There are no unsaved changes to this file.", markup=False)
            return
        self.write_file(path, raw.text)

    def write_file(self, path: Path, text: str) -> None:
        """Write the fixed file in one store call, compared with the bytes shown; a fix that
        makes it a memory whose text looks like a secret asks first, like any save."""
        data = text.encode("utf-8")
        seen = self._seen
        root = self.session.store.root
        relative = self._store_path(path)

        def write(store: MemoryStore, allow: bool) -> Memory | None:
            return store.write_fixed(path, data, seen=seen, allow_secret=allow)

        def done(memory: Memory | None) -> Done:
            forget_file_draft(root, relative)
            if memory is None:
                return Done("Saved the file.")
            return Done(f"Saved the file. It is the memory “{clean_line(memory.title)}” now.")

        self._saving = (path, text, data)
        self.session.run(asking_about_secrets(write, done), reply_to=self)

    def on_done(self, outcome: Done) -> None:
        """A save went through: the file holds what was sent (typing since stays unsaved), so
        the list may move on from it without asking."""
        if self._saving is not None and self._saving[0] == self.shown:
            _path, self._loaded_text, self._seen = self._saving
        self._saving = None
        super().on_done(outcome)

    def on_refused(self, outcome: Refused) -> None:
        """A refused save keeps the edits on screen, unsaved."""
        self._saving = None
        kept = " Your edits are still in the editor." if self.is_dirty else ""
        self.notify(clean_line(outcome.error) + kept, severity="error", markup=False, timeout=10)
        self.load()

    def on_secret_held(self, held: SecretHeld[None]) -> None:
        """Ask before saving secret-looking text; no keeps the edits on screen, unsaved."""
        from ..dialogs.secret import SecretDialog

        def answered(yes: bool | None) -> None:
            if yes:
                self.session.run(held.retry, reply_to=self)
            else:
                self.notify("Not saved. Your edits are still in the editor.", markup=False)

        self.app.push_screen(SecretDialog(held.what, held.message), answered)

    def action_external(self) -> None:
        """Open the file in $VISUAL or $EDITOR; it is read again on return (unsaved edits here
        are dropped first, after asking)."""
        self.guard(self._external)

    def _external(self) -> None:
        path = self.shown
        if path is None:
            return
        error = open_in_editor(self.app, path)
        if error:
            self.notify(error, severity="warning", markup=False)
        self._after_change(path, None)

    def _after_change(self, path: Path, done: str | None) -> None:
        self.run_change(lambda store: store.refresh([path]), done)

    def _selected_problem(self) -> Entry | None:
        index = self.query_one("#problem-list", OptionList).highlighted
        if index is None or index >= len(self.entries):
            return None
        entry = self.entries[index]
        return entry if entry.kind == "problem" and entry.path is not None else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "delete":
            # Only a problem file can be deleted here; typing in the file is not a key.
            return self._selected_problem() is not None and not self.query_one("#problem-raw").has_focus
        return True

    def action_delete(self) -> None:
        """Delete the problem file, after a confirmation; its bytes wait under Recently deleted."""
        entry = self._selected_problem()
        if entry is None or entry.path is None:
            return
        path, scope = entry.path, entry.scope
        name = clean_line(self._relative(path))

        editing = self.is_dirty and path == self.shown

        def answered(yes: bool | None) -> None:
            if yes:
                if editing:
                    self.drop_edits()  # asked: the question named them
                self.run_change(
                    lambda store: store.delete(scope, path.stem),
                    f"Deleted {name}. Its bytes wait under Recently deleted.",
                )

        self.app.push_screen(
            ConfirmDialog(
                f"Delete the problem file {name}?",
                yes="Delete",
                no="Cancel",
                detail="Its exact bytes wait under Recently deleted (x), where you can restore them."
                + (" Your unsaved edits to it are dropped." if editing else ""),
            ),
            answered,
        )
