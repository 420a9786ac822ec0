"""The Textual app: one main screen over a store session, with the person's themes and keys."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import App
from textual.binding import Binding, Keymap
from textual.content import Content
from textual.widgets import Header, Static

from .config.keymap import load_keymap
from .config.theming import SavedTheme, load_themes, save_theme, saved_theme
from .keys.actions import Place
from .keys.bindings import apply_keymap, bindings
from .keys.key_names import normal_key
from .screens.base import OpenMemory
from .screens.main import MainScreen
from .session.message_log import MessageLog
from .session.outcomes import Created, FrontmatterSaved, Saved
from .session.session import StoreSession
from .session.watcher import DiskWatcher, FilesChanged
from .text.cell_widths import measure_modifiers_as_drawn
from .text.glyphs import app_words, ascii_key, ascii_only
from .text.safe import clean_line
from .widgets.ascii_drawing import draw_ascii
from .widgets.editor.messages import DirtyChanged
from .widgets.title_bar import summary_line, title_line

if TYPE_CHECKING:
    from textual.command import Provider
    from textual.notifications import SeverityLevel

    from .screens.problems import ProblemsScreen
    from .session.first_read import FirstRead


def _commands() -> type[Provider]:
    from .keys.palette import OdaCommands  # imported when the palette first opens

    return OdaCommands


def _normal_keys(keys: str) -> str:
    """Keys in Textual's names (``?`` -> ``question_mark``); one that is no key is kept as given."""
    return ",".join(normal_key(key) or key.strip() for key in keys.split(",") if key.strip())


#: Under this many columns the scopes pane collapses (``.-tiny``) and the list gets the room.
TINY_WIDTH = 70
#: Under this many rows (``.-short``) lists in dialogs show fewer rows, so what is under them fits.
SHORT_HEIGHT = 30


