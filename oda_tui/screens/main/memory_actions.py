"""What the main screen's keys do to the memory they act on, outside the editor: turn it on or
off, delete it after asking, open it in the person's own editor, put its id or its file's path
on the clipboard (copy and move to another scope are ``moving``).
Each is called by the main screen's action of the same key (``MainScreen.action_toggle_memory``);
what they need that the first frame does not (a dialog, the editor launcher) is imported when
first used."""

from __future__ import annotations

from typing import TYPE_CHECKING

from store import scope_label

from ...session.outcomes import Deleted, Operation, simple
from ...text.safe import clean_line
from .key_policy import in_editor_form

if TYPE_CHECKING:
    from store import Memory

    from .view import MainView


def toggle_memory(screen: MainView, memory: Memory | None) -> None:
    """Turn ``memory`` on or off; in the editor's form, flip its switch instead: one of the
    edits, saved with them (Ctrl+S), as Space on the switch is."""
    if in_editor_form(screen):
        screen.editor.switch.toggle()
        return
    if memory is None:
        screen.notify("There is no memory here to turn on or off.", markup=False)
        return
    screen.detail.set_enabled(memory.scope, memory.id, not memory.enabled)


def delete_memory(screen: MainView, memory: Memory | None) -> None:
    """Delete ``memory``, after a confirmation."""
    from ...dialogs.confirm import ConfirmDialog

    if memory is None:
        screen.notify("There is no memory here to delete.", markup=False)
        return

    def answered(yes: bool | None) -> None:
        if yes:
            delete = Operation(
                lambda store: store.delete(memory.scope, memory.id), lambda _r: Deleted(memory.title)
            )
            screen.run_operation(delete)

    detail = "It moves to Recently deleted, where you can restore it."
    if screen.editor.memory_id == memory.id and screen.editor.is_dirty:
        detail += " Your unsaved edits to it are lost."
    screen.app.push_screen(
        ConfirmDialog(
            f"Delete “{clean_line(memory.title)}” from {scope_label(memory.scope)}?",
            yes="Delete",
            no="Cancel",
            detail=detail,
        ),
        answered,
    )


def edit_outside(screen: MainView, memory: Memory | None) -> None:
    """Open ``memory``'s file in $VISUAL or $EDITOR; it is read again on return."""
    from ...external_editor import open_in_editor

    if memory is None:
        screen.notify("There is no memory here to open.", markup=False)
        return

    def edit() -> None:
        if screen.editor.memory_id == memory.id:
            screen.editor.revert()
        error = open_in_editor(screen.app, memory.path)
        if error:
            screen.notify(error, severity="warning", markup=False)
        screen.run_operation(simple(lambda store: store.refresh([memory.path])))

    screen.detail.guard(edit)


def copy_to_clipboard(screen: MainView, memory: Memory | None, what: str) -> None:
    """Put ``memory``'s id (``what`` is ``"id"``) or its file's path (``"path"``) on the clipboard.

    Through the terminal (OSC 52, as Textual's ``copy_to_clipboard`` sends it), so it works over
    SSH and in tmux; a terminal that does not let programs set its clipboard ignores it, which
    the app cannot see, so the notice says so.
    """
    if memory is None:
        screen.notify(f"There is no memory here to copy the {what} of.", markup=False)
        return
    text = memory.id if what == "id" else str(memory.path)
    screen.app.copy_to_clipboard(text)
    screen.notify(
        f"Copied the {what} of “{clean_line(memory.title)}” to the clipboard: {clean_line(text)} "
        "(if your terminal lets programs set it).",
        markup=False,
    )
