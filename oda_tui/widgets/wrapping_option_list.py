"""An option list whose options may wrap over several lines, measured again when its
vertical scrollbar comes or goes.

Textual measures how many lines each option takes once per size of the widget. The scrollbar
appearing takes two columns without resizing the widget, so an option that wraps one more
time at the narrower width would lose its last line, with no way to scroll to it.
"""

from __future__ import annotations

from .keyed_option_list import KeyedOptionList


class WrappingOptionList(KeyedOptionList):
    """An ``OptionList`` that measures its options again at the width left by its scrollbar."""

    def watch_show_vertical_scrollbar(self) -> None:
        self._clear_caches()  # Textual's own reset, as on a resize
        self.call_after_refresh(self.scroll_to_highlight)
