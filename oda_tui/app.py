"""The Textual app: one main screen over a store session, with the person's themes and keys."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App

from .config.keymap import load_keymap
from .config.theming import load_themes, save_theme, saved_theme
from .keys.actions import Place
from .keys.bindings import bindings
from .screens.base import OpenMemory
from .screens.main import MainScreen
from .session.session import StoreSession
from .session.watcher import DiskWatcher, FilesChanged
from .text.safe import clean_line

if TYPE_CHECKING:
    from textual.command import Provider


def _commands() -> type[Provider]:
    from .palette import OdaCommands  # imported when the palette first opens

    return OdaCommands


class OdaApp(App[None]):
    """Browse and edit every memory Oda keeps, live with the disk."""

    # The default screen's own CSS_PATH is not loaded by Textual, so the app loads it.
    CSS_PATH = ["oda.tcss", "screens/main.tcss"]
    TITLE = "Oda memory"
    COMMANDS = App.COMMANDS | {_commands}
    BINDINGS = bindings(Place.APP)

    def __init__(self, root: Path, workspace: str | None = None, *, watch: bool = True) -> None:
        super().__init__()
        self.session = StoreSession(self, Path(root), workspace, watch=watch)
        self.start_workspace = workspace
        self.sub_title = clean_line(str(root))
        self._themes_ready = False
        # Before any screen is made: each applies the keymap to its own bindings (PersonKeys).
        loaded = load_keymap()
        if loaded.keymap:
            self.set_keymap(loaded.keymap)
        self._keymap_problems = loaded.problems

    @property
    def root(self) -> Path:
        """The store's folder."""
        return self.session.root

    @property
    def watcher(self) -> DiskWatcher | None:
        """What follows the disk (None when the app does not watch)."""
        return self.session.watcher

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
        for problem in self._keymap_problems:
            self.notify(f"Keymap: {problem}", severity="warning", markup=False, timeout=10)
        self._load_themes()

    def _load_themes(self) -> None:
        loaded = load_themes()
        for theme in loaded.themes:
            self.register_theme(theme)
        for problem in loaded.problems:
            self.notify(f"Theme skipped: {problem}", severity="warning", markup=False, timeout=10)
        wanted = saved_theme()
        if wanted and wanted in self.available_themes:
            self.theme = wanted
        elif wanted:
            self.notify(
                f"The theme “{wanted}” chosen last time is not available.",
                severity="warning",
                markup=False,
            )
        self._themes_ready = True

    def watch_theme(self, theme: str) -> None:
        # Only a choice made after start-up is remembered, not the start-up default.
        if self._themes_ready:
            save_theme(theme)

    def on_files_changed(self, message: FilesChanged) -> None:
        self.session.files_changed()

    def on_open_memory(self, message: OpenMemory) -> None:
        self.main_screen.jump_to(message.scope, message.memory_id)

    def on_unmount(self) -> None:
        self.session.stop()

    async def action_quit(self) -> None:
        """Quit; with unsaved edits, ask first."""
        try:
            editor = self.main_screen.editor
        except LookupError:
            self.exit()
            return
        if not editor.is_dirty:
            self._stop_and_exit()
            return
        from .dialogs.confirm import ConfirmDialog

        if isinstance(self.screen, ConfirmDialog):
            return

        def answered(discard: bool | None) -> None:
            if discard:
                self._stop_and_exit()

        self.push_screen(
            ConfirmDialog(
                f"Quit and discard your unsaved changes to “{clean_line(editor.display_title)}”?",
                yes="Quit",
                no="Keep editing",
            ),
            answered,
        )

    def _stop_and_exit(self) -> None:
        self.session.stop()
        self.exit()
