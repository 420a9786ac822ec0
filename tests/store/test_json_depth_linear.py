"""The JSON depth check every state and config file passes (``review.json``, drafts,
``settings.json``) is linear in its input: a quote followed by thousands of escaped quotes, the
input that kept ``oda-tui check --review`` running for minutes, costs what a plain string of
the same size costs. Proven by a ratio in one run, never by a clock."""

from __future__ import annotations

from pathlib import Path

import pytest

from store import FileRefused, parse_json_config
from store.disk.config_files import json_too_deep
from tests.support.timing import slowdown

#: Generous: a linear check is within a small factor; the quadratic one was thousands of times
#: slower already at this size (16 KB took seconds, where the plain string takes microseconds).
BOUND = 20.0
PAIRS = 8_000

PATHOLOGICAL = {
    "an unterminated string of escaped quotes": b'"' + b'\\"' * PAIRS,
    "the same, ending in a lone backslash": b'"' + b'\\"' * PAIRS + b"\\",
    "the same inside an array": b'["' + b'\\"' * PAIRS,
}


@pytest.mark.parametrize("name", list(PATHOLOGICAL))
def test_the_depth_check_is_linear_in_escaped_quotes(name: str) -> None:
    pathological = PATHOLOGICAL[name]
    plain = b'"' + b"\\n" * ((len(pathological) - 2) // 2) + b'"'  # a whole string, same size
    plain = plain.ljust(len(pathological), b" ")

    ratio = slowdown(lambda: json_too_deep(pathological), lambda: json_too_deep(plain))

    assert ratio < BOUND, f"{name}: {ratio:.0f} times the plain input's time"


def test_a_review_file_of_escaped_quotes_is_refused_in_linear_time(tmp_path: Path) -> None:
    pathological = b'{"stores": {"' + b'\\"' * PAIRS
    plain = b'{"stores": {"' + b"ab" * PAIRS + b'": {}}}'
    path = tmp_path / "review.json"

    def parse(raw: bytes) -> object:
        try:
            return parse_json_config(path, raw)
        except FileRefused as exc:
            return exc

    ratio = slowdown(lambda: parse(pathological), lambda: parse(plain))

    assert ratio < BOUND, f"{ratio:.0f} times the plain input's time"
    assert isinstance(parse(pathological), FileRefused)


def test_brackets_are_counted_outside_strings_only() -> None:
    cases = {
        b'[1, "]", [2]]': False,
        b'["\\\\"]': False,
        b'["\\"[[["]': False,
        b"[[[": True,
        b'{"a": {"b": []}}': True,
        b'["\\\\", [[]]]': True,
        # An unterminated string runs to the end: nothing after its quote is counted (the
        # parser stops at that string, before any bracket after it).
        b'"[[[': False,
        b'["unterminated \\" [[[': False,
    }
    assert {raw: json_too_deep(raw, 2) for raw in cases} == cases
