"""Recently deleted: every deleted memory of each scope, to restore or (after asking) purge."""

from __future__ import annotations

from typing import NamedTuple

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from store import Deleted, MemoryStore, StoreError, scope_label

from ..dialogs import ConfirmDialog
from ..keys.actions import Place
from ..keys.bindings import bindings
from ..text.format import full_moment
from ..text.glyphs import app_words, glyph
from ..text.safe import clean_block, clean_line
from ..widgets.key_footer import KeyFooter
from ..widgets.wrapping_option_list import WrappingOptionList
from .base import SubScreen


def when(entry: Deleted) -> str:
    """When it went: the deletion, or for a file removed outside the app, its newest version."""
    if entry.outside:
        return f"removed outside the app (newest version {full_moment(entry.deleted_at)})"
    return f"deleted {full_moment(entry.deleted_at)}"


class DeletedRead(NamedTuple):
    """The deleted memories of every scope, newest first, and the scopes that could not be read."""

    entries: list[Deleted]
    errors: list[str]


class DeletedScreen(SubScreen[DeletedRead]):
    """Deleted memories of every scope, newest first; files removed outside the app whose
    versions remain are listed too."""

    CSS_PATH = "deleted.tcss"
    BINDINGS = bindings(Place.DELETED) + bindings(Place.SCREENS)
    HELP_PLACE = Place.DELETED

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[Deleted] = []

    def compose(self) -> ComposeResult:
        yield Header(icon=glyph("app"))
        with Horizontal(id="deleted-body"):
            yield WrappingOptionList(id="deleted-list", markup=False)
            with VerticalScroll(id="deleted-view"):
                yield Static("", id="deleted-head", markup=False)
                yield Static("", id="deleted-text", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.sub_title = "Recently deleted"
        self.query_one("#deleted-list", OptionList).border_title = "Recently deleted"
        self.load()

    def read(self, store: MemoryStore) -> DeletedRead:
        """Read the deleted memories of every scope."""
        entries: list[Deleted] = []
        errors: list[str] = []
        for scope in [None, *store.workspaces()]:
            try:
                entries.extend(store.deleted(scope))
            except StoreError as exc:
                errors.append(str(exc))
        entries.sort(key=lambda d: (d.deleted_at, d.id), reverse=True)
        return DeletedRead(entries, errors)

    def show_loaded(self, content: DeletedRead) -> None:
        for error in content.errors:
            self.notify(clean_line(error), severity="error", markup=False)
        self.entries = content.entries
        option_list = self.query_one("#deleted-list", OptionList)
        keep = option_list.highlighted or 0
        option_list.clear_options()
        for entry in self.entries:
            prompt = Text(no_wrap=True, overflow="ellipsis")
            prompt.append(clean_line(entry.title) or "(no title)", style="bold")
            if entry.problem:
                prompt.append("  (a problem file)", style="yellow")
            prompt.append("\n")
            prompt.append(f"{scope_label(entry.scope)} {glyph('dot')} {when(entry)}")
            option_list.add_option(Option(prompt))
        if self.entries:
            option_list.highlighted = min(keep, len(self.entries) - 1)
            self._show(self.entries[option_list.highlighted])
        else:
            self.query_one("#deleted-head", Static).update("Nothing is waiting under Recently deleted.")
            self.query_one("#deleted-text", Static).update("")
        option_list.focus()

    @on(OptionList.OptionHighlighted, "#deleted-list")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_index < len(self.entries):
            self._show(self.entries[event.option_index])

    @on(OptionList.OptionSelected, "#deleted-list")
    def _selected_with_enter(self, event: OptionList.OptionSelected) -> None:
        self.action_restore()

    def _show(self, entry: Deleted) -> None:
        self.query_one("#deleted-head", Static).update(
            app_words(
                f"“{clean_line(entry.title)}” in {scope_label(entry.scope)}, {when(entry)}. "
                + ("Its newest version, which r restores:" if entry.outside else "Its last text:")
            )
        )
        self.query_one("#deleted-text", Static).update(
            clean_block(entry.text) if entry.text else "(a problem file: no readable text)"
        )

    def _selected(self) -> Deleted | None:
        index = self.query_one("#deleted-list", OptionList).highlighted
        if index is None or index >= len(self.entries):
            return None
        return self.entries[index]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Restore and purge act on a deleted memory: not offered while none is listed.
        if action in ("restore", "purge"):
            return bool(self.entries)
        return True

    def action_restore(self) -> None:
        """Put the memory back (the replaced state is kept as a version)."""
        entry = self._selected()
        if entry is None:
            return
        self.run_change(
            lambda store: store.restore_deleted(entry.scope, entry.id),
            f"Restored “{clean_line(entry.title)}”.",
        )

    def action_purge(self) -> None:
        """Remove it and all its versions for good, after a confirmation."""
        entry = self._selected()
        if entry is None:
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.run_change(
                    lambda store: store.purge_deleted(entry.scope, entry.id),
                    f"Purged “{clean_line(entry.title)}”.",
                )

        self.app.push_screen(
            ConfirmDialog(
                f"Purge “{clean_line(entry.title)}” for good?",
                yes="Purge",
                no="Cancel",
                detail="This removes the memory and all its versions. It cannot be undone; "
                "it is the only change in this app that cannot.",
            ),
            answered,
        )
