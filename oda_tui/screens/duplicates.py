"""Duplicates: memories a chat receives twice, to keep one of; similar ones shown apart."""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from store import scope_label

from ..dialogs import ConfirmDialog
from ..keys.actions import Place
from ..keys.bindings import bindings
from ..own_files.hygiene import Group, read_groups
from ..text.glyphs import app_words, glyph
from ..text.safe import clean_block, clean_line
from ..text.words import on_off
from ..widgets.key_footer import KeyFooter
from ..widgets.wrapping_option_list import WrappingOptionList
from .base import SubScreen

if TYPE_CHECKING:
    from store import Memory, MemoryStore


DUPLICATE_NOTE = (
    "Same text once case, accents, punctuation and spacing are ignored. Only memories that are "
    "on count: turning the others off ends the group."
)
SIMILAR_NOTE = (
    "Similar, not duplicates: the same title, or one text contains the other. Open one with "
    "Enter to merge them by hand."
)


class DuplicatesScreen(SubScreen[list[Group]]):
    """Duplicate groups, then similar groups; each member is a row to pick as the one to keep."""

    CSS_PATH = "duplicates.tcss"
    BINDINGS = bindings(Place.DUPLICATES) + bindings(Place.SCREENS)
    HELP_PLACE = Place.DUPLICATES

    def __init__(self) -> None:
        super().__init__()
        self.groups: list[Group] = []
        #: For each option: (group index, member index), or None for a group's heading.
        self.rows: list[tuple[int, int] | None] = []

    def compose(self) -> ComposeResult:
        yield Header(icon=glyph("app"))
        with Horizontal(id="duplicates-body"):
            yield WrappingOptionList(id="duplicate-list", markup=False)
            with VerticalScroll(id="duplicate-view"):
                yield Static("", id="duplicate-head", markup=False)
                yield Static("", id="duplicate-text", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.sub_title = "Duplicates and similar memories"
        self.query_one("#duplicate-list", OptionList).border_title = "Pick the one to keep"
        self.load()

    def read(self, store: MemoryStore) -> list[Group]:
        """Read the duplicate and similar groups."""
        return read_groups(store)

    def show_loaded(self, content: list[Group]) -> None:
        self.groups = content
        option_list = self.query_one("#duplicate-list", OptionList)
        keep = option_list.highlighted or 0
        option_list.clear_options()
        self.rows = []
        options: list[Option] = []
        for g, group in enumerate(self.groups):
            heading = "Duplicates" if group.kind == "duplicate" else "Similar"
            style = "bold yellow" if group.kind == "duplicate" else "bold"
            title = Text(
                f"{heading} {glyph('dot')} {group.where}", style=style, no_wrap=True, overflow="ellipsis"
            )
            options.append(Option(title, disabled=True))
            self.rows.append(None)
            for m, memory in enumerate(group.members):
                prompt = Text(no_wrap=True, overflow="ellipsis")
                prompt.append("  ")
                prompt.append(clean_line(memory.title) or "(no title)")
                prompt.append(
                    f"\n  {scope_label(memory.scope)} {glyph('dot')} {on_off(memory.enabled)}", style="dim"
                )
                options.append(Option(prompt))
                self.rows.append((g, m))
        # All at once: the list lays itself out once, not once per row (seconds for thousands).
        option_list.add_options(options)
        if self.groups:
            option_list.highlighted = self._nearest_member(min(keep, len(self.rows) - 1))
        else:
            self.query_one("#duplicate-head", Static).update(
                "No duplicates and no similar memories among the memories that are on."
            )
            self.query_one("#duplicate-text", Static).update("")
        option_list.focus()

    def _nearest_member(self, index: int) -> int:
        for candidate in chain(range(index, len(self.rows)), range(index, -1, -1)):
            if self.rows[candidate] is not None:
                return candidate
        return 0

    @on(OptionList.OptionHighlighted, "#duplicate-list")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        picked = self._picked()
        if picked is not None:
            self._show(*picked)
        self.highlighted = event.option_index

    @on(OptionList.OptionSelected, "#duplicate-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        picked = self._picked()
        if picked is None:
            return
        group, memory = picked
        self.open_memory(memory.scope, memory.id)

    def _picked(self) -> tuple[Group, Memory] | None:
        index = self.query_one("#duplicate-list", OptionList).highlighted
        row = self.rows[index] if index is not None and index < len(self.rows) else None
        if row is None:
            return None
        group = self.groups[row[0]]
        return group, group.members[row[1]]

    def _show(self, group: Group, chosen: Memory) -> None:
        kind = "Duplicates" if group.kind == "duplicate" else "Similar memories"
        lines = [f"{kind} in {group.where}:"]
        for memory in group.members:
            mark = "▶ " if memory is chosen else "  "
            lines.append(f"{mark}“{clean_line(memory.title)}” in {scope_label(memory.scope)}")
        lines.append("")
        lines.append(DUPLICATE_NOTE if group.kind == "duplicate" else SIMILAR_NOTE)
        if group.kind == "duplicate":
            lines.append(
                "K keeps the one marked ▶ and turns the others off; d deletes the others "
                "(they wait under Recently deleted, and history keeps every version)."
            )
        lines.append("")
        lines.append(f"The text of “{clean_line(chosen.title)}”:")
        self.query_one("#duplicate-head", Static).update(app_words("\n".join(lines)))
        self.query_one("#duplicate-text", Static).update(clean_block(chosen.text))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Keep and delete act on duplicates only: not offered at all on a similar group.
        if action in ("keep", "delete_others"):
            picked = self._picked() if self.is_mounted else None
            return picked is not None and picked[0].kind == "duplicate"
        return True

    def _duplicate_pick(self) -> tuple[Memory, list[Memory]] | None:
        picked = self._picked()
        if picked is None:
            self.notify("Pick a memory of a group first.", markup=False)
            return None
        group, chosen = picked
        if group.kind != "duplicate":
            self.notify(
                "These are similar, not the same text: open one with Enter and merge them by hand.",
                markup=False,
            )
            return None
        return chosen, [m for m in group.members if m is not chosen]

    def action_keep(self) -> None:
        """Keep the selected memory and turn the others of its group off."""
        pick = self._duplicate_pick()
        if pick is None:
            return
        chosen, others = pick

        def turn_off(store: MemoryStore) -> None:
            for memory in others:
                store.set_enabled(memory.scope, memory.id, False)

        count = len(others)
        self.run_change(
            turn_off,
            f"Kept “{clean_line(chosen.title)}”; turned off {count} other{'s' if count != 1 else ''}.",
        )

    def action_delete_others(self) -> None:
        """Delete the other memories of the group, after a confirmation."""
        pick = self._duplicate_pick()
        if pick is None:
            return
        chosen, others = pick

        def delete(store: MemoryStore) -> None:
            for memory in others:
                store.delete(memory.scope, memory.id)

        count = len(others)
        noun = "copy" if count == 1 else "copies"
        where = ", ".join(sorted({scope_label(m.scope) for m in others}))

        def answered(yes: bool | None) -> None:
            if yes:
                self.run_change(delete, f"Deleted {count} {noun}; kept “{clean_line(chosen.title)}”.")

        self.app.push_screen(
            ConfirmDialog(
                f"Delete {count} other {noun} of “{clean_line(chosen.title)}” (in {where})?",
                yes="Delete",
                no="Cancel",
                detail="They move to Recently deleted, where you can restore them; "
                "their history keeps every version.",
            ),
            answered,
        )
