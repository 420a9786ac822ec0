"""Review what the agent saved: accept, edit, turn off or delete, with the agent's diff."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from store import ReviewItem, scope_label

from ..dialogs import ConfirmDialog
from ..keys.actions import Place
from ..keys.bindings import bindings
from ..own_files.review_marks import mark_reviewed, pending_review
from ..text.diffing import diff_legend, word_diff
from ..text.format import full_moment
from ..text.glyphs import app_words, glyph
from ..text.safe import clean_block, clean_line
from ..text.words import saved_by
from ..widgets.key_footer import KeyFooter
from ..widgets.wrapping_option_list import WrappingOptionList
from .base import SubScreen

if TYPE_CHECKING:
    from store import MemoryStore


def what_happened(item: ReviewItem) -> str:
    """ "created by a chat", "changed by a chat" or "deleted by a chat"."""
    if item.deleted_by_agent:
        return "deleted by a chat"
    return "created by a chat" if item.created_by_agent else "changed by a chat"


class ReviewRead(NamedTuple):
    """The memories waiting for review, and why they could not be read."""

    items: list[ReviewItem]
    error: str | None = None


class ReviewScreen(SubScreen[ReviewRead]):
    """Memories a chat (the agent) created or changed since the last review."""

    CSS_PATH = "review.tcss"
    BINDINGS = bindings(Place.REVIEW) + bindings(Place.SCREENS)
    HELP_PLACE = Place.REVIEW

    def __init__(self) -> None:
        super().__init__()
        self.items: list[ReviewItem] = []

    def compose(self) -> ComposeResult:
        yield Header(icon=glyph("app"))
        with Horizontal(id="review-body"):
            yield WrappingOptionList(id="review-list", markup=False)
            with VerticalScroll(id="review-view"):
                yield Static("", id="review-head", markup=False)
                yield Static("", id="review-diff")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.sub_title = "Saved or changed by the agent, waiting for review"
        self.query_one("#review-list", OptionList).border_title = "To review"
        self.load()

    def read(self, store: MemoryStore) -> ReviewRead:
        """Read the memories waiting for review."""
        try:
            return ReviewRead(pending_review(store))
        except OSError as exc:
            return ReviewRead([], f"The review list could not be read: {exc}")

    def show_loaded(self, content: ReviewRead) -> None:
        if content.error:
            self.notify(clean_line(content.error), severity="error", markup=False)
        self.items = content.items
        option_list = self.query_one("#review-list", OptionList)
        keep = option_list.highlighted or 0
        option_list.clear_options()
        for item in self.items:
            prompt = Text(no_wrap=True, overflow="ellipsis")
            prompt.append(clean_line(item.memory.title) or "(no title)", style="bold")
            happened = "deleted" if item.deleted_by_agent else "new" if item.created_by_agent else "changed"
            off = "" if item.memory.enabled else f" {glyph('dot')} off"
            prompt.append(f"\n{scope_label(item.memory.scope)} {glyph('dot')} {happened}{off}", style="dim")
            option_list.add_option(Option(prompt))
        count = len(self.items)
        option_list.border_title = f"To review {glyph('dot')} {count}"
        if self.items:
            option_list.highlighted = min(keep, count - 1)
            self._show(self.items[option_list.highlighted])
        else:
            self.query_one("#review-head", Static).update(
                "Nothing to review: every memory the agent saved has been looked at."
            )
            self.query_one("#review-diff", Static).update("")
        option_list.focus()

    @on(OptionList.OptionHighlighted, "#review-list")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_index < len(self.items):
            self._show(self.items[event.option_index])
        self.highlighted = event.option_index

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Each key is offered where it works: nothing to act on in an empty list; a memory the
        # chat deleted is accepted or restored (e), not turned off or deleted; one that is off
        # already is not turned off.
        if action not in ("accept", "edit", "turn_off", "delete"):
            return True
        item = self._selected() if self.is_mounted else None
        if item is None:
            return False
        if action == "turn_off":
            return item.memory.enabled and not item.deleted_by_agent
        return action != "delete" or not item.deleted_by_agent

    @on(OptionList.OptionSelected, "#review-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.action_edit()

    def _show(self, item: ReviewItem) -> None:
        memory = item.memory
        if item.deleted_by_agent:
            head = [
                f"“{clean_line(memory.title)}” in {scope_label(memory.scope)}.",
                f"Deleted by a chat on {full_moment(item.newest.moment)}; it waits under Recently deleted.",
                "Accept (a) to leave it deleted, or edit (e) to restore it. Its text was:",
            ]
            self.query_one("#review-head", Static).update(app_words("\n".join(head)))
            self.query_one("#review-diff", Static).update(Text(clean_block(item.before_text)))
            return
        session = f" (chat {clean_line(memory.session_id)})" if memory.session_id else ""
        head = [
            f"“{clean_line(memory.title)}” in {scope_label(memory.scope)}, {saved_by(memory.source)}{session}.",
            f"{what_happened(item).capitalize()} on {full_moment(item.newest.moment)}.",
        ]
        if item.created_by_agent:
            head.append("The agent wrote:")
            diff = Text(clean_block(item.after_text))
        else:
            if item.before_title != item.after_title:
                head.append(f"Title: {clean_line(item.before_title)} → {clean_line(item.after_title)}")
            head.append(f"What the agent changed ({diff_legend('went', 'came')}):")
            diff = word_diff(item.before_text, item.after_text)
        self.query_one("#review-head", Static).update(app_words("\n".join(head)))
        self.query_one("#review-diff", Static).update(diff)

    def _selected(self) -> ReviewItem | None:
        index = self.query_one("#review-list", OptionList).highlighted
        if index is None or index >= len(self.items):
            return None
        return self.items[index]

    def action_accept(self) -> None:
        """Mark the memory reviewed as it is now."""
        item = self._selected()
        if item is None:
            return
        memory, version = item.memory, item.newest.name
        self.run_change(
            lambda store: mark_reviewed(store, memory.scope, memory.id, version=version),
            f"Accepted “{clean_line(memory.title)}”.",
        )

    def action_edit(self) -> None:
        """Open the memory in the editor (saving it there is the review); a memory the chat
        deleted is restored first."""
        item = self._selected()
        if item is None:
            return
        memory = item.memory
        if item.deleted_by_agent:
            self.run_change(
                lambda store: store.restore_deleted(memory.scope, memory.id),
                f"Restored “{clean_line(memory.title)}”.",
            )
            return
        self.open_memory(memory.scope, memory.id)

    def action_turn_off(self) -> None:
        """Turn the memory off (and count it as reviewed)."""
        item = self._selected()
        if item is None or self._already_deleted(item):
            return
        memory, version = item.memory, item.newest.name

        def turn_off(store: MemoryStore) -> None:
            store.set_enabled(memory.scope, memory.id, False)
            mark_reviewed(store, memory.scope, memory.id, version=version)

        self.run_change(turn_off, f"“{clean_line(memory.title)}” is turned off.")

    def action_delete(self) -> None:
        """Delete the memory, after a confirmation."""
        item = self._selected()
        if item is None or self._already_deleted(item):
            return
        memory = item.memory

        def answered(yes: bool | None) -> None:
            if yes:
                self.run_change(
                    lambda store: store.delete(memory.scope, memory.id),
                    f"Deleted “{clean_line(memory.title)}”. It waits under Recently deleted.",
                )

        self.app.push_screen(
            ConfirmDialog(
                f"Delete “{clean_line(memory.title)}” from {scope_label(memory.scope)}?",
                yes="Delete",
                no="Cancel",
                detail="It moves to Recently deleted, where you can restore it.",
            ),
            answered,
        )

    def _already_deleted(self, item: ReviewItem) -> bool:
        if item.deleted_by_agent:
            self.notify("The chat deleted it already: a accepts that, e restores it.", markup=False)
        return item.deleted_by_agent
