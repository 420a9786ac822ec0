"""The registry: every action of the app, with its binding id, label, default keys and place.

Bindings (``BINDINGS``), the command palette and the help screen's key tables are all built
from this table, so a label or a key is written once. Keys are Textual key names, comma
separated; a person remaps them by id in ``keymap.yaml``.

Whether a key works while a text field has the focus follows from the key itself: a printable
character types into the field, anything else (``ctrl+n``, ``escape``) still runs its action.

An action runs a Textual action of the node that serves its place (``toggle_memory`` runs
``MainScreen.action_toggle_memory``), which calls what does the work by name: the registry
lists keys, the screens and widgets own what the keys do (so the registry imports none of them).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Place(Enum):
    """Where an action applies; the value is the help screen's heading for it."""

    APP = "Everywhere"
    MAIN = "Everywhere on the main screen"
    LIST = "In the memory list"
    LISTS = "In every list"
    FILTER = "In the filter"
    EDITOR = "In the editor"
    HISTORY = "In History"
    DELETED = "In Recently deleted"
    PROBLEMS = "In Problems"
    DUPLICATES = "In Duplicates"
    REVIEW = "In Review"
    SCREENS = "On History, Recently deleted, Problems, Duplicates and Review"
    HELP = "In this help"
    MESSAGES = "In the messages"
    DIALOG = "In a question (yes or no)"
    EVERY_DIALOG = "In every dialog"
    PALETTE = "In the command palette"
    QUIT = "When quitting with unsaved edits"
    CONFLICT = "When a memory changed on disk"
    PICKER = "When choosing a scope"


@dataclass(frozen=True)
class Action:
    """One thing a person can do with a key."""

    id: str
    """The binding id a keymap names (``memory.new``)."""
    action: str
    """The Textual action it runs on the node of its place (``new_memory``)."""
    label: str
    """Its name in the footer and the help."""
    keys: str
    """The default keys, comma separated (``d,delete``)."""
    place: Place
    show: bool = True
    """Shown in the footer."""
    palette: str | None = None
    """Its name in the command palette (None: not in the palette)."""
    hint: str = ""
    """The palette's line under the name. Textual reads it as markup: never quote user text."""
    priority: bool = False
    """Checked before the focused widget's own keys."""
    needs_memory: bool = False
    """It acts on the memory a key acts on, so its key is offered only where there is one."""


def on_memory(id: str, action: str, label: str, keys: str, *, palette: str, hint: str) -> Action:
    """A main-screen action on the memory a key acts on (the open one, else the one under the
    cursor)."""
    return Action(id, action, label, keys, Place.MAIN, palette=palette, hint=hint, needs_memory=True)


