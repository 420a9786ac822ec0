"""Command palette (Ctrl+P): the registry's actions of the main screen, the sync of the
assistant files, every scope, and a jump to any memory by title."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from functools import partial
from typing import TYPE_CHECKING, Protocol, cast

from rich.text import Text
from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Provider
from textual.markup import escape

from store import scope_label

from ..session.assistant_sync import sync_assistant_files
from ..text.glyphs import app_words, glyph
from ..text.safe import clean_line
from .actions import Action, Place
from .bindings import current_keys, palette_actions, person_keymap

if TYPE_CHECKING:
    from ..screens.main import MainScreen
    from ..session.session import StoreSession


class PaletteApp(Protocol):
    """What the palette needs of the app (``OdaApp``, which imports this module when the palette
    first opens): its main screen and its store session."""

    @property
    def main_screen(self) -> MainScreen: ...

    @property
    def session(self) -> StoreSession: ...


def word_match(query: str, candidate: str) -> tuple[float, list[int]] | None:
    """How well ``candidate`` matches: every word of the query must occur in it as written
    (any case), best at the start of a word; None when one does not.

    Tighter than a fuzzy match, where "theme" matched "Turn tHE MEmory on or off".
    """
    words = query.casefold().split()
    if not words:
        return None
    haystack = candidate.casefold()
    offsets: list[int] = []
    score = 0.0
    for word in words:
        at = -1
        start = 0
        while (found := haystack.find(word, start)) >= 0:
            if found == 0 or not haystack[found - 1].isalnum():
                at = found
                break
            if at < 0:
                at = found
            start = found + 1
        if at < 0:
            return None
        at_word_start = at == 0 or not haystack[at - 1].isalnum()
        score += 1.0 if at == 0 else 0.7 if at_word_start else 0.4
        offsets.extend(range(at, at + len(word)))
    # A score in (0, 1]; shorter candidates first among equals ("Help" before "Help: every…").
    return 0.9 * score / len(words) + 0.1 / (1 + len(haystack)), offsets


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
    def oda(self) -> PaletteApp:
        return cast(PaletteApp, self.app)

    def _commands(self) -> list[tuple[str, Callable[[], object], str]]:
        try:
            screen = self.oda.main_screen
        except LookupError:
            return []
        commands: list[tuple[str, Callable[[], object], str]] = [
            (app_words(a.palette or a.label), self._runner(screen, a), self._hint(a))
            for a in palette_actions()
        ]
        commands.append(
            (
                app_words("Sync assistant files (AGENTS.md, CLAUDE.md…)"),
                partial(sync_assistant_files, self.oda.session, screen.scope),
                escape("The memories of this folder's workspace, into its files that hold a managed block"),
            )
        )
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
            name = app_words(action.palette or action.label)
            yield DiscoveryHit(
                safe_prompt(name),
                self._runner(screen, action),
                text=name,
                help=self._hint(action),
            )

    def _runner(self, screen: MainScreen, action: Action) -> Callable[[], object]:
        """What runs ``action``: the app's own actions (``Place.APP``) on the app, the others on
        the main screen."""
        node = self.app if action.place is Place.APP else screen
        return partial(node.run_action, action.action)

    def _hint(self, action: Action) -> str:
        """The line under an action: its keys as bound now, then what it does."""
        keys = current_keys(action, person_keymap(self.app))
        shown = " / ".join(dict.fromkeys(self.app.get_key_display(Binding(key, "")) for key in keys))
        shown = escape(shown)  # Textual reads the hint as markup; a remapped key may be "["
        return app_words(f"{shown} {glyph('dot')} {action.hint}") if action.hint else shown

    async def search(self, query: str) -> AsyncIterator[Hit]:
        for name, callback, help_text in self._commands():
            candidate = clean_line(name)
            found = word_match(query, candidate)
            if found is not None:
                score, offsets = found
                yield Hit(score, safe_prompt(candidate, offsets), callback, text=candidate, help=help_text)
