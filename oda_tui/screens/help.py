"""The help screen (? and F1): every key of the app, as currently bound (remaps included)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen
from textual.widgets import Static

from ..widgets.key_footer import KeyFooter

# Keys that belong to Textual's own widgets, described here because they have no description.
EDITOR_KEYS = [
    ("tab / shift+tab", "Next / previous field", ""),
    ("space / enter", "On the switch: turn the memory on or off", ""),
    ("ctrl+z / ctrl+y", "Undo / redo typing in the text", ""),
    ("ctrl+x / ctrl+c / ctrl+v", "Cut / copy / paste", ""),
]
DIALOG_KEYS = [
    ("y / n / escape", "Confirmations: yes, no, cancel", "dialog.yes / dialog.no"),
    ("r / k", "Changed on disk: reload theirs / keep mine", "conflict.theirs / conflict.mine"),
]


# Sideways scrolling a list inherits from Textual; it does nothing useful here.
_NOISE = {"scroll_left", "scroll_right", "page_left", "page_right"}


def node_bindings(node: DOMNode) -> list[tuple[str, Binding]]:
    """A node's bindings after the app's keymap is applied (so remapped keys show)."""
    # Textual applies the keymap to a copy of ``_bindings`` when it builds the binding chain;
    # the help does the same, so a remapped key is shown as it works.
    bindings = node._bindings.copy()
    keymap = node.app._keymap
    if keymap:
        bindings.apply_keymap(keymap)
    return list(bindings)


def binding_rows(nodes: Iterable[DOMNode], display: Callable[[Binding], str]) -> list[tuple[str, str, str]]:
    """(keys, description, id) for every described binding, keys of one action joined."""
    rows: dict[tuple[str, str], list[str]] = {}
    ids: dict[tuple[str, str], str] = {}
    for node in nodes:
        for _key, binding in node_bindings(node):
            if not binding.description or binding.system or binding.action in _NOISE:
                continue
            ident = (binding.action, binding.description)
            shown = display(binding)
            if shown not in rows.setdefault(ident, []):
                rows[ident].append(shown)
            ids[ident] = binding.id or ""
    return [(" / ".join(keys), ident[1], ids[ident]) for ident, keys in rows.items()]


class HelpScreen(ModalScreen[None]):
    """Lists every key, grouped by where it works."""

    CSS_PATH = "help.tcss"
    BINDINGS = [
        Binding("escape,q,question_mark,f1", "dismiss", "Close help", id="help.close"),
    ]

    def __init__(self, sections: list[tuple[str, list[tuple[str, str, str]]]]) -> None:
        super().__init__()
        self.sections = sections

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Static(Text("Keys", style="bold"), id="help-title")
            for title, rows in self.sections:
                table = Table(title=title, title_justify="left", expand=True, box=None)
                table.add_column("Key", style="bold", no_wrap=True)
                table.add_column("What it does", ratio=1)
                table.add_column("Binding id (for a keymap)", style="dim", no_wrap=True)
                for keys, description, ident in rows:
                    table.add_row(Text(keys), Text(description), Text(ident))
                yield Static(table, classes="help-section")
        yield KeyFooter()

    async def action_dismiss(self, result: None = None) -> None:
        """Close the help."""
        self.dismiss(None)