ACTIONS: tuple[Action, ...] = (
    # The main screen, in the order of use: the footer shows as many as fit, from the first.
    Action("memory.new", "new_memory", "New", "n", Place.MAIN,
           palette="New memory", hint="Start a new memory in the selected scope"),
    on_memory("memory.toggle", "toggle_memory", "On/off", "t",
           palette="Turn the memory on or off", hint="Turned off memories are not sent to chats"),
    on_memory("memory.delete", "delete_memory", "Delete", "d,delete",
           palette="Delete the memory", hint="It waits under Recently deleted"),
    Action("list.filter", "filter", "Filter", "slash", Place.MAIN,
           palette="Filter the memory list", hint="By title and text, as you type"),
    Action("view.preview", "preview", "Preview", "p", Place.MAIN,
           palette="Show the chat preview", hint="Exactly what a chat receives"),
    Action("editor.save", "save", "Save", "ctrl+s", Place.MAIN,
           palette="Save the memory", hint="Save the edits in the editor"),
    Action("editor.revert", "revert", "Revert", "ctrl+r", Place.MAIN,
           palette="Revert the edits", hint="Back to the text on disk"),
    Action("view.back", "back", "Back", "escape", Place.MAIN),
    on_memory("memory.history", "open_history", "History", "h",
            palette="Show the history of the memory", hint="Every version, restore and undo"),
    Action("app.help", "help", "Help", "question_mark,f1", Place.MAIN,
           palette="Help: every key of the app", hint="Also ? and F1"),
    Action("app.quit_key", "quit", "Quit", "q", Place.MAIN,
           palette="Quit", hint="Asks first when there are unsaved edits"),
    Action("view.review", "open_review", "Review", "r", Place.MAIN,
           palette="Review what the agent saved", hint="Accept, edit, turn off or delete, with the diff"),
    Action("view.problems", "open_problems", "Problems", "exclamation_mark", Place.MAIN,
           palette="Problem files", hint="Files that are not used, and why"),
    Action("view.deleted", "open_deleted", "Recently deleted", "x", Place.MAIN,
           palette="Recently deleted", hint="Restore or purge deleted memories"),
    Action("view.duplicates", "open_duplicates", "Duplicates", "D", Place.MAIN,
           palette="Duplicates", hint="Keep one, turn off or delete the others; similar ones too"),
    on_memory("memory.copy", "copy_memory", "Copy to…", "c",
           palette="Copy the memory to another scope", hint="Global or a workspace"),
    on_memory("memory.move", "move_memory", "Move to…", "m",
           palette="Move the memory to another scope", hint="With its history; Global or a workspace"),
    on_memory("memory.editor", "edit_outside", "Open in $EDITOR", "e",
           palette="Open the memory in $EDITOR", hint="Your own editor; read again on return"),
    on_memory("memory.copy_id", "copy_id", "Copy id", "y",
           palette="Copy the memory's id", hint="To the clipboard, through the terminal (works over SSH)"),
    on_memory("memory.copy_path", "copy_path", "Copy path", "Y",
           palette="Copy the path of the memory's file",
           hint="To the clipboard, through the terminal (works over SSH)"),
    Action("pane.scopes", "focus_pane('scopes')", "Go to the scopes", "1", Place.MAIN, show=False),
    Action("pane.list", "focus_pane('list')", "Go to the memory list", "2", Place.MAIN, show=False),
    Action("pane.detail", "focus_pane('detail')", "Go to the editor (or the preview)", "3", Place.MAIN, show=False),
    # Everywhere: a key no text field takes.
    Action("app.quit", "quit", "Quit", "ctrl+q", Place.APP, priority=True),
    Action("app.messages", "messages", "Messages", "M", Place.APP,
           palette="Messages: every notice so far", hint="Newest first, with the time each came"),
    # The memory list.
    Action("memory.edit", "choose", "Edit", "enter", Place.LIST),
    # Every list: the memory list, the scopes, the sub-screens' lists and the scope picker.
    Action("list.up", "cursor(-1)", "Up", "up,k", Place.LISTS, show=False),
    Action("list.down", "cursor(1)", "Down", "down,j", Place.LISTS, show=False),
    Action("list.half_page_up", "page(-0.5)", "Half a page up", "ctrl+u", Place.LISTS, show=False),
    Action("list.half_page_down", "page(0.5)", "Half a page down", "ctrl+d", Place.LISTS, show=False),
    Action("list.page_up", "page(-1)", "Page up", "pageup", Place.LISTS, show=False),
    Action("list.page_down", "page(1)", "Page down", "pagedown", Place.LISTS, show=False),
    Action("list.first", "jump(0)", "First", "home,g", Place.LISTS, show=False),
    Action("list.last", "jump(-1)", "Last", "end,G", Place.LISTS, show=False),
    # The filter above the memory list.
    Action("filter.to_list", "to_list", "Into the list", "down", Place.FILTER, show=False),
    # The editor.
    Action("editor.frontmatter", "frontmatter", "Frontmatter as YAML", "f2", Place.EDITOR),
    # Sub-screens.
    Action("history.restore", "restore", "Restore version", "r", Place.HISTORY),
    Action("history.undo", "undo", "Undo chat change", "u", Place.HISTORY),
    Action("history.close", "close", "Back", "escape,q,h", Place.HISTORY),
    Action("deleted.restore", "restore", "Restore", "r", Place.DELETED),
    Action("deleted.purge", "purge", "Purge for good", "x,delete", Place.DELETED),
    Action("deleted.close", "close", "Back", "escape,q", Place.DELETED),
    Action("problems.save", "save", "Save file", "ctrl+s", Place.PROBLEMS),
    Action("problems.editor", "external", "Open in $EDITOR", "e", Place.PROBLEMS),
    Action("problems.delete", "delete", "Delete file", "d,delete", Place.PROBLEMS),
    Action("problems.close", "close", "Back", "escape", Place.PROBLEMS),
    # K, not k: in every list k moves up.
    Action("duplicates.keep", "keep", "Keep, turn others off", "K", Place.DUPLICATES),
    Action("duplicates.delete", "delete_others", "Delete others", "d,delete", Place.DUPLICATES),
    Action("duplicates.close", "close", "Back", "escape,q", Place.DUPLICATES),
    Action("review.accept", "accept", "Accept", "a", Place.REVIEW),
    Action("review.edit", "edit", "Edit", "e", Place.REVIEW),
    Action("review.off", "turn_off", "Turn off", "t", Place.REVIEW),
    Action("review.delete", "delete", "Delete", "d,delete", Place.REVIEW),
    Action("review.close", "close", "Back", "escape,q", Place.REVIEW),
    Action("screen.help", "help", "Help", "question_mark,f1", Place.SCREENS),
    Action("help.close", "dismiss", "Close help", "escape,q,question_mark,f1", Place.HELP),
    Action("messages.close", "dismiss", "Close", "escape,q,M", Place.MESSAGES),
    # Dialogs.
    Action("dialog.help", "help", "Help", "question_mark,f1", Place.EVERY_DIALOG),
    Action("dialog.yes", "confirm", "Yes", "y", Place.DIALOG),
    Action("dialog.no", "cancel", "No", "n", Place.DIALOG),
    Action("dialog.cancel", "cancel", "Cancel", "escape", Place.DIALOG),
    Action("quit.save", "save_and_quit", "Save and quit", "s", Place.QUIT),
    # Never a printable key: the prompt opens by itself while the person types (``Dialog.DISCARDING``).
    Action("conflict.theirs", "choose('theirs')", "Reload theirs", "ctrl+r", Place.CONFLICT),
    Action("conflict.mine", "choose('mine')", "Keep mine", "k,escape", Place.CONFLICT),
    Action("picker.pick", "pick", "Pick", "enter", Place.PICKER, priority=True),
    Action("picker.cancel", "cancel", "Cancel", "escape", Place.PICKER),
    Action("palette.help", "help", "Help", "f1", Place.PALETTE),
)  # fmt: skip

