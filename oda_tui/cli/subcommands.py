"""The ``oda-tui`` subcommands: the store without the full-screen app, for SSH, scripts and hooks.

Nothing here imports Textual, so a command starts fast and needs no terminal. This package's
own module only names the commands: a command's module (and the store) is imported when a
command runs, so the bare ``oda-tui`` that opens the app pays nothing for them.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

#: Each command's name and the module (in this package) that runs it, in the order help lists them.
MODULES = {
    "check": "check",
    "list": "listing",
    "show": "show",
    "history": "history",
    "context": "context",
    "export": "export",
    "sync": "sync",
    "import": "importing",
    "mcp": "mcp_command",
}
NAMES = frozenset(MODULES)


def command_modules(only: str | None = None) -> dict[str, ModuleType]:
    """Every command's module by name (this imports them all: for help and usage errors), or
    only the one named ``only`` (a command that runs pays for its own imports, not the rest's:
    ``sync`` and ``import`` bring YAML and the assistants' formats)."""
    names = [only] if only in MODULES else list(MODULES)
    return {name: import_module(f"{__package__}.{MODULES[name]}") for name in names}


__all__ = ["MODULES", "NAMES", "command_modules"]
