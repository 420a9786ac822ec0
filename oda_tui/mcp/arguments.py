"""The tools' arguments: their JSON schemas, and the check every call goes through first.

A call whose arguments are not what the tool takes is refused with one sentence the model can
act on (``BadArguments``), before anything is read or written.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from store import Limits

from . import messages as msg

_SURROGATE = re.compile("[\ud800-\udfff]")
_KINDS: dict[type, str] = {str: "string", bool: "boolean", int: "integer"}


@dataclass(frozen=True)
class Argument:
    """One argument a tool takes: a string, a boolean or a whole number.

    ``max_length`` reads a string's limit from the store's current settings (None: no limit
    of its own); ``minimum``/``maximum`` bound a number.
    """

    name: str
    kind: type  # str, bool or int
    description: str
    required: bool = False
    max_length: Callable[[Limits], int] | None = None
    minimum: int | None = None
    maximum: int | None = None
    missing: str | None = None  # the reason a required one is missing, when "needs …" is not enough

    def schema(self, limits: Limits) -> dict[str, Any]:
        """This argument's JSON schema under ``limits``."""
        found: dict[str, Any] = {"type": _KINDS[self.kind], "description": self.description}
        if self.max_length is not None:
            found["maxLength"] = self.max_length(limits)
        if self.minimum is not None:
            found["minimum"] = self.minimum
        if self.maximum is not None:
            found["maximum"] = self.maximum
        return found


@dataclass(frozen=True)
class ToolSpec:
    """A tool: its name, title, what it does, its arguments, its answer's schema, its hints."""

    name: str
    description: str
    arguments: tuple[Argument, ...] = ()
    read_only: bool = False
    idempotent: bool = False  # calling it twice answers the same and changes nothing more
    destructive: bool = False  # it may remove something (memory_delete)
    title: str = ""
    output_schema: dict[str, Any] = field(default_factory=dict)

    @property
    def writes(self) -> bool:
        """Whether the tool changes memory (its failures read "could not be changed")."""
        return not self.read_only

    def describe(self, limits: Limits | None = None) -> str:
        """The description with the limits in force filled in (``{title}``, ``{text}``, ``{tokens}``)."""
        limits = limits or Limits()
        return self.description.format(
            title=limits.title_max_chars, text=limits.text_max_chars, tokens=limits.chat_max_tokens
        )

    def input_schema(self, limits: Limits | None = None) -> dict[str, Any]:
        """The JSON schema of the arguments (no other argument is accepted)."""
        limits = limits or Limits()
        return {
            "type": "object",
            "properties": {a.name: a.schema(limits) for a in self.arguments},
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
                raise BadArguments(arg.missing or msg.MISSING_ARGUMENT.format(tool=spec.name, arg=arg.name))
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
    """One given argument, of its kind (a string of valid Unicode, a boolean, a number in range)."""
    if arg.kind is bool:
        if not isinstance(value, bool):
            raise BadArguments(msg.NOT_A_BOOLEAN.format(arg=arg.name))
        return value
    if arg.kind is int:
        return _checked_number(arg, value)
    if not isinstance(value, str):
        raise BadArguments(msg.NOT_A_STRING.format(arg=arg.name))
    found = _SURROGATE.search(value)
    if found is not None:
        raise BadArguments(msg.LONE_SURROGATE.format(arg=arg.name, code=ord(found.group())))
    return value


def _checked_number(arg: Argument, value: Any) -> int:
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # 50.0 is 50 (some clients send every number as a float)
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadArguments(msg.NOT_A_NUMBER.format(arg=arg.name))
    low = arg.minimum if arg.minimum is not None else value
    high = arg.maximum if arg.maximum is not None else value
    if not low <= value <= high:
        raise BadArguments(msg.OUT_OF_RANGE.format(arg=arg.name, low=low, high=high))
    return value
