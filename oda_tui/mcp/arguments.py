"""The four tools' arguments: their JSON schemas, and the check every call goes through first.

A call whose arguments are not what the tool takes is refused with one sentence the model can
act on, before anything is read or written.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from . import messages as msg

_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class Argument:
    """One argument a tool takes."""

    name: str
    kind: type  # str or bool
    description: str
    required: bool = False


@dataclass(frozen=True)
class ToolSpec:
    """A tool's name, what it does, and its arguments."""

    name: str
    description: str
    arguments: tuple[Argument, ...] = ()
    read_only: bool = False
    idempotent: bool = False  # calling it twice answers the same (memory_read does not: deltas)

    def input_schema(self) -> dict[str, Any]:
        """The JSON schema of the arguments (no other argument is accepted)."""
        kinds = {str: "string", bool: "boolean"}
        return {
            "type": "object",
            "properties": {
                a.name: {"type": kinds[a.kind], "description": a.description} for a in self.arguments
            },
            "required": [a.name for a in self.arguments if a.required],
            "additionalProperties": False,
        }


class BadArguments(Exception):
    """The call's arguments were refused; ``str(err)`` says why, in one sentence."""


def _quoted(names: list[str]) -> str:
    quoted = [f'"{n}"' for n in names]
    if len(quoted) == 1:
        return quoted[0]
    return ", ".join(quoted[:-1]) + " and " + quoted[-1]


def shown(value: object) -> str:
    """A caller's value quoted back: at most 40 characters, a lone surrogate as its escape."""
    text = str(value)
    text = text if len(text) <= 40 else text[:40] + "…"
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def checked(spec: ToolSpec, arguments: Mapping[str, Any] | None) -> dict[str, Any]:
    """The call's arguments, checked against ``spec``; raises ``BadArguments``.

    Unknown names, missing required ones, wrong types and text that is not valid Unicode (a
    lone surrogate cannot be written as UTF-8) are refused. Lengths are the store's to judge:
    its refusal names the limit.
    """
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, Mapping):
        raise BadArguments(msg.ARGUMENTS_NOT_OBJECT)
    _refuse_unknown(spec, arguments)
    values: dict[str, Any] = {}
    for arg in spec.arguments:
        if arg.name not in arguments or arguments[arg.name] is None:
            if arg.required:
                raise BadArguments(msg.MISSING_ARGUMENT.format(tool=spec.name, arg=arg.name))
            continue
        values[arg.name] = _checked_value(arg, arguments[arg.name])
    return values


def _refuse_unknown(spec: ToolSpec, arguments: Mapping[str, Any]) -> None:
    """Refuse names the tool does not take, naming the ones it does."""
    known = [a.name for a in spec.arguments]
    unknown = [shown(name) for name in arguments if name not in known]
    if not unknown:
        return
    if not known:
        raise BadArguments(msg.NO_ARGUMENTS.format(tool=spec.name))
    label = "the argument" if len(unknown) == 1 else "the arguments"
    raise BadArguments(
        msg.UNKNOWN_ARGUMENTS.format(
            tool=spec.name, args=f"{label} {_quoted(unknown)}", expected=_quoted(known)
        )
    )


def _checked_value(arg: Argument, value: Any) -> Any:
    """One given argument, of its kind and valid Unicode."""
    if arg.kind is bool:
        if not isinstance(value, bool):
            raise BadArguments(msg.NOT_A_BOOLEAN.format(arg=arg.name))
    elif not isinstance(value, str):
        raise BadArguments(msg.NOT_A_STRING.format(arg=arg.name))
    else:
        found = _SURROGATE.search(value)
        if found is not None:
            raise BadArguments(msg.LONE_SURROGATE.format(arg=arg.name, code=ord(found.group())))
    return value
