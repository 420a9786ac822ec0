"""Copy or move a memory to another scope, after picking it (the main screen's ``c`` and ``m``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from store import Memory, MemoryStore, Scope, scope_label

from ...dialogs.scope_picker import ScopePicker
from ...own_files.review_marks import carry_mark
from ...session.outcomes import simple
from ...text.safe import clean_line

if TYPE_CHECKING:
    from .view import MainView


def _pick_then(
    screen: MainView,
    memory: Memory | None,
    verb: tuple[str, str],
    change: Callable[[MemoryStore, Memory, Scope], Memory],
) -> None:
    """Ask for the scope to take ``memory`` to, then run ``change`` to it there; ``verb``: what
    is done, as asked and as told ("copy", "Copied")."""
    if memory is None or screen.snapshot is None:
        screen.notify(f"There is no memory here to {verb[0]}.", markup=False)
        return
    # Never empty of choices: the picker also offers a new workspace.
    targets = [s.scope for s in screen.snapshot.scopes if s.scope != memory.scope]

    def chosen(answer: tuple[Scope] | None) -> None:
        if answer is None:
            return
        (target,) = answer
        done = f"{verb[1]} “{clean_line(memory.title)}” to {scope_label(target)}."
        screen.run_operation(simple(lambda store: change(store, memory, target), done))

    question = f"{verb[0].capitalize()} “{clean_line(memory.title)}” to:"
    screen.app.push_screen(ScopePicker(question, targets), chosen)


def copy_to(screen: MainView, memory: Memory | None) -> None:
    """Copy ``memory`` to a scope the person picks (refused there over a limit)."""
    _pick_then(screen, memory, ("copy", "Copied"), _copy)


def _copy(store: MemoryStore, memory: Memory, target: Scope) -> Memory:
    return store.create(
        target,
        memory.title,
        memory.text,
        enabled=memory.enabled,
        source=memory.source,
        session_id=memory.session_id,
    )


def move_to(screen: MainView, memory: Memory | None) -> None:
    """Move ``memory`` with its history to a scope the person picks (refused over a limit);
    when it is open with unsaved edits, which would be left behind, ask first."""
    if memory is not None and screen.editor.memory_id == memory.id:
        screen.detail.guard(lambda: _pick_then(screen, memory, ("move", "Moved"), _move))
    else:
        _pick_then(screen, memory, ("move", "Moved"), _move)


def _move(store: MemoryStore, memory: Memory, target: Scope) -> Memory:
    moved = store.move(memory.scope, memory.id, target)
    carry_mark(store, memory.scope, memory.id, moved.scope, moved.id)
    return moved
