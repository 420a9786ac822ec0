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


def paths_help(state: bool, config: bool) -> str:
    """The folders as the variables set them now: the memory folder, and the app's own."""
    from ..config.paths import config_dir, resolve_root, state_dir

    rows = [("memory folder", resolve_root(None))]
    if config:
        rows.append(("config folder", config_dir()))
    if state:
        rows.append(("state folder", state_dir()))
    return "paths (as set now):\n" + "\n".join(f"  {name:<13}  {path}" for name, path in rows)


#: Where the documentation says more (its pages are in the source's ``docs/`` folder).
APP_DOCS = "docs: Using the app (docs/app.md) and Command line (docs/cli.md) in the source"
COMMAND_DOCS = "docs: Command line (docs/cli.md) in the source"


def command_environment(command: str) -> str:
    """The environment, paths and docs lines of one command's ``--help``."""
    extra = COMMAND_EXTRA.get(command, ())
    return "\n\n".join(
        (
            environment_help(("ODA_HOME", *extra, "ODA_TUI_DEBUG")),
            paths_help(state="ODA_TUI_STATE" in extra, config=False),
            COMMAND_DOCS,
        )
    )


class EpilogFormatter(argparse.HelpFormatter):
    """Argparse's formatter, except that text of several lines (the environment lines) keeps
    its lines instead of being wrapped into one paragraph."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if "\n" in text:
            return "".join(indent + line + "\n" for line in text.splitlines()).rstrip("\n")
        return super()._fill_text(text, width, indent)
