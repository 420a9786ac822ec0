"""Copy or move a memory to another scope, after picking it (the main screen's ``c`` and ``m``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from store import MemoryStore, scope_label
from store.model import Memory, Scope

from ..dialogs.scope_picker import ScopePicker
from ..session.outcomes import simple
from ..state.review_state import carry_mark
from ..text.safe import clean_line

if TYPE_CHECKING:
    from .main import MainScreen


def _targets(screen: MainScreen, memory: Memory | None, verb: str) -> list[Scope] | None:
    """The other scopes, or None after saying why there is nothing to do."""
    if memory is None or screen.snapshot is None:
        screen.notify(f"There is no memory here to {verb}.", markup=False)
        return None
    # Never empty of choices: the picker also offers a new workspace.
    return [s.scope for s in screen.snapshot.scopes if s.scope != memory.scope]


def copy_to(screen: MainScreen, memory: Memory | None) -> None:
    """Copy ``memory`` to a scope the person picks (refused there over a limit)."""
    targets = _targets(screen, memory, "copy")
    if memory is None or targets is None:
        return

    def chosen(answer: tuple[Scope] | None) -> None:
        if answer is None:
            return
        (target,) = answer

        def copy(store: MemoryStore) -> Memory:
            return store.create(
                target,
                memory.title,
                memory.text,
                enabled=memory.enabled,
                source=memory.source,
                session_id=memory.session_id,
            )

        done = f"Copied “{clean_line(memory.title)}” to {scope_label(target)}."
        screen.session.run(simple(copy, done), reply_to=screen)

    screen.app.push_screen(ScopePicker(f"Copy “{clean_line(memory.title)}” to:", targets), chosen)


def move_to(screen: MainScreen, memory: Memory | None) -> None:
    """Move ``memory`` with its history to a scope the person picks (refused over a limit);
    when it is open with unsaved edits, which would be left behind, ask first."""
    if memory is not None and screen.editor.memory_id == memory.id:
        screen.detail.guard(lambda: _pick_and_move(screen, memory))
    else:
        _pick_and_move(screen, memory)


def _pick_and_move(screen: MainScreen, memory: Memory | None) -> None:
    targets = _targets(screen, memory, "move")
    if memory is None or targets is None:
        return

    def chosen(answer: tuple[Scope] | None) -> None:
        if answer is None:
            return
        (target,) = answer

        def move(store: MemoryStore) -> Memory:
            moved = store.move(memory.scope, memory.id, target)
            carry_mark(store, memory.scope, memory.id, moved.scope, moved.id)
            return moved

        done = f"Moved “{clean_line(memory.title)}” to {scope_label(target)}."
        screen.session.run(simple(move, done), reply_to=screen)

    screen.app.push_screen(ScopePicker(f"Move “{clean_line(memory.title)}” to:", targets), chosen)
