"""The main screen's keys that open something else: History, Recently deleted, Problems,
Duplicates, Review, a scope picker for copy and move, the question before a delete, and the
person's own editor. Each is imported when first opened, not before the first frame."""

from __future__ import annotations

from typing import TYPE_CHECKING

from store import scope_label

from ..session.outcomes import Deleted, Operation, simple
from ..text.safe import clean_line

if TYPE_CHECKING:
    from store.model import Memory

    from ..session.session import StoreSession
    from ..widgets.editor import MemoryEditor
    from .detail import DetailPane


class OtherScreens:
    """Mixed into the main screen."""

    if TYPE_CHECKING:  # provided by the screen
        session: StoreSession
        editor: MemoryEditor
        detail: DetailPane

        def _target(self) -> Memory | None: ...
        def notify(self, message: str, **kwargs: object) -> None: ...

    def action_history(self) -> None:
        """Show every version of the memory, with restore and undo."""
        from .history import HistoryScreen

        memory = self._target()
        if memory is None:
            self.notify("There is no memory here to show the history of.", markup=False)
            return
        self.app.push_screen(HistoryScreen(memory.scope, memory.id, memory.title))

    def action_delete(self) -> None:
        """Delete the memory, after a confirmation."""
        from ..dialogs.confirm import ConfirmDialog

        memory = self._target()
        if memory is None:
            self.notify("There is no memory here to delete.", markup=False)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                delete = Operation(
                    lambda store: store.delete(memory.scope, memory.id), lambda _r: Deleted(memory.title)
                )
                self.session.run(delete, reply_to=self)

        detail = "It moves to Recently deleted, where you can restore it."
        if self.editor.memory_id == memory.id and self.editor.is_dirty:
            detail += " Your unsaved edits to it are lost."
        self.app.push_screen(
            ConfirmDialog(
                f"Delete “{clean_line(memory.title)}” from {scope_label(memory.scope)}?",
                yes="Delete",
                no="Cancel",
                detail=detail,
            ),
            answered,
        )

    def action_deleted(self) -> None:
        """Show the deleted memories of every scope."""
        from .deleted import DeletedScreen

        self.app.push_screen(DeletedScreen())

    def action_copy_to(self) -> None:
        """Copy the memory to another scope (refused there over a limit, with the store's words)."""
        from .moving import copy_to

        copy_to(self, self._target())

    def action_move_to(self) -> None:
        """Move the memory to another scope with its history (refused there over a limit)."""
        from .moving import move_to

        memory = self._target()
        if memory is not None and self.editor.memory_id == memory.id:
            self.detail.guard(lambda: move_to(self, memory))  # unsaved edits to it would be left behind
        else:
            move_to(self, memory)

    def action_problems(self) -> None:
        """Show the problem files, ignored entries and settings problems."""
        from .problems import ProblemsScreen

        self.app.push_screen(ProblemsScreen())

    def action_duplicates(self) -> None:
        """Show duplicate and similar memories; keep one, turn off or delete the others."""
        from .duplicates import DuplicatesScreen

        self.app.push_screen(DuplicatesScreen())

    def action_review(self) -> None:
        """Review what the agent saved: accept, edit, turn off or delete."""
        from .review import ReviewScreen

        self.app.push_screen(ReviewScreen())

    def action_external_editor(self) -> None:
        """Open the memory's file in $VISUAL or $EDITOR; it is read again on return."""
        from ..external_editor import open_in_editor

        memory = self._target()
        if memory is None:
            self.notify("There is no memory here to open.", markup=False)
            return

        def edit() -> None:
            if self.editor.memory_id == memory.id:
                self.editor.revert()
            error = open_in_editor(self.app, memory.path)
            if error:
                self.notify(error, severity="warning", markup=False)
            self.session.run(simple(lambda store: store.refresh([memory.path])), reply_to=self)

        self.detail.guard(edit)
