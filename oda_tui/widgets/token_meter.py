"""The token meter: how much of the chat's memory budget a scope uses."""

from __future__ import annotations

from rich.style import Style
from textual.app import ComposeResult, RenderResult
from textual.containers import Vertical
from textual.reactive import reactive
from textual.renderables.bar import Bar
from textual.widget import Widget
from textual.widgets import Static

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


class MeterBar(Widget):
    """The meter's bar: ``share`` of its width drawn, to the half cell (Textual's bar, without
    the progress bar's clock, percentage and ETA widgets, which the first frame need not build)."""

    COMPONENT_CLASSES = {"bar--bar", "bar--complete"}
    DEFAULT_CSS = """
    MeterBar {
        height: 1;
        width: 1fr;
    }
    MeterBar > .bar--bar {
        color: $primary;
        background: $surface;
    }
    MeterBar > .bar--complete {
        color: $success;
        background: $surface;
    }
    """

    #: The part of the bar drawn, 0 to 1.
    share: reactive[float] = reactive(0.0)

    def render(self) -> RenderResult:
        width = self.size.width
        # Rounded to the half cells of the width it is drawn at, whenever that width changes.
        share = int(self.share * width * 2) / (width * 2) if width else self.share
        style = self.get_component_rich_style("bar--bar" if share < 1 else "bar--complete")
        return Bar(
            highlight_range=(0, width * share),
            highlight_style=Style.from_color(style.color),
            background_style=Style.from_color(style.bgcolor),
        )


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
    TokenMeter.-over #meter-label {
        color: $error;
        text-style: bold;
    }
    TokenMeter.-over MeterBar > .bar--complete,
    TokenMeter.-over MeterBar > .bar--bar {
        color: $error;
    }
    """

    def compose(self) -> ComposeResult:
        yield Static("", id="meter-label", markup=False)
        yield MeterBar(id="meter-bar")

    def show(self, tokens: int, limit: int, chat_scope: Scope, selected: Scope) -> None:
        """Show ``tokens`` of ``limit`` for the chat of ``chat_scope``."""
        self.query_one("#meter-label", Static).update(meter_text(tokens, limit, chat_scope, selected))
        self.query_one(MeterBar).share = min(tokens, limit) / max(limit, 1)
        self.set_class(tokens > limit, "-over")

    @property
    def label(self) -> str:
        """The meter's words as shown."""
        return str(self.query_one("#meter-label", Static).content)
