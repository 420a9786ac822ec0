"""Which of the main screen's keys are offered where the focus is (its ``check_action``).

A printable key is not even offered while a text field has the focus: the field consumes it (see
``keys.bindings``); every other key keeps working there. Keys that act on a memory are offered
only when there is one; before the detail pane is mounted the keys that need it are offered and
kept until it is there (``until_pane``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Concatenate, ParamSpec, TypeVar

from ...keys.actions import MAIN_ON_MEMORY
from .view import MainView

P = ParamSpec("P")
ScreenT = TypeVar("ScreenT", bound=MainView)


def offered(screen: MainView, action: str, parameters: tuple[object, ...]) -> bool | None:
    """True when the action's key is offered (and runs), False when it is hidden."""
    focused = screen.focused
    if action == "filter":
        # Textual does not know ``slash`` as the character ``/``: ask the field itself.
        return focused is None or not focused.check_consume_key("slash", "/")
    if not screen.detail_ready:
        return action not in ("save", "revert", "back")  # nothing to save or leave yet
    editor, detail = screen.editor, screen.detail
    if action in ("save", "revert"):
        # Shown only while there is something to save (or, for revert, edits it dropped to bring
        # back), so the Footer fits 80 columns.
        back = action == "revert" and editor.can_bring_back
        return editor.is_dirty or back or (editor.is_new and detail.contains(focused))
    if action == "back":
        filtering = bool(screen.browse.filter_words)
        return detail.contains(focused) or focused is screen.browse.filter_input or filtering
    if action in MAIN_ON_MEMORY:
        # Offered only when there is a memory to act on (an empty store or filter has none).
        return in_editor_form(screen) or screen.target() is not None
    return True


def in_editor_form(screen: MainView) -> bool:
    """True when the focus is in the editor's form, open on a memory or a new one."""
    editor, detail = screen.editor, screen.detail
    return (
        detail.active == "tab-editor"
        and detail.contains(screen.focused)
        and (editor.memory is not None or editor.is_new)
    )


def until_pane(
    method: Callable[Concatenate[ScreenT, P], None],
) -> Callable[Concatenate[ScreenT, P], None]:
    """A main-screen action that needs the detail pane: asked for before the pane is mounted
    (a key typed as the list appears), it is kept and done once the pane is there."""

    @functools.wraps(method)
    def run(screen: ScreenT, /, *args: P.args, **kwargs: P.kwargs) -> None:
        if screen.detail_ready:
            method(screen, *args, **kwargs)
        else:
            screen.keep_for_pane(lambda: run(screen, *args, **kwargs))

    return run
