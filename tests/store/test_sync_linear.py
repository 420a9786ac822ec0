"""Sync's readers of Markdown are linear in their input: each is timed on a pathological input
against a plain one of the same size and the same lines (its syntax turned into letters), in
the same run, and the ratio is bounded (generously: quadratic work at this size would take
minutes, not a few times longer)."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from store.exchange.block_markdown import imports, lower_headings, quote_imports
from store.exchange.managed_block import BlockProblem, find_block, plan_block

SIZE = 100_000


#: What a memory's text is like: a heading, code spans, an ``@`` path, an address.
PROSE = "Use `uv add` to add a package, see @docs/deps.md, and write to ada@example.com. "


def _plain(text: str) -> str:
    """Plain text of the same size and the same lines as ``text``: each line that much prose."""
    lines = text.split("\n")
    return "\n".join((PROSE * (len(line) // len(PROSE) + 1))[: len(line)] for line in lines)


def _sized(piece: str) -> str:
    return (piece * (SIZE // len(piece) + 1))[:SIZE]


def _best_of_three(work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def _markers(text: str) -> object:
    try:
        return find_block(text)
    except BlockProblem:
        return None


PATHOLOGICAL = {
    # backtick runs of every length, none closed, with an @ after each
    "runs": "".join("`" * n + " @x " for n in range(1, 500))[:SIZE],
    # one line of unpaired runs and tokens
    "one line": _sized("` @a\\ b ``"),
    # addresses: an @ after a letter, again and again
    "addresses": _sized("a@"),
    # backslashes before every @
    "backslashes": _sized("\\\\\\\\@"),
    # a paragraph of a thousand lines, then an underline, over and over
    "setext": _sized("word\n" * 1000 + "---\n"),
    # quotes and items nested deep on every line
    "nesting": _sized("> - > 1. > * " * 40 + "text\n"),
    # one line nested a hundred thousand deep
    "deep": _sized("> ") + "text",
    # fence lines and marker-like lines
    "fences": _sized("```\n~~~\n<!-- oda-memory: begin\n"),
}


@pytest.mark.parametrize("reader", ["quote", "imports", "headings", "block", "plan"])
def test_each_reader_is_linear(reader: str) -> None:
    run: dict[str, Callable[[str], object]] = {
        "quote": quote_imports,
        "imports": imports,
        "headings": lower_headings,
        "block": _markers,
        "plan": lambda text: _plan(text),
    }
    work = run[reader]
    for name, text in PATHOLOGICAL.items():
        assert len(text) >= SIZE
        prose = _plain(text)
        plain = _best_of_three(lambda prose=prose: work(prose))  # type: ignore[misc]
        bad = _best_of_three(lambda text=text: work(text))  # type: ignore[misc]
        floor = max(plain, 1e-3)
        assert bad / floor < 20, f"{reader} on {name}: {bad:.3f}s against {plain:.3f}s for plain text"


def _plan(text: str) -> object:
    try:
        return plan_block(text, "# Memory\n\n## A\n\nB\n", at_top=True)
    except BlockProblem:
        return None
