"""Problem files, ignored entries, settings problems and secret warnings; fix a file in place
or in $EDITOR."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Header, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from store import MemoryStore, read_head, scope_label

from ..dialogs import ConfirmDialog
from ..external_editor import open_in_editor
from ..keys.actions import Place
from ..keys.bindings import bindings
from ..session.outcomes import Done, SecretHeld, asking_about_secrets
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

        def __init__(self, path: Path, text: str, editable: bool, line: int | None) -> None:
            super().__init__()
            self.path = path
            self.text = text
            self.editable = editable
            self.line = line

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[Entry] = []
        self.shown: Path | None = None
        self._loaded_text = ""

    def compose(self) -> ComposeResult:
        yield Header(icon=glyph("app"))
        with Horizontal(id="problems-body"):
            yield WrappingOptionList(id="problem-list", markup=False)
            with Vertical(id="problem-view"):
                yield Static("", id="problem-head", markup=False)
                yield TextArea(id="problem-raw", show_line_numbers=True, soft_wrap=False)
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
        if self.entries:
            option_list.highlighted = min(keep, len(self.entries) - 1)
            self._select(self.entries[option_list.highlighted])
        else:
            self.shown = None
            self.query_one("#problem-head", Static).update(
                "No problem files: every file in the store is a usable memory."
            )
            self._set_raw("", editable=False)
        option_list.focus()

    @on(OptionList.OptionHighlighted, "#problem-list")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_index < len(self.entries):
            self._select(self.entries[event.option_index])
        self.highlighted = event.option_index

    def _select(self, entry: Entry) -> None:
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
        self.post_message(self.FileRead(path, text, editable, line))

    def on_problems_screen_file_read(self, message: FileRead) -> None:
        if message.path != self.shown:
            return
        self._set_raw(message.text, editable=message.editable)
        line = message.line
        raw = self.query_one("#problem-raw", TextArea)
        if line:
            # Mark the line the YAML error names by selecting it.
            raw.select_line(max(line - 1, 0))
            raw.scroll_cursor_visible(center=True)

    def _set_raw(self, text: str, *, editable: bool) -> None:
        raw = self.query_one("#problem-raw", TextArea)
        raw.load_text(text)
        raw.read_only = not editable
        self._loaded_text = text

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
        """Write the fixed file through the session and let the store re-read it; a fix that
        makes it a memory whose text looks like a secret asks first, like any save."""
        data = text.encode("utf-8")

        def write(store: MemoryStore, allow: bool) -> None:
            store.write_fixed(path, data, allow_secret=allow)
            store.refresh([path])

        self.session.run(asking_about_secrets(write, lambda _none: Done("Saved the file.")), reply_to=self)

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
        """Open the file in $VISUAL or $EDITOR; it is read again on return."""
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

        def answered(yes: bool | None) -> None:
            if yes:
                self.run_change(
                    lambda store: store.delete(scope, path.stem),
                    f"Deleted {name}. Its bytes wait under Recently deleted.",
                )

        self.app.push_screen(
            ConfirmDialog(
                f"Delete the problem file {name}?",
                yes="Delete",
                no="Cancel",
                detail="Its exact bytes wait under Recently deleted (x), where you can restore them.",
            ),
            answered,
        )
