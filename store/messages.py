"""Every message the store shows a person, word for word as the spec gives them."""

from __future__ import annotations

from collections.abc import Iterable

# Problem files (spec: "When a memory file has a problem"), in the order they are checked.
FILE_TOO_LARGE = "The file is larger than {n} bytes."
FILE_NOT_UTF8 = "The file is not UTF-8 text."
FILE_NO_FRONTMATTER = "The file does not start with a --- frontmatter block."
FILE_BAD_YAML = "The frontmatter is not valid YAML: {message}"
FILE_BAD_FIELDS = "The frontmatter fields {names} are missing or invalid."
FILE_TOO_LONG = (
    "The memory is longer than {n} characters or its title longer than {m}; shorten it in the file."
)
FILE_UNREADABLE = "The file could not be read: {reason}."
FOLDER_UNREADABLE = "The folder could not be read: {reason}."
#: The reason a change is refused in a set whose folder cannot be opened.
FOLDER_NOT_OPENED = "the folder {folder} could not be opened ({reason})"

# Changes (spec: "Changing a memory", "The limits that apply").
GIVE_TITLE_OR_TEXT = "Give a new title, a new text, or both."
NEEDS_TITLE = "A memory needs a title."
NEEDS_TEXT = "A memory needs some text."
TITLE_TOO_LONG = "A memory title is limited to {n} characters; this one has {m}."
TEXT_TOO_LONG = (
    "A memory is limited to {n} characters; this one has {m}. Shorten it or split it into several memories."
)
UNCHANGED = "The memory already had that title and text."
UNKNOWN_ID = (
    'No memory with the id "{id}" exists in this chat\'s memory. Call memory_list for the current ids.'
)
COULD_NOT_CHANGE = "The memory could not be changed: {reason}."
FILE_WOULD_BE_TOO_LARGE = "the file would be larger than {n} bytes"
CHAT_OVER_LIMIT = "This change would bring the memory a chat receives to about {n} tokens; the limit is {m}."
WORKSPACE_CHAT_OVER_LIMIT = (
    "This change would bring the memory a chat in workspace {key} receives "
    "to about {n} tokens; the limit is {m}."
)
NO_SUCH_VERSION = 'No saved version "{name}" of this memory exists.'
NOTHING_TO_UNDO = "There is no change from a chat to undo."

# Our own wording where the spec leaves a case open.
BAD_WORKSPACE_KEY = 'the workspace key "{key}" is not valid'
NOTHING_BEFORE_CHAT = "the change from a chat created this memory, so there is no earlier text"
BEFORE_CHAT_NOT_KEPT = "the text from before the change from a chat is no longer kept"
BEFORE_CHAT_IS_CURRENT = "the text from before the change from a chat is the current text already"
NOT_DELETED = 'no deleted memory with the id "{id}" is waiting to be restored'
ID_IN_USE = 'a memory with the id "{id}" exists again'
SAME_SCOPE = "the memory is already there"
CHANGED_SINCE_READ = "it was changed since it was read; read it again and make the change over what it is now"
SAVED_BY_ANOTHER = (
    "another program saved this file since it was shown here, and its text cannot be kept as a "
    "version (it is not a memory), so it was not replaced"
)

# Ignored entries: why something in the store is not treated as a memory.
IGNORED_BAD_NAME = "The file name is not a memory id (eight characters 0-9 and a-f) with .md."
IGNORED_FOLDER_IN_SET = "A folder inside a memory set is not a memory."
IGNORED_BAD_KEY = (
    "The folder name is not a workspace key (letters, digits, dots, underscores and hyphens, "
    "beginning with a letter or digit, at most 255 characters)."
)
IGNORED_LINK_OUTSIDE = "The link leads outside the memory folder, so it is not followed."
IGNORED_LINK = "The entry is a link; links are never followed, even inside the memory folder."
IGNORED_NOT_REGULAR = "The entry is not a regular file (a pipe, socket or device), so it is not read."
IGNORED_NOT_A_FOLDER = "A file stands where the store keeps a folder, so it is not read."
IGNORED_MOVE_SET_ASIDE = (
    "A record of a move that was not finished was set aside here and not acted on: it named a link, "
    "a missing set or a state the store cannot finish, or it was not a small regular file. If a "
    "memory is now in two sets, delete the copy you do not want; then delete this file."
)
IGNORED_LOCK_SET_ASIDE = (
    "Something other than the store's lock file (a link, a socket, a pipe or a folder) stood at "
    ".lock, so it was set aside here and a new lock file made; nothing of it was read. Delete it."
)
IGNORED_STUCK_ROOT_FILE = (
    "The store cannot use this file and could not set it aside (it is not a small regular file); "
    "nothing is read from it. Delete it."
)
READ_ONLY_STORE = "the memory folder was opened only to look (a dry run); nothing is written"
LOCK_NOT_A_FILE = (
    "{name} in the memory folder is not the store's lock file (a link, a socket, a pipe or a folder) "
    "and could not be set aside; delete it"
)

# Secret-looking text: our wording. {what} is e.g. "a password" or
# "a password and an API key or token" (describe_kinds, below).
LOOKS_SECRET = (
    "This text looks like it contains {what}; it would be sent to the model with every message. "
    "Save it anyway only if you are sure."
)
SECRET_WARNING_ON = "This memory looks like it contains {what}; it is sent to the model with every message."
SECRET_WARNING_OFF = (
    "This memory looks like it contains {what}; it is off, so it is not sent, "
    "but turning it on would send it with every message."
)


# The kinds of secret-looking text, as the messages name them (store.checks.secrets finds them).
PASSWORD = "password"
TOKEN = "API key or token"
PRIVATE_KEY = "private key"
CARD_NUMBER = "card number"
KINDS = (PASSWORD, TOKEN, PRIVATE_KEY, CARD_NUMBER)

_ARTICLE = {PASSWORD: "a", TOKEN: "an", PRIVATE_KEY: "a", CARD_NUMBER: "a"}


def describe_kinds(kinds: Iterable[str]) -> str:
    """``"a password"``, ``"a password and an API key or token"``… in ``KINDS`` order."""
    present = set(kinds)
    words = [f"{_ARTICLE.get(k, 'a')} {k}" for k in KINDS if k in present]
    words += sorted(f"a {k}" for k in present if k not in KINDS)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
