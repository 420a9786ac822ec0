"""What the MCP tools say to the model where the spec has no sentence (our wording).

The spec's own sentences (the limits, an unknown id, "could not be changed") come from the
store word for word; these cover the server's own cases.
"""

from __future__ import annotations

# Secret-looking text: the model cannot confirm it the way a person can in the app.
LOOKS_SECRET = (
    "This text looks like it contains {what}; a memory is sent to the model with every message, "
    "so it was not saved. Leave the secret out; the person can save it in oda-tui if they are sure."
)

# memory_read
UNCHANGED = "The memory is unchanged since your last memory_read."
EMPTY = "There are no memories for this chat yet."
REVISION = (
    "(Revision {revision}. Pass it as since to your next memory_read to get only what changes after this.)"
)
REVISION_UNKNOWN = (
    'The revision "{since}" is not one this server holds (it keeps the last {keep} it sent, '
    "until it restarts), so this is the complete memory."
)

# memory_change / memory_save
SAVED = 'Saved the memory "{title}" (id {id}) in {scope}. It applies from the next step.'
CHANGED = 'Changed the memory "{title}" (id {id}). It applies from the next step.'
AMBIGUOUS = "the id {id} is in both Global and workspace {key}; the person can tell them apart in oda-tui"

# Bad input (the tool call is refused; nothing is written).
UNKNOWN_TOOL = 'There is no tool "{name}"; the tools are {names}.'
UNKNOWN_ARGUMENTS = "{tool} does not take {args}; it takes {expected}."
NO_ARGUMENTS = "{tool} takes no arguments."
MISSING_ARGUMENT = '{tool} needs the argument "{arg}".'
NOT_A_STRING = 'The argument "{arg}" must be a string.'
NOT_A_BOOLEAN = 'The argument "{arg}" must be true or false.'
ARGUMENTS_NOT_OBJECT = "The arguments must be a JSON object."
LONE_SURROGATE = 'The argument "{arg}" is not valid text: it holds a lone surrogate (U+{code:04X}).'

# The store's folder.
ROOT_MISSING = (
    "The memory folder {root} does not exist. Create it, or start oda-tui mcp with --root naming "
    "the folder that holds the memories."
)
ROOT_NOT_FOLDER = "The memory folder {root} is not a folder."
ROOT_UNREADABLE = "The memory folder {root} cannot be read: {reason}."
UNEXPECTED = "The tool failed unexpectedly: {reason}."
