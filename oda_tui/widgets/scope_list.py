"""The list of scopes: Global and each workspace, with counts and a problem mark."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option, OptionDoesNotExist

from store import Scope

from ..session.snapshot import ScopeSummary
from ..text.glyphs import glyph
from ..text.safe import clean_line
from .keyed_option_list import KeyedOptionList

# Not a valid workspace key (keys start with a letter or digit), so it cannot clash.
GLOBAL_OPTION_ID = ":global"


def option_id(scope: Scope) -> str:
    """The option id of a scope."""
    return GLOBAL_OPTION_ID if scope is None else scope


def scope_of_option(option_id_: str | None) -> Scope:
    """The scope an option id stands for."""
    return None if option_id_ in (None, GLOBAL_OPTION_ID) else option_id_


def scope_prompt(summary: ScopeSummary) -> Text:
    """One option's text: name, memory count, and a mark when the scope has problem files."""
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(clean_line(summary.label), style="bold" if summary.scope is None else "")
    text.append(f" {summary.count}", style="dim")
    if summary.problems:
        text.append(f" {glyph('problem')}{summary.problems}", style="bold yellow")
    return text


class ScopeList(KeyedOptionList):
    """Global and the workspaces; highlighting one selects it."""

    DEFAULT_CSS = """
    ScopeList {
        text-wrap: nowrap;
        text-overflow: ellipsis;
        border: round $panel-lighten-2;
        border-title-color: $text-muted;
        scrollbar-size-vertical: 1;
    }
    ScopeList:focus {
        border: round $primary;
    }
    """

    class ScopeHighlighted(Message):
        """The person moved to another scope."""

        def __init__(self, scope: Scope) -> None:
            super().__init__()
            self.scope = scope

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)
        self._summaries: tuple[ScopeSummary, ...] = ()

    @property
    def current_scope(self) -> Scope:
        """The highlighted scope (Global when nothing is highlighted)."""
        if self.highlighted is None:
            return None
        return scope_of_option(self.get_option_at_index(self.highlighted).id)

    def show(self, summaries: Sequence[ScopeSummary], current: Scope) -> None:
        """Show these scopes, changing only the options that differ; keeps ``current`` highlighted."""
        summaries = tuple(summaries)
        if summaries == self._summaries:
            return
        old_ids = [option_id(s.scope) for s in self._summaries]
        new_ids = [option_id(s.scope) for s in summaries]
        with self.prevent(OptionList.OptionHighlighted):
            if old_ids == new_ids:
                for old, new in zip(self._summaries, summaries, strict=True):
                    if old != new:
                        self.replace_option_prompt(option_id(new.scope), scope_prompt(new))
            else:
                self.clear_options()
                self.add_options(Option(scope_prompt(s), id=option_id(s.scope)) for s in summaries)
            self._summaries = summaries
            self.select_scope(current)

    def select_scope(self, scope: Scope) -> None:
        """Highlight a scope without announcing it."""
        with self.prevent(OptionList.OptionHighlighted):
            try:
                self.highlighted = self.get_option_index(option_id(scope))
            except OptionDoesNotExist:
                self.highlighted = 0 if self.option_count else None

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self.post_message(self.ScopeHighlighted(scope_of_option(event.option.id)))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.ScopeHighlighted(scope_of_option(event.option.id)))
