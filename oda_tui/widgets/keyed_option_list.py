"""An option list with the keys of every list (``j``/``k``, ``g``/``G``, Ctrl+D/Ctrl+U, from the
registry, so a keymap remaps them) and the cursor's place in its border (``3/12``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Self

from textual._widget_navigation import (
    find_first_enabled,
    find_last_enabled,
    find_next_enabled,
    find_next_enabled_no_wrap,
)
from textual.widgets import OptionList
from textual.widgets._option_list import Option, OptionListContent

from ..keys.actions import Place
from ..keys.bindings import apply_person_keys, bindings
from ..text.format import page_step, position


class KeyedOptionList(OptionList):
    """Every option list of the app: the scopes, the sub-screens' lists, the scope picker."""

    BINDINGS = bindings(Place.LISTS)

    def __init__(self, *content: OptionListContent, **kwargs: Any) -> None:
        super().__init__(*content, **kwargs)
        apply_person_keys(self)
        self._show_position()

    # -- where the cursor is -------------------------------------------------------------------

    def _show_position(self) -> None:
        """The highlighted option's place among the ones that can be chosen (a group's heading,
        disabled, is not counted), in the border."""
        options = self._options
        if not any(option.disabled for option in options):
            at, total = (self.highlighted or 0), len(options)
        else:
            enabled = [index for index, option in enumerate(options) if not option.disabled]
            at = sum(1 for index in enabled if index < (self.highlighted or 0))
            total = len(enabled)
        self.border_subtitle = position(at, total)

    def watch_highlighted(self, highlighted: int | None) -> None:
        super().watch_highlighted(highlighted)
        self._show_position()

    def add_options(self, new_options: Iterable[OptionListContent]) -> Self:
        super().add_options(new_options)
        self._show_position()
        return self

    def clear_options(self) -> Self:
        super().clear_options()
        self._show_position()
        return self

    def _remove_option(self, option: Option) -> Self:
        super()._remove_option(option)
        self._show_position()
        return self

    # -- the keys ------------------------------------------------------------------------------

    def action_cursor(self, delta: int) -> None:
        """The previous (``-1``) or next (``1``) option that can be chosen."""
        self.highlighted = find_next_enabled(
            self.options, anchor=self.highlighted, direction=1 if delta > 0 else -1
        )

    def action_page(self, pages: float) -> None:
        """Move ``pages`` pages up (negative) or down: ``1``, or ``0.5`` for half a page."""
        if not self._options:
            return
        if self.highlighted is None:
            self.action_jump(0 if pages < 0 else -1)
            return
        lines = self._lines
        step = page_step(pages, max(self.scrollable_content_region.height, 1))
        y = max(0, min(self._index_to_line[self.highlighted] + step, len(lines) - 1))
        self.highlighted = find_next_enabled_no_wrap(
            candidates=self._options, anchor=lines[y][0], direction=1 if pages > 0 else -1, with_anchor=True
        )

    def action_jump(self, row: int) -> None:
        """The first (``0``) or last (``-1``) option that can be chosen."""
        self.highlighted = find_first_enabled(self.options) if row >= 0 else find_last_enabled(self.options)
