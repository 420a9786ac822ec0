"""The environment variables ``oda-tui`` reads, for ``--help``: the app's, and each command's."""

from __future__ import annotations

import argparse

#: Each variable and what it changes.
VARIABLES = {
    "ODA_HOME": "the memory folder, when --root is not given",
    "ODA_TUI_CONFIG": "the app's config folder: keymap.yaml, themes/, settings.json (the theme chosen)",
    "ODA_TUI_STATE": "the app's state folder: drafts, review marks, crash.log",
    "ODA_TUI_ASCII": "1 draws ASCII symbols and borders, 0 the Unicode ones (else TERM and the locale decide)",
    "NO_COLOR": "set (not empty): word diffs also mark what went and came as [-old-] and {+new+}",
    "ODA_TUI_DEBUG": "set: an unexpected error prints its traceback, not one line",
}

#: The variables the app reads.
APP = ("ODA_HOME", "ODA_TUI_CONFIG", "ODA_TUI_STATE", "ODA_TUI_ASCII", "NO_COLOR")
#: The variables a command reads beyond ``ODA_HOME`` and ``ODA_TUI_DEBUG`` (``check --review``
#: reads the review marks in the state folder).
COMMAND_EXTRA = {"check": ("ODA_TUI_STATE",)}


def environment_help(names: tuple[str, ...]) -> str:
    """The lines ``--help`` ends with: each variable and what it changes."""
    width = max(len(name) for name in names)
    return "environment:\n" + "\n".join(f"  {name:<{width}}  {VARIABLES[name]}" for name in names)


def command_environment(command: str) -> str:
    """The environment lines of one command's ``--help``."""
    return environment_help(("ODA_HOME", *COMMAND_EXTRA.get(command, ()), "ODA_TUI_DEBUG"))


class EpilogFormatter(argparse.HelpFormatter):
    """Argparse's formatter, except that text of several lines (the environment lines) keeps
    its lines instead of being wrapped into one paragraph."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if "\n" in text:
            return "".join(indent + line + "\n" for line in text.splitlines()).rstrip("\n")
        return super()._fill_text(text, width, indent)
