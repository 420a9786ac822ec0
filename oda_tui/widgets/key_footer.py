"""Textual's Footer, showing the keys that fit in the order of the registry (the order of use),
and recomposed only when the keys it shows change."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from ..text.glyphs import app_words

#: Columns kept for the command palette's key at the right.
PALETTE_ROOM = 13


def key_width(key: FooterKey) -> int:
    """The columns one key takes: `` k `` then ``label ``."""
    return cell_len(key.key_display) + cell_len(key.description) + 3


#: Keys shown whatever the width: Save while there is something to save, and help and a way
#: out (Back where there is one, and Quit on the main screen).
ALWAYS_SHOWN = frozenset({"save", "help", "back", "close", "quit"})


def fitting(widgets: Iterable[Widget], width: int) -> list[Widget]:
    """The widgets of a footer that fit in ``width`` columns: Help and Quit first, then the other
    keys in order until one does not fit (the rest are left out whole, never cut), and the
    palette's key; they keep the order they were given in."""
    widgets = list(widgets)
    if any(isinstance(w, FooterKey) and w.action == "close" for w in widgets):
        widgets = _without_quit(widgets)  # a sub-screen: its q goes back, Ctrl+Q is noise
    keys = [w for w in widgets if isinstance(w, FooterKey) and not w.has_class("-command-palette")]
    # One key for each of Help and Quit: the first that works here (in the editor ``q`` types,
    # so Ctrl+Q is the one shown).
    always: dict[str, FooterKey] = {}
    for key in sorted(keys, key=lambda k: k.disabled):
        if key.action in ALWAYS_SHOWN:
            always.setdefault(key.action, key)
    left_out = {id(k) for k in keys if k.action in ALWAYS_SHOWN and always[k.action] is not k}
    budget = width - PALETTE_ROOM - sum(key_width(k) for k in always.values())
    full = False
    for key in keys:
        if key.action in ALWAYS_SHOWN:
            continue
        full = full or key_width(key) > budget
        if full:
            left_out.add(id(key))
        else:
            budget -= key_width(key)
    return [w for w in widgets if id(w) not in left_out]


def _without_quit(widgets: list[Widget]) -> list[Widget]:
    return [w for w in widgets if not (isinstance(w, FooterKey) and w.action == "quit")]


def shown_keys(screen: Screen[Any]) -> tuple[tuple[object, ...], ...]:
    """What a footer on ``screen`` would show: each shown binding, whether it is enabled,
    and its tooltip."""
    return tuple(
        (binding.key, binding.action, binding.description, binding.group, enabled, tooltip)
        for _node, binding, enabled, tooltip in screen.active_bindings.values()
        if binding.show or binding.action == "command_palette"
    )


class KeyFooter(Footer):
    """A Footer of the keys that fit, which skips recomposing when nothing it shows changed.

    Textual's Footer mounts and styles every key again on each signal (a focus move, a
    screen change, a refresh of the bindings); at start-up that is four times in a row for
    the same keys, all while the store is being read.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._composed_for: tuple[object, ...] | None = None

    def _fit_key(self, screen: Screen[Any]) -> tuple[object, ...]:
        return (shown_keys(screen), self.app.size.width)

    def compose(self) -> ComposeResult:
        keys = fitting(super().compose(), self.app.size.width)
        for key in keys:  # the registry's labels ("Copy to…") in the glyph set in use
            if isinstance(key, FooterKey):
                key.description = app_words(key.description)
        yield from keys

    def bindings_changed(self, screen: Screen[Any]) -> None:
        keys = self._fit_key(screen)
        if self._bindings_ready and keys == self._composed_for:
            return
        super().bindings_changed(screen)
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            self._composed_for = keys  # a recompose is on its way for exactly these keys

    async def on_resize(self, event: events.Resize) -> None:
        if self._bindings_ready and self.is_attached and self._composed_for != self._fit_key(self.screen):
            self._composed_for = self._fit_key(self.screen)
            await self.recompose()
