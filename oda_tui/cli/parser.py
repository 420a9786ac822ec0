"""The argument parser for the subcommands: common options, one line per usage error."""

from __future__ import annotations

import argparse
import sys
from types import ModuleType
from typing import NoReturn

from .errors import REFUSED


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose usage errors are one line on stderr and exit 2."""

    def error(self, message: str) -> NoReturn:
        from .output import visible  # the message quotes what was typed, control bytes too

        sys.stderr.write(visible(f"{self.prog}: {message} (see {self.prog} --help)") + "\n")
        raise SystemExit(REFUSED)


def common_options(*, with_json: bool = True) -> Parser:
    """``--root``, which every command takes, and ``--json`` (every command that prints a
    document: not ``mcp``, which speaks JSON-RPC)."""
    common = Parser(add_help=False)
    common.add_argument(
        "--root", metavar="DIR", help="the store folder (default: $ODA_HOME, else Oda's own folder)"
    )
    if with_json:
        common.add_argument("--json", action="store_true", help="print one JSON document instead")
    return common


def build_parser(commands: dict[str, ModuleType]) -> Parser:
    """``oda-tui COMMAND …`` with one subparser per command module."""
    from .environment import EpilogFormatter, command_environment  # not for the bare oda-tui

    parser = Parser(prog="oda-tui", description="Inspect, check and export Oda's memory files.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=Parser)
    common, root_only = common_options(), common_options(with_json=False)
    for name, module in commands.items():
        child = sub.add_parser(
            name,
            help=module.HELP,
            description=module.HELP,
            parents=[common if getattr(module, "TAKES_JSON", True) else root_only],
            epilog=command_environment(name),
            formatter_class=EpilogFormatter,
        )
        module.add_arguments(child)
        child.set_defaults(handler=module.run)
    return parser
