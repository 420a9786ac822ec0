"""The token meter: how much of the chat's memory budget a scope uses."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import ProgressBar, Static
from textual.widgets._progress_bar import Bar

from store import Scope, scope_label

from ..text.format import count
from ..text.glyphs import glyph


def meter_text(tokens: int, limit: int, chat_scope: Scope, selected: Scope) -> str:
    """The meter's words, e.g. ``≈ 5,230 / 8,000 tokens``, with which chat it measures."""
    text = f"{glyph('about')} {count(tokens)} / {count(limit)} tokens"
    if selected is None and chat_scope is not None:
        text += f" {glyph('dot')} largest chat: {scope_label(chat_scope)}"
    elif selected is None:
        text += f" {glyph('dot')} a chat outside any workspace"
    else:
        text += f" {glyph('dot')} a chat in {scope_label(chat_scope)}"
    if tokens > limit:
        text += f" {glyph('dot')} over the limit by {count(tokens - limit)}"
    return text


class TokenMeter(Vertical):
    """``≈ tokens / limit`` with a bar; turns the error colour over the limit."""

    DEFAULT_CSS = """
    TokenMeter {
        height: 2;
        padding: 0 1;
    }
    TokenMeter #meter-label {
        height: 1;
        color: $text-muted;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    TokenMeter #meter-bar {
        height: 1;
        width: 1fr;
    }
    TokenMeter #meter-bar Bar {
        width: 1fr;
    }
    TokenMeter.-over #meter-label {
        color: $error;
        text-style: bold;
    }
    TokenMeter.-over #meter-bar Bar > .bar--complete,
    TokenMeter.-over #meter-bar Bar > .bar--bar {
        color: $error;
    }
    """

    def compose(self) -> ComposeResult:
        yield Static("", id="meter-label", markup=False)
        yield ProgressBar(total=1, show_eta=False, show_percentage=False, id="meter-bar")

    def show(self, tokens: int, limit: int, chat_scope: Scope, selected: Scope) -> None:
        """Show ``tokens`` of ``limit`` for the chat of ``chat_scope``."""
        self.query_one("#meter-label", Static).update(meter_text(tokens, limit, chat_scope, selected))
        bar = self.query_one("#meter-bar", ProgressBar)
        bar.update(total=max(limit, 1), progress=min(tokens, limit))
        self.set_class(tokens > limit, "-over")
        self._fit_bar()

    def on_resize(self, event: events.Resize) -> None:
        self._fit_bar()

    def _fit_bar(self) -> None:
        # Textual's Bar rounds its share to the half cells of its width when the share is set,
        # and not again when the width changes: a share set before the first layout (or an old
        # width) would draw a sliver the rounding at this width does not give. Set it again.
        bar = self.query_one("#meter-bar", ProgressBar)
        for drawn in bar.query(Bar):
            drawn.percentage = bar.percentage

    @property
    def label(self) -> str:
        """The meter's words as shown."""
        return str(self.query_one("#meter-label", Static).content)
