"""The preview of exactly the text a chat receives, with its estimate."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from store import Scope, scope_label

from ..text.format import count
from ..text.glyphs import glyph
from ..text.safe import clean_block


class ChatPreview(VerticalScroll):
    """Read-only view of ``chat_memory(workspace).text``; updates keep the scroll position."""

    DEFAULT_CSS = """
    ChatPreview {
        height: 1fr;
        padding: 0 1;
    }
    ChatPreview #preview-head {
        color: $text-muted;
        text-style: bold;
        margin-bottom: 1;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.text = ""
        self.tokens = 0

    def compose(self) -> ComposeResult:
        yield Static("", id="preview-head", markup=False)
        yield Static("", id="preview-text", markup=False)

    def show(self, scope: Scope, text: str, tokens: int) -> None:
        """Show what a chat for ``scope`` receives; nothing repaints when it is unchanged."""
        where = "outside any workspace" if scope is None else f"in {scope_label(scope)}"
        head = f"What a chat {where} receives {glyph('dot')} {glyph('about')} {count(tokens)} tokens"
        self.query_one("#preview-head", Static).update(head)
        if text != self.text or not self.text:
            body = clean_block(text) if text else "(nothing: no memory is turned on here)"
            # clean_block already removed every control code Textual would strip (a slow
            # per-character pass over a chat text that can be hundreds of KB).
            self.query_one("#preview-text", Static).update(Content(body, strip_control_codes=False))
        self.text = text
        self.tokens = tokens
