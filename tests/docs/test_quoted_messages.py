"""Every message the README and the docs quote (a sentence in a code span) is one the code says.

A quoted message names values where the code has holes (`"T"`, `<n>`, `…`, an id, a number, a
path): the quote is cut there, and each piece of three words or more must be made of the code's
own words. A piece is checked by its runs of four words (three, for a piece of three): each must be a run of
some string literal in `store` or `oda_tui`, where at most one hole of the literal (an f-string's
value, a format field) stands for one word of the quote. A failure names the page and the line.
"""

from __future__ import annotations

import ast
import itertools
import re
from functools import cache

import pytest

from tests.support.doc_examples import PROJECT

PAGES = [PROJECT / "README.md", *sorted((PROJECT / "docs").glob("*.md"))]
HOLE = "\x00"
#: What a quote names where the code has a hole: "…", <n>, "T", ID, 2000, a path, punctuation
#: where a message is joined from parts, and values such as Global or a tool's name.
VALUES = re.compile(
    r'…|\.\.\.|<[^>]+>|"[^"]*"|“[^”]*”|\b[A-Z]{1,4}\b|\b\d[\d,]*\b|: |; |\. |[][()]|[\w.-]*/[\w./-]*'
    r"|\bGlobal\b|\bmemory_\w+|\boda-tui\b"
)
SENTENCE = re.compile(r"^[A-Z][a-z].*\.\)?$")


def words(text: str) -> list[str]:
    return re.findall(r"[\w'’-]+|" + HOLE, text)


@cache
def literal_runs() -> frozenset[tuple[str, ...]]:
    """Every run of three and of four words of the code's string literals, holes as HOLE."""
    runs: set[tuple[str, ...]] = set()
    for path in itertools.chain(PROJECT.glob("store/**/*.py"), PROJECT.glob("oda_tui/**/*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.JoinedStr):
                text = "".join(
                    v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else f" {HOLE} "
                    for v in node.values
                )
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = re.sub(r"\{[^{}]*\}", f" {HOLE} ", node.value)
            else:
                continue
            found = words(text)
            for size in (3, 4):
                runs.update(tuple(found[i : i + size]) for i in range(len(found) - size + 1))
    return frozenset(runs)


def said_by_code(run: tuple[str, ...]) -> bool:
    known = literal_runs()
    return run in known or any(run[:i] + (HOLE,) + run[i + 1 :] in known for i in range(len(run)))


def quoted_messages() -> list[tuple[str, str]]:
    """(page:line, message) for every sentence the pages quote in a code span."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in re.finditer(r"`([^`\n]+(?:\n[^`\n]+)?)`", text):
            quote = re.sub(r"\s+", " ", match.group(1))
            if SENTENCE.match(quote) and len(quote.split()) >= 4:
                line = text.count("\n", 0, match.start()) + 1
                found.append((f"{page.relative_to(PROJECT)}:{line}", quote))
    return found


MESSAGES = quoted_messages()


def test_the_docs_quote_messages() -> None:
    assert len(MESSAGES) >= 30


@pytest.mark.parametrize(("where", "message"), MESSAGES, ids=[where for where, _ in MESSAGES])
def test_a_quoted_message_is_the_codes(where: str, message: str) -> None:
    unsaid = []
    for piece in VALUES.split(message):
        found = words(piece)
        size = min(4, len(found))
        if size < 3:
            continue
        runs = [tuple(found[i : i + size]) for i in range(len(found) - size + 1)]
        unsaid += [" ".join(run) for run in runs if not said_by_code(run)]
    assert unsaid == [], f"{where}: {message!r}: the code says no {unsaid}"
