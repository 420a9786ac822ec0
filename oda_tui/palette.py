"""Command palette (Ctrl+P): every action of the main screen, and a jump to any memory by title."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from functools import partial
from typing import TYPE_CHECKING

from rich.text import Text
from textual.command import DiscoveryHit, Hit, Provider

from store import scope_label

from .safe import clean_line

if TYPE_CHECKING:
    from .app import OdaApp

# Palette help text is parsed as markup by Textual, so it never quotes user text.
ACTIONS: list[tuple[str, str, str]] = [
    ("New memory", "new_memory", "Start a new memory in the selected scope"),
    ("Turn the memory on or off", "toggle", "Turned off memories are not sent to chats"),
    ("Delete the memory", "delete", "It waits under Recently deleted"),
    ("Filter the memory list", "filter", "By title and text, as you type"),
    ("Show the chat preview", "preview", "Exactly what a chat receives"),
    ("Show the history of the memory", "history", "Every version, restore and undo"),
    ("Copy the memory to another scope", "copy_to", "Global or a workspace"),
    ("Move the memory to another scope", "move_to", "With its history; Global or a workspace"),
    ("Duplicates", "duplicates", "Keep one, turn off or delete the others; similar ones too"),
    ("Review what the agent saved", "review", "Accept, edit, turn off or delete, with the diff"),
    ("Recently deleted", "deleted", "Restore or purge deleted memories"),
    ("Problem files", "problems", "Files that are not used, and why"),
    ("Open the memory in $EDITOR", "external_editor", "Your own editor; read again on return"),
    ("Save the memory", "save", "Save the edits in the editor"),
    ("Revert the edits", "revert", "Back to the text on disk"),
    ("Help: every key of the app", "help", "Also ? and F1"),
    ("Quit", "quit", "Asks first when there are unsaved edits"),
]


def safe_prompt(text: str, offsets: tuple[int, ...] | list[int] = ()) -> Text:
    """A palette line of plain text, with the matched letters underlined (never markup)."""
    prompt = Text(clean_line(text), no_wrap=True, overflow="ellipsis")
    for offset in offsets:
        if offset < len(prompt.plain):
            prompt.stylize("bold underline", offset, offset + 1)
    return prompt


class OdaCommands(Provider):
    """The app's own commands and a "go to" for every memory."""

    @property
    def oda(self) -> OdaApp:
        return self.app  # type: ignore[return-value]

    def _commands(self) -> list[tuple[str, Callable[[], object], str]]:
        try:
            screen = self.oda.main_screen
        except LookupError:
            return []
        commands: list[tuple[str, Callable[[], object], str]] = [
            (name, partial(screen.run_action, action), help_text) for name, action, help_text in ACTIONS
        ]
        snapshot = screen.snapshot
        if snapshot is not None:
            for summary in snapshot.scopes:
                commands.append(
                    (
                        f"Scope: {summary.label}",
                        partial(screen.jump_to_scope, summary.scope),
                        f"{summary.count} memories",
                    )
                )
                for memory in snapshot.memories.get(summary.scope, ()):
                    commands.append(
                        (
                            f"Go to: {memory.title}",
                            partial(screen.jump_to, memory.scope, memory.id),
                            f"Memory in {scope_label(memory.scope)}",
                        )
                    )
        return commands

    async def discover(self) -> AsyncIterator[DiscoveryHit]:
        for name, action, help_text in ACTIONS:
            screen = self.oda.main_screen
            yield DiscoveryHit(
                safe_prompt(name), partial(screen.run_action, action), text=name, help=help_text
            )

    async def search(self, query: str) -> AsyncIterator[Hit]:
        matcher = self.matcher(query)
        for name, callback, help_text in self._commands():
            candidate = clean_line(name)
            score, offsets = matcher.fuzzy_search.match(matcher.query, candidate)
            if score > 0:
                yield Hit(score, safe_prompt(candidate, offsets), callback, text=candidate, help=help_text)
