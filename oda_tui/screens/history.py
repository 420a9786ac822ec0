"""The history of one memory: every version, its source in words, a diff, restore and undo."""

from __future__ import annotations

from typing import NamedTuple

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from store import Memory, MemoryStore, Scope, StoreError, Version, scope_label

from ..keys.actions import Place
from ..keys.bindings import bindings
from ..text.diffing import diff_legend, word_diff
from ..text.format import full_moment
from ..text.glyphs import glyph
from ..text.safe import clean_block, clean_line
from ..text.words import source_words
from ..widgets.key_footer import KeyFooter
from ..widgets.wrapping_option_list import WrappingOptionList
from .base import SubScreen


class HistoryRead(NamedTuple):
    """The versions of a memory as read from the store, the memory now (None once deleted),
    and why the versions could not be read."""

    memory: Memory | None
    versions: list[Version]
    error: str | None


class HistoryScreen(SubScreen[HistoryRead]):
    """Versions of one memory, newest first; restoring or undoing asks no confirmation."""

    CSS_PATH = "history.tcss"
    BINDINGS = bindings(Place.HISTORY) + bindings(Place.SCREENS)
    HELP_PLACE = Place.HISTORY

    def __init__(self, scope: Scope, memory_id: str, title: str) -> None:
        super().__init__()
        self.scope = scope
        self.memory_id = memory_id
        self.memory_title = title
        self.memory: Memory | None = None
        self.versions: list[Version] = []

    def compose(self) -> ComposeResult:
        yield Header(icon=glyph("app"))
        with Horizontal(id="history-body"):
            yield WrappingOptionList(id="versions", markup=False)
            with VerticalScroll(id="version-view"):
                yield Static("", id="version-head", markup=False)
                yield Static("", id="version-diff")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.sub_title = f"History of “{clean_line(self.memory_title)}” in {scope_label(self.scope)}"
        self.query_one("#versions", OptionList).border_title = "Versions, newest first"
        self.load()

    def read(self, store: MemoryStore) -> HistoryRead:
        """Read the versions and the current memory."""
        try:
            memory = store.get(self.scope, self.memory_id)
        except StoreError:
            memory = None  # deleted: its versions remain
        try:
            return HistoryRead(memory, store.versions(self.scope, self.memory_id), None)
        except StoreError as exc:
            return HistoryRead(memory, [], str(exc))

    def show_loaded(self, content: HistoryRead) -> None:
        if content.error:
            self.notify(clean_line(content.error), severity="error", markup=False)
        self.memory = content.memory
        self.versions = content.versions
        option_list = self.query_one("#versions", OptionList)
        keep = option_list.highlighted or 0
        option_list.clear_options()
        for version in self.versions:
            prompt = Text(no_wrap=True, overflow="ellipsis")
            prompt.append(full_moment(version.moment))
            prompt.append(f"  {source_words(version.source)}", style="dim")
            prompt.append("\n")
            prompt.append(clean_line(version.title), style="bold")
            option_list.add_option(Option(prompt, id=version.name))
        if self.versions:
            option_list.highlighted = min(keep, len(self.versions) - 1)
            self._show(self.versions[option_list.highlighted])
        else:
            self.query_one("#version-head", Static).update("No versions are kept for this memory.")
            self.query_one("#version-diff", Static).update("")
        option_list.focus()

    @on(OptionList.OptionHighlighted, "#versions")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_index < len(self.versions):
            self._show(self.versions[event.option_index])

    def _show(self, version: Version) -> None:
        head = (
            f"{full_moment(version.moment)} {glyph('dot')} {source_words(version.source)}\n"
            f"Title: {clean_line(version.title)}\n"
        )
        current = self.memory
        diff = Text()
        if current is None:
            head += "The memory is deleted; this is its text:"
            diff = Text(clean_block(version.text))
        elif (version.title, version.text) == (current.title, current.text):
            head += "This is the current text."
            diff = Text(clean_block(version.text))
        else:
            if version.title != current.title:
                head += f"(current title: {clean_line(current.title)})\n"
            head += f"Restoring it changes the current text like this ({diff_legend('goes', 'comes back')}):"
            diff = word_diff(current.text, version.text)
        self.query_one("#version-head", Static).update(head)
        self.query_one("#version-diff", Static).update(diff)

    def _selected(self) -> Version | None:
        index = self.query_one("#versions", OptionList).highlighted
        if index is None or index >= len(self.versions):
            return None
        return self.versions[index]

    def action_restore(self) -> None:
        """Write the selected version back (kept as a version itself, so undoable)."""
        version = self._selected()
        if version is None:
            return
        current = self.memory
        if current is not None and (version.title, version.text) == (current.title, current.text):
            self.notify("This version is the current text: nothing to restore.", markup=False)
            return
        name = version.name
        self.run_change(
            lambda store: store.restore_version(self.scope, self.memory_id, name),
            f"Restored the version from {full_moment(version.moment)}.",
        )

    def action_undo(self) -> None:
        """Undo the newest change a chat made."""
        self.run_change(
            lambda store: store.undo(self.scope, self.memory_id), "Undid the newest change from a chat."
        )
