"""What the MCP tools say to the model where the spec has no sentence (our wording).

The spec's own sentences (the limits, an unknown id, "could not be changed") come from the
store word for word. Every other failure is a *reason*, put into the spec's form: ``The memory
could not be changed: <reason>.`` for a tool that writes, and the same form with "read" for
one that only reads (a failed read changed nothing, and says so).
"""

from __future__ import annotations

COULD_NOT_READ = "The memory could not be read: {reason}."

# Secret-looking text: the model cannot confirm it the way a person can in the app.
LOOKS_SECRET = (
    "the text looks like it contains {what}, and a memory is sent to the model with every "
    "message; leave the secret out (the person can save it in oda-tui if they are sure)"
)

# memory_read
UNCHANGED = "The memory is unchanged since your last memory_read."
EMPTY = "There are no memories for this chat yet."
REVISION_UNKNOWN = (
    'The revision "{since}" is not one this server holds (it holds the last {held} it sent, '
    "at most {keep} and at most {chars:,} characters of memory in all, until it restarts), so "
    "this is the complete memory."
)

# memory_save / memory_change / memory_delete
SAVED = 'Saved the memory "{title}" (id {id}) in {scope}. It applies from the next step.'
ALREADY_SAVED = (
    'The memory "{title}" (id {id}) was already saved in {scope} with this title and text; '
    "nothing new was saved."
)
ALREADY_SAVED_OFF = (
    'The memory "{title}" (id {id}) was already saved in {scope} with this title and text, but '
    "it is off, so it is not sent; nothing new was saved. memory_change with enabled=true turns "
    "it on."
)
SCOPE_NOT_HERE = (
    'the scope "{scope}" is not one this chat can save to; give "global" for Global or leave it '
    "out for {default}"
)
SCOPE_NOT_HERE_GLOBAL = 'the scope "{scope}" is not one this chat can save to; it has only "global"'
CHANGED = 'Changed the memory "{title}" (id {id}). It applies from the next step.'
TURNED_OFF = 'Turned off the memory "{title}" (id {id}): it is no longer sent, from the next step.'
TURNED_ON = 'Turned on the memory "{title}" (id {id}). It applies from the next step.'
DELETED = (
    'Deleted the memory "{title}" (id {id}). It waits under Recently deleted in oda-tui, where '
    "the person can restore it; it is no longer sent, from the next step."
)
# An agent never replaces what it did not see: a whole text and a deletion name the version read.
CHANGED_SINCE_READ = (
    "The memory could not be changed: it was changed since you read it; its current text is in this answer."
)
CHANGED_INTO_PROBLEM = (
    "it was changed since you read it, and its file now has a problem ({problem}); the person "
    "can fix it in oda-tui"
)
TEXT_NEEDS_VERSION = (
    'a whole new text replaces the one there, so give the "version" memory_get gave for it; '
    "call memory_get for its current text and version, then change that (or give old_text and "
    "new_text to replace one passage)"
)
DELETE_NEEDS_VERSION = (
    'memory_delete needs the memory\'s "version" as memory_get gave it, so that nothing you have '
    "not seen is deleted; call memory_get for it"
)
AMBIGUOUS = "the id {id} is in both Global and workspace {key}; the person can tell them apart in oda-tui"
PASSAGE_MISSING = (
    'the passage in "old_text" does not occur in the memory\'s text; call memory_get for its current text'
)
PASSAGE_TWICE = (
    'the passage in "old_text" occurs {n} times in the memory\'s text; give a longer passage that occurs once'
)
PASSAGE_EMPTY = 'the passage in "old_text" is empty'
PASSAGE_ALONE = '"old_text" and "new_text" go together; give both'
TEXT_AND_PASSAGE = 'give either "text" or "old_text" with "new_text", not both'
QUERY_TOO_LONG = 'the argument "query" is limited to {n} characters; this one has {m}'
BAD_CURSOR = 'the cursor "{cursor}" is not one memory_list gave; call memory_list without it'

# Bad input (the tool call is refused; nothing is written).
UNKNOWN_TOOL = 'There is no tool "{name}"; the tools are {names}.'
UNKNOWN_ARGUMENTS = "{tool} does not take {args}; it takes {expected}"
NO_ARGUMENTS = "{tool} takes no arguments"
MISSING_ARGUMENT = '{tool} needs the argument "{arg}"'
NOT_A_STRING = 'the argument "{arg}" must be a string'
NOT_A_BOOLEAN = 'the argument "{arg}" must be true or false'
NOT_A_NUMBER = 'the argument "{arg}" must be a whole number'
OUT_OF_RANGE = 'the argument "{arg}" must be from {low} to {high}'
ARGUMENTS_NOT_OBJECT = "the arguments must be a JSON object"
LONE_SURROGATE = 'the argument "{arg}" is not valid text (it holds a lone surrogate, U+{code:04X})'

# The store's folder.
ROOT_MISSING = (
    "the memory folder {root} does not exist; create it, or start oda-tui mcp with --root naming "
    "the folder that holds the memories"
)
ROOT_NOT_FOLDER = "the memory folder {root} is not a folder"
ROOT_UNREADABLE = "the memory folder {root} cannot be read: {reason}"
UNEXPECTED = "an unexpected {reason}"
ALREADY_ON = 'The memory "{title}" (id {id}) was already on; nothing was saved.'
ALREADY_OFF = 'The memory "{title}" (id {id}) was already off; nothing was saved.'