#: Keys Textual itself binds (the app, its text fields), listed in the help before a place's
#: own actions; they have no binding id of ours to remap.
BUILT_IN_KEYS: dict[Place, tuple[tuple[str, str], ...]] = {
    Place.PALETTE: (
        ("up,down", "Previous / next command"),
        ("enter", "Run the command"),
        ("escape", "Close the palette"),
    ),
    Place.APP: (
        ("ctrl+p", "Command palette: actions, scopes, memories"),
        ("tab,shift+tab", "Next / previous pane or field"),
    ),
    Place.FILTER: (("enter", "Into the list, the filter kept"),),
    Place.EDITOR: (
        ("tab,shift+tab", "Next / previous field"),
        ("space,enter", "On the switch: on or off, saved with the edits (Ctrl+S)"),
        ("ctrl+z,ctrl+y", "Undo / redo typing in the text"),
        ("ctrl+x,ctrl+c,ctrl+v", "Cut / copy / paste"),
    ),
}

#: The help's tables on the main screen, in order.
MAIN_HELP = (
    Place.MAIN,
    Place.APP,
    Place.LIST,
    Place.LISTS,
    Place.FILTER,
    Place.EDITOR,
    Place.HISTORY,
    Place.DELETED,
    Place.PROBLEMS,
    Place.DUPLICATES,
    Place.REVIEW,
    Place.SCREENS,
    Place.EVERY_DIALOG,
    Place.DIALOG,
    Place.QUIT,
    Place.CONFLICT,
    Place.PICKER,
    Place.PALETTE,
    Place.MESSAGES,
)


#: Each action by its binding id.
BY_ID: dict[str, Action] = {action.id: action for action in ACTIONS}

#: The main screen's Textual actions that act on a memory (does nothing where there is none).
MAIN_ON_MEMORY: frozenset[str] = frozenset(
    action.action for action in ACTIONS if action.place is Place.MAIN and action.needs_memory
)
