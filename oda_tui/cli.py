"""The ``oda-tui`` console script: a subcommand runs without the full screen, else the app opens.

The app (and Textual with it) is imported only when it opens, so subcommands start fast and
work without a terminal.
"""

from __future__ import annotations

import argparse
import shutil
import signal
import sys
from collections.abc import Sequence

from . import commands
from .commands.parser import Parser
from .config.paths import resolve_root
from .version import version

# Options of the bare command that take a value: skipped when looking for a subcommand.
_VALUE_OPTIONS = frozenset({"--root", "--workspace"})


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``oda-tui``: ``oda-tui COMMAND …`` runs a subcommand, bare ``oda-tui`` opens the app."""
    args = list(sys.argv[1:] if argv is None else argv)
    index = command_index(args)
    if index is not None:
        # Options written before the command (oda-tui --root DIR list) apply to it too.
        return commands.run(args[index:] + args[:index])
    return open_app(args)


def command_index(args: list[str]) -> int | None:
    """Where the first positional argument is, when it names a subcommand."""
    skip = False
    for index, arg in enumerate(args):
        if skip:
            skip = False
        elif arg in _VALUE_OPTIONS:
            skip = True
        elif arg == "--":
            return None
        elif not arg.startswith("-"):
            return index if arg in commands.NAMES else None
    return None


def app_parser() -> argparse.ArgumentParser:
    """The bare command's options; the subcommands are listed under it."""
    lines = [f"  {name:<9} {module.HELP}" for name, module in commands.COMMANDS.items()]
    parser = Parser(
        prog="oda-tui",
        description="Manage Oda's memory files: the full-screen app, or a command for scripts.",
        epilog="commands (oda-tui COMMAND --help for each):\n" + "\n".join(lines),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--root", metavar="DIR", help="the store folder (default: $ODA_HOME, else Oda's own)")
    parser.add_argument("--workspace", metavar="KEY", help="open with this workspace selected")
    parser.add_argument("--demo", action="store_true", help="open a sample store in a temporary folder")
    parser.add_argument("--version", action="version", version=f"oda-tui {version()}")
    return parser


def open_app(args: list[str]) -> int:
    """Open the full-screen app on the store."""
    options = app_parser().parse_args(args)
    from .app import OdaApp  # Textual is heavy: only the app pays for it

    if not options.demo:
        OdaApp(resolve_root(options.root), options.workspace).run()
        return 0
    from .demo.folder import new_demo_folder, sweep_stale_demo_folders
    from .demo.sample import build_demo_store

    sweep_stale_demo_folders()  # left by a demo that was killed
    folder = new_demo_folder()
    try:
        root = build_demo_store(folder / "memory")
        app = OdaApp(root, options.workspace)
        # A closed terminal (SIGHUP) or a kill (SIGTERM) quits the app the normal way, so the
        # folder below is still removed.
        for signum in (signal.SIGHUP, signal.SIGTERM):
            signal.signal(signum, lambda _signum, _frame: app.exit())
        app.run()
    finally:
        # The sample lives in its own temporary folder; nothing of the person's is in it.
        shutil.rmtree(folder, ignore_errors=True)
    print(f"The demo store in {root} was removed.", file=sys.stderr)
    return 0
