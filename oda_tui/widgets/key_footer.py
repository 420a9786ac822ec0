"""Textual's Footer, recomposed only when the keys it shows change."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen
from textual.widgets import Footer


def shown_keys(screen: Screen[Any]) -> tuple[tuple[object, ...], ...]:
    """What a footer on ``screen`` would show: each shown binding, whether it is enabled,
    and its tooltip."""
    return tuple(
        (binding.key, binding.action, binding.description, binding.group, enabled, tooltip)
        for _node, binding, enabled, tooltip in screen.active_bindings.values()
        if binding.show or binding.action == "command_palette"
    )


class KeyFooter(Footer):
    """A Footer that skips recomposing when the bindings signal brings the same keys.

    Textual's Footer mounts and styles every key again on each signal (a focus move, a
    screen change, a refresh of the bindings); at start-up that is four times in a row for
    the same keys, all while the store is being read.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._composed_for: tuple[tuple[object, ...], ...] | None = None

    def bindings_changed(self, screen: Screen[Any]) -> None:
        keys = shown_keys(screen)
        if self._bindings_ready and keys == self._composed_for:
            return
        super().bindings_changed(screen)
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            self._composed_for = keys  # a recompose is on its way for exactly these keys
