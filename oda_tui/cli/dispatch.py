"""Running one subcommand: its parser, and every failure as one line on stderr."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from store import StoreError, UnknownMemory

from ..config.paths import resolve_root
from .access import UNKNOWN_ID
from .errors import REFUSED, CommandError
from .output import note
from .parser import build_parser
from .subcommands import command_modules

# Set to see the traceback of an unexpected error instead of its one-line summary.
DEBUG_VAR = "ODA_TUI_DEBUG"


def run(argv: Sequence[str]) -> int:
    """Run ``argv`` (starting with the command's name) and return the exit code.

    Every failure is one line on stderr, never a traceback: a store refusal word for word,
    except an unknown id, whose message the store words for a chat (it names ``memory_list``):
    here it is said for a person at a shell.
    """
    _never_fail_to_encode()
    parser = build_parser(command_modules(argv[0] if argv else None))
    try:
        args = parser.parse_args(list(argv))
        code: int = args.handler(args)
        return code
    except SystemExit as exc:  # argparse: --help, or a usage error already reported
        return exc.code if isinstance(exc.code, int) else REFUSED
    except UnknownMemory as exc:
        note(
            UNKNOWN_ID.format(id=exc.memory_id, where=f"in {resolve_root(args.root)}", listing="oda-tui list")
        )
        return REFUSED
    except (CommandError, StoreError) as exc:
        note(str(exc))
        return exc.code if isinstance(exc, CommandError) else REFUSED
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _silence_stdout()
        return REFUSED
    except OSError as exc:
        if os.environ.get(DEBUG_VAR):
            raise
        where = f" ({exc.filename})" if exc.filename else ""
        note(f"The store could not be read: {exc.strerror or exc}{where}.")
        return REFUSED
    except Exception as exc:  # the promise is one line, never a traceback
        if os.environ.get(DEBUG_VAR):
            raise
        note(f"Unexpected error: {type(exc).__name__}: {exc}")
        return REFUSED


def _never_fail_to_encode() -> None:
    """A character the output's encoding lacks (``PYTHONIOENCODING=ascii``, a Latin-1 locale)
    is written as a ``\\u`` escape instead of failing the command."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
        except (AttributeError, ValueError):  # not a text stream of ours (a test's capture)
            pass


def _silence_stdout() -> None:
    """The reader went away (``| head``): send what Python still flushes at exit nowhere."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass
