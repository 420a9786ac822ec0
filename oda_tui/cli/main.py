"""The ``oda-tui`` console script: a subcommand runs without the full screen, else the app opens.

The app (and Textual with it) is imported only when it opens, and a subcommand's module only
when it runs, so each way in pays only for what it uses.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from store import is_valid_key

from ..config.paths import ENV_VAR, resolve_root, root_problem
from . import subcommands
from .errors import BAD_KEY
from .parser import Parser

if TYPE_CHECKING:
    from ..exit_guard import ExitGuard

# Options of the bare command that take a value: skipped when looking for a subcommand.
_VALUE_OPTIONS = frozenset({"--root", "--workspace"})
# The exit code of a usage error or a refusal, as for the subcommands.
_REFUSED = 2
#: Seconds the app waits for the store's first read before it opens (10,000 memories take
#: about 0.2 s on a small machine).
FIRST_READ_HEAD_START_S = 0.5


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``oda-tui``: ``oda-tui COMMAND …`` runs a subcommand, bare ``oda-tui`` opens the app."""
    args = list(sys.argv[1:] if argv is None else argv)
    index = command_index(args)
    if index is not None:
        from .dispatch import run  # the command's parser, imported only when a command runs

        # Options written before the command (oda-tui --root DIR list) apply to it too.
        return run(args[index:] + args[:index])
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
            return index if arg in subcommands.NAMES else None
    return None


class _AppParser(Parser):
    """The bare command's parser: the subcommands' help is gathered only when help is shown."""

    def format_help(self) -> str:
        from ..config.keymap import keymap_path
        from .environment import APP, APP_DOCS, environment_help, paths_help

        lines = [f"  {name:<9} {module.HELP}" for name, module in subcommands.command_modules().items()]
        self.epilog = "\n\n".join(
            (
                "commands (oda-tui COMMAND --help for each):\n" + "\n".join(lines),
                environment_help(APP),
                paths_help(state=True, config=True),
                f"keys: remap any key of the app in {keymap_path()}\n"
                "  (one 'binding.id: keys' a line; ? in the app lists every binding id)",
                APP_DOCS,
            )
        )
        return super().format_help()


class _VersionAction(argparse.Action):
    """``--version``: the package metadata is read only when asked."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *_args: Any) -> None:
        from ..version import version

        sys.stdout.write(f"oda-tui {version()}\n")
        parser.exit()


def app_parser() -> argparse.ArgumentParser:
    """The bare command's options; the subcommands are listed under it."""
    parser = _AppParser(
        prog="oda-tui",
        description="Manage Oda's memory files: the full-screen app, or a command for scripts.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--root", metavar="DIR", help="the store folder (default: $ODA_HOME, else Oda's own)")
    parser.add_argument("--workspace", metavar="KEY", help="open with this workspace selected")
    parser.add_argument("--demo", action="store_true", help="open a sample store in a temporary folder")
    parser.add_argument("--version", action=_VersionAction, help="show the version and exit")
    return parser


def open_app(args: list[str]) -> int:
    """Open the full-screen app on the store (or on a new demo store)."""
    options = app_parser().parse_args(args)
    if options.workspace is not None and not is_valid_key(options.workspace):
        from .output import visible  # the message quotes what was typed, control bytes too

        sys.stderr.write(visible(BAD_KEY.format(key=options.workspace)) + "\n")
        return _REFUSED
    if options.demo:
        return _open_demo(options.workspace)
    root = resolve_root(options.root)
    problem = root_problem(root)
    if problem is not None:
        sys.stderr.write(problem + "\n")
        return _REFUSED
    return _run_app(root, options.workspace, root_named=bool(options.root or os.environ.get(ENV_VAR)))


def _run_app(
    root: Path, workspace: str | None, guard: ExitGuard | None = None, *, root_named: bool = False
) -> int:
    """Run the app until it quits, or until its terminal is lost or it is told to stop
    (``guard``: one installed earlier, whose cleanup runs however the app ends)."""
    from ..exit_guard import ExitGuard
    from ..session.first_read import FirstRead

    if guard is None:
        guard = ExitGuard()
        guard.install()
    # No collection until the list is on screen (the session turns the collector back on):
    # what the start-up makes, the store's picture, Textual's modules and the widgets, all
    # lives on, and each collection would only walk it again.
    gc.disable()
    try:
        # The store is read first, so the first frame shows it; a store too big to read within
        # the head start goes on being read while the app opens.
        first_read = FirstRead(root, workspace)
        first_read.wait(FIRST_READ_HEAD_START_S)
        from ..app import OdaApp  # Textual is heavy: only the app pays for it

        app = OdaApp(root, workspace, first_read=first_read, root_named=root_named)
        guard.hand_over(lambda: app.call_from_thread(app.exit_from_outside))
        app.run()
    finally:
        guard.cleanup_now()
    if app.crash_line is not None:
        try:
            sys.stderr.write(app.crash_line + "\n")
        except OSError:  # the terminal is gone
            pass
    # A signal or a lost terminal says how it ended; else an unexpected error makes it non-zero.
    return guard.exit_code() or (app.return_code or 0)


def _open_demo(workspace: str | None) -> int:
    """The app on a sample store in a new temporary folder, removed however the app ends (a
    signal during start-up included: the guard is on before the folder is made)."""
    from datetime import UTC, datetime

    from ..config.paths import CONFIG_ENV, STATE_ENV
    from ..demo.folder import new_demo_folder, remove_demo_folder, sweep_stale_demo_folders
    from ..demo.template import write_sample
    from ..exit_guard import ExitGuard

    made: list[Path] = []

    def remove_made() -> None:
        for folder in made:
            remove_demo_folder(folder)

    guard = ExitGuard(cleanup=remove_made)
    guard.install()
    try:
        sweep_stale_demo_folders()  # left by a demo that was killed outright
        with guard.held():  # a signal waits until the cleanup knows the folder
            made.append(new_demo_folder())
        folder = made[0]
        # Review marks and a theme picked in the demo belong to the demo, not to the person's.
        os.environ[CONFIG_ENV] = str(folder / "config")
        os.environ[STATE_ENV] = str(folder / "state")
        # The sample as the store wrote it, its moments moved to now (a few milliseconds); a
        # signal meanwhile waits for it, so the cleanup removes a folder nothing writes into.
        with guard.held():
            root = write_sample(folder / "memory", datetime.now(UTC))
        # A signal before the app is made ends the start-up wherever it lands (an import
        # included): the folder goes with it.
        code = _run_app(root, workspace, guard)
    except BaseException:
        guard.cleanup_now()
        raise
    try:
        print(f"The demo store in {root} was removed.", file=sys.stderr)
    except OSError:  # the terminal is gone
        pass
    return code