class OdaApp(App[None]):
    """Browse and edit every memory Oda keeps, live with the disk."""

    # The default screen's own CSS_PATH is not loaded by Textual, so the app loads it.
    CSS_PATH = ["oda.tcss", "screens/main/main.tcss"]
    TITLE = "Oda memory"
    COMMANDS = App.COMMANDS | {_commands}
    BINDINGS = bindings(Place.APP)

    def __init__(
        self,
        root: Path,
        workspace: str | None = None,
        *,
        watch: bool = True,
        first_read: FirstRead | None = None,
        root_named: bool = False,
    ) -> None:
        super().__init__()
        self.session = StoreSession(
            self, Path(root), workspace, watch=watch, first_read=first_read, root_named=root_named
        )
        self.start_workspace = workspace
        #: Set when an unexpected error ended the app: the one line the person reads.
        self.crash_line: str | None = None
        self.sub_title = clean_line(str(root))
        self._themes_ready = False
        draw_ascii(ascii_only())
        measure_modifiers_as_drawn()  # before anything is measured
        # Before any screen is made: each applies the keymap to its own bindings (apply_person_keys).
        loaded = load_keymap()
        self.person_keymap: dict[str, str] = {}
        self.set_keymap(loaded.keymap)
        self._keymap_problems = loaded.problems
        #: Every notice shown, for the message log (``M``).
        self.message_log = MessageLog()

    def set_keymap(self, keymap: Keymap) -> None:
        """Use ``keymap`` (binding id -> keys) for the nodes made from now on, and for the app's
        own keys. It is kept as ``person_keymap``, never as Textual's keymap (see
        ``keys.bindings`` for why). Set before the app runs: no footer shows keys yet, so unlike
        Textual's ``set_keymap`` there is nothing to refresh."""
        self.person_keymap = {binding_id: _normal_keys(keys) for binding_id, keys in keymap.items()}
        apply_keymap(self._bindings, self.person_keymap)

    @property
    def root(self) -> Path:
        """The store's folder."""
        return self.session.root

    @property
    def watcher(self) -> DiskWatcher | None:
        """What follows the disk (None when the app does not watch)."""
        return self.session.watcher

    def get_key_display(self, binding: Binding) -> str:
        """Keys as Textual shows them, or in words where the terminal lacks the symbols."""
        shown = super().get_key_display(binding)
        return ascii_key(shown) if ascii_only() else shown

    def format_title(self, title: str, sub_title: str) -> Content:
        """The header's line, fitted to the width (see ``widgets.title_bar``)."""
        summary = next((s.summary for s in self.screen_stack if isinstance(s, MainScreen)), None)
        if summary is not None and summary.line == sub_title:
            return summary_line(app_words(title), summary, self.size.width)
        return title_line(app_words(title), app_words(sub_title), self.size.width)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Show a notice (every screen's and widget's notices come here), its punctuation in the
        glyph set in use, and keep it in the message log."""
        message, title = app_words(message), app_words(title)
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)
        if markup:  # the log shows its words, not its tags
            message, title = Content.from_markup(message).plain, Content.from_markup(title).plain
        self.message_log.add(severity, title, message)

    def action_messages(self) -> None:
        """Show every notice so far, newest first (the toasts on screen go: they are in the list)."""
        from .screens.messages import MessagesScreen

        self.clear_notifications()
        self.push_screen(MessagesScreen(self.message_log.newest_first()))

    def on_resize(self, event: events.Resize) -> None:
        # Under 70 columns the scopes pane collapses to a strip until it has the focus.
        self.set_class(event.size.width < TINY_WIDTH, "-tiny")
        self.set_class(event.size.height < SHORT_HEIGHT, "-short")
        # The header's line is fitted to the width (``format_title``), so fitted again once the
        # new size is the app's: Textual makes it only when a title changes.
        self.call_after_refresh(self._fit_headers)

    def _fit_headers(self) -> None:
        for header in self.screen.query(Header):
            header.query_one("HeaderTitle", Static).update(header.format_title())

    def get_default_screen(self) -> MainScreen:
        return MainScreen(self.start_workspace)

    @property
    def main_screen(self) -> MainScreen:
        """The one main screen (under any dialogs)."""
        for screen in self.screen_stack:
            if isinstance(screen, MainScreen):
                return screen
        raise LookupError("no main screen")

    def on_mount(self) -> None:
        self.set_class(ascii_only(), "-ascii")
        for problem in self._keymap_problems:
            self.notify(clean_line(f"Keymap: {problem}"), severity="warning", markup=False, timeout=10)
        saved = saved_theme()
        if saved.name is None and saved.problem is None:
            # Textual's default theme draws the first frame: the theme files (YAML, parsed and
            # checked) wait until it is on screen.
            self.call_after_refresh(self._load_themes, saved)
        else:
            self._load_themes(saved)

    def _load_themes(self, saved: SavedTheme) -> None:
        loaded = load_themes()
        for theme in loaded.themes:
            self.register_theme(theme)
        for problem in loaded.problems:
            self.notify(clean_line(f"Theme skipped: {problem}"), severity="warning", markup=False, timeout=10)
        if saved.problem is not None:
            self.notify(clean_line(f"Theme: {saved.problem}"), severity="warning", markup=False, timeout=10)
        wanted = saved.name
        if wanted and wanted in self.available_themes:
            self.theme = wanted
        elif wanted:
            self.notify(
                clean_line(f"The theme “{wanted}” chosen last time is not available."),
                severity="warning",
                markup=False,
            )
        self._themes_ready = True

    def watch_theme(self, theme: str) -> None:
        # Only a choice made after start-up is remembered, not the start-up default.
        if self._themes_ready:
            save_theme(theme)

    def exit(self, *args: Any, **kwargs: Any) -> None:
        """Quit. Asked while the detail pane is being mounted (a lost terminal, at start-up), the
        exit waits for the mount to end: Textual's tabs fail when their app closes mid-mount."""
        screen = next((s for s in self.screen_stack if isinstance(s, MainScreen)), None)
        if screen is not None and screen.after_detail_mount(
            lambda: super(OdaApp, self).exit(*args, **kwargs)
        ):
            return
        super().exit(*args, **kwargs)

    def exit_from_outside(self) -> None:
        """Quit because the terminal was lost or the process was told to stop: the editors'
        unsaved drafts are kept first, to be offered back at the next start."""
        self._keep_drafts()
        self.exit()

    def _problems_screen(self) -> ProblemsScreen | None:
        from .screens.problems import ProblemsScreen as Problems

        return next((s for s in self.screen_stack if isinstance(s, Problems)), None)

    def _keep_drafts(self) -> bool:
        """Keep every editor's unsaved edits as drafts (the main editor's, the Problems file's);
        True when one was written. Nothing here may stop an exit."""
        kept = False
        try:
            kept = self.main_screen.drafts.keep_now() is not None
        except Exception:  # the draft is lost only if it cannot be written
            pass
        try:
            problems = self._problems_screen()
            kept = (problems is not None and problems.keep_draft() is not None) or kept
        except Exception:
            pass
        return kept

    def _handle_exception(self, error: Exception) -> None:
        """An unexpected error ends the app (Textual's way, exit code 1), but the editor's draft is
        kept first and the terminal gets one line saying where the traceback was written."""
        kept = self._keep_drafts()  # the error may be in the very screen: the line still goes out
        from .own_files.crash_log import crash_line, write_crash_log

        log = write_crash_log(error)
        super()._handle_exception(error)
        # Not Textual's traceback: the command line writes this one line once the screen is restored.
        self._exit_renderables.clear()
        self.crash_line = clean_line(crash_line(error, log, kept))

    def on_dirty_changed(self, message: DirtyChanged) -> None:
        # The editor's edits were saved or dropped: so is a draft offered back at start.
        self.main_screen.drafts.settled(message.dirty)

    def on_files_changed(self, message: FilesChanged) -> None:
        self.session.files_changed()

    def on_open_memory(self, message: OpenMemory) -> None:
        self.main_screen.jump_to(message.scope, message.memory_id)

    def action_command_palette(self) -> None:
        """Show the command palette (with F1 for its keys)."""
        from textual.command import CommandPalette

        from .keys.palette_screen import OdaCommandPalette

        if self.use_command_palette and not isinstance(self.screen, CommandPalette):
            self.push_screen(OdaCommandPalette())

    def on_unmount(self) -> None:
        self.session.stop()

    def _ask_about_problems_edits(self) -> bool:
        """With unsaved edits in the Problems screen's file, ask before quitting (True: asked)."""
        problems = self._problems_screen()
        if problems is None or not problems.is_dirty:
            return False
        from .dialogs.confirm import ConfirmDialog

        if isinstance(self.screen, ConfirmDialog):
            return True

        def quit_anyway(yes: bool | None) -> None:
            if yes:
                problems.drop_edits()
                self.run_worker(self.action_quit(), group="quit", exclusive=True)

        self.push_screen(
            ConfirmDialog(
                f"Quit and discard your unsaved changes to {problems.shown_name}?",
                yes="Quit without saving",
                no="Keep editing",
            ),
            quit_anyway,
        )
        return True

    async def action_quit(self) -> None:
        """Quit; with unsaved edits, ask first (the Problems file's, then the main editor's)."""
        if self._ask_about_problems_edits():
            return
        try:
            screen = self.main_screen
        except LookupError:
            self.exit()
            return
        if not screen.detail_ready:  # no editor yet, so no edits
            self._stop_and_exit()
            return
        editor = screen.editor
        if not editor.is_dirty:
            self._stop_and_exit()
            return
        from .dialogs.confirm import ConfirmDialog

        if isinstance(self.screen, ConfirmDialog):
            return

        from .dialogs.quit import QuitAnswer, QuitDialog

        def answered(answer: QuitAnswer | None) -> None:
            if answer == "save":
                self.run_worker(self._save_then_quit(), group="save-and-quit", exclusive=True)
            elif answer:
                self._stop_and_exit()

        self.push_screen(
            QuitDialog(
                f"Quit and discard your unsaved changes to “{clean_line(editor.display_title)}”?",
                yes="Quit without saving",
                no="Keep editing",
            ),
            answered,
        )

    async def _save_then_quit(self) -> None:
        """Save the editor, and quit once it is saved; a refusal or a question keeps the app open."""
        screen = self.main_screen
        pending = screen.detail.save_editor()
        if pending is None:
            self._stop_and_exit()
            return
        outcome = await pending  # the editor has settled it by now
        if isinstance(outcome, Saved | Created | FrontmatterSaved) and not screen.editor.is_dirty:
            self._stop_and_exit()
            return
        self.notify("Not quit: the edits are not saved yet.", severity="warning", markup=False)

    def _stop_and_exit(self) -> None:
        # The person chose to quit: a draft offered back at start was saved or dropped.
        self.main_screen.drafts.person_quit()
        self.session.stop()
        self.exit()
