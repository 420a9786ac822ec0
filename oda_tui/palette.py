"""Command palette (Ctrl+P): the registry's actions of the main screen, every scope, and a jump
to any memory by title."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from functools import partial
from typing import TYPE_CHECKING

from rich.text import Text
from textual.command import DiscoveryHit, Hit, Provider

from store import scope_label

from .keys.bindings import palette_actions
from .safe import clean_line

if TYPE_CHECKING:
    from .app import OdaApp


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
            (a.palette or a.label, partial(screen.run_action, a.action), a.hint) for a in palette_actions()
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
        screen = self.oda.main_screen
        for action in palette_actions():
            name = action.palette or action.label
            yield DiscoveryHit(
                safe_prompt(name), partial(screen.run_action, action.action), text=name, help=action.hint
            )

    async def search(self, query: str) -> AsyncIterator[Hit]:
        matcher = self.matcher(query)
        for name, callback, help_text in self._commands():
            candidate = clean_line(name)
            score, offsets = matcher.fuzzy_search.match(matcher.query, candidate)
            if score > 0:
                yield Hit(score, safe_prompt(candidate, offsets), callback, text=candidate, help=help_text)
