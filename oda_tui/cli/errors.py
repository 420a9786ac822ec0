"""The one exception a command raises to stop with a message and an exit code."""

from __future__ import annotations

#: Exit codes: success, ``check`` found something, usage error or refusal.
OK = 0
FOUND = 1
REFUSED = 2
#: A ``--workspace`` value that is not a valid key, for the subcommands and the bare command alike.
BAD_KEY = (
    'The workspace key "{key}" is not valid: use letters, digits, dots, underscores and hyphens, '
    "beginning with a letter or digit, at most 255 characters."
)


class CommandError(Exception):
    """Stop the command: ``str(err)`` goes to stderr as one line, ``code`` is the exit code."""

    def __init__(self, message: str, code: int = REFUSED) -> None:
        super().__init__(message)
        self.code = code
