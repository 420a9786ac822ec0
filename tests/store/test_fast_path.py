"""The frontmatter fast path is a shortcut, never a second opinion: a differential test.

``parse_fast(lines)`` may decline (None) for anything, but when it answers, its fields, line
spans or problem must be exactly what the YAML parser (``parse_yaml``) gives for the same lines.
``split_frontmatter`` is checked the same way against a plain line-by-line reference.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from store.format.fast_parser import RISKY_FIRST, _risky, parse_fast
from store.format.parse import FileProblem, split_frontmatter
from store.format.yaml_block import parse_yaml

KEYS = ["title", "enabled", "source", "sessionId", "created", "updated"]
TRICKY = [
    "",
    " ",
    "plain title",
    "2024",
    "12345",
    "0x1F",
    "1e3",
    "0o17",
    "1_000",
    ".5",
    "-1",
    "+1",
    ".inf",
    ".NaN",
    "true",
    "True",
    "TRUE",
    "false",
    "yes",
    "No",
    "on",
    "Off",
    "y",
    "n",
    "null",
    "Null",
    "NULL",
    "~",
    "user",
    "ai",
    "User",
    "2026-11-29T21:52:34.123Z",
    "2026-11-29",
    "2026-11-29 21:52:34",
    "2026-11-29T21:52:34+02:00",
    "2026-13-40T99:99:99Z",
    "'quoted'",
    "'it''s'",
    "''",
    "'null'",
    "'true'",
    "'user'",
    "'2024'",
    "'unclosed",
    "'a' b",
    "'a'b'",
    "'a''b'",
    "''''",
    "'''",
    "' x '",
    "'a' # c",
    '"double"',
    '"esc\\n"',
    "a: b",
    "a:b",
    "a :b",
    "key:",
    "ends:",
    "a # comment",
    "a#b",
    "#start",
    "- item",
    "-item",
    "--- x",
    "---",
    "...",
    "? q",
    "[a, b]",
    "{a: b}",
    "a, b",
    "a [b] {c}",
    "&anchor x",
    "*alias",
    "!!str x",
    "!tag x",
    "| block",
    "> folded",
    "%directive",
    "@at",
    "`tick`",
    "trailing ",
    "tab\there",
    "\ttab",
    "ünïcödé 日本語 🎉",
    "zero\u200bwidth",
    "bidi \u202e txt",
    "line\u2028sep",
    "para\u2029sep",
    "nel\x85x",
    "nbsp\xa0x",
    "bom\ufeffx",
    "bell\x07x",
    "del\x7fx",
    "esc\x1bx",
    "nul\x00x",
    "c1\x9fx",
    "\ue000private",
    "\ufffe",
    "x" * 200,
    "=",
    "<<",
    "0x_",
    "0b_",
    "+0b_",
    "0_",
    "1:30",
    "1:30.5",
    "1_000.5",
    "3D printer",
    "2026-1-5",
    "2026-11-29  21:52:34",
    "2026-11-29T21:52:34.1234567Z",
    "2026-11-29T24:00:00Z",
    "2026-02-30T10:00:00Z",
    "9" * 5000,
]
SEPARATORS = [": ", ":", ":  ", ":\t", " : ", ": \t"]

values = (
    st.sampled_from(TRICKY)
    | st.text(max_size=30)
    | st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\n\r"), max_size=20)
)


def quoted(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


value_forms = values | values.map(quoted)
keys = st.sampled_from(KEYS) | st.sampled_from(["extra", "Title", "x_y", "9a", " title", "title "])
# Any lines: keys repeat often (a repeated key is a problem both ways).
lines = st.lists(
    st.builds(lambda k, sep, v: f"{k}{sep}{v}", keys, st.sampled_from(SEPARATORS), value_forms)
    | st.sampled_from(["", " ", "# comment", "  indented: x", "- item", "---", "..."]),
    min_size=0,
    max_size=8,
)


def canonical_lines(draw_values: list[str]) -> list[str]:
    return [f"{k}: {v}" for k, v in zip(KEYS, draw_values, strict=False)]


# The six spellings of true and false, and YAML 1.1's other booleans (a problem for enabled).
bools = st.sampled_from(
    ["true", "false", "True", "False", "TRUE", "FALSE", "on", "Off", "yes", "NO", "y", "n", "'true'"]
)
sources = st.sampled_from(["user", "ai", "'user'", "'ai'"])
stamps = st.sampled_from(["2026-11-29T21:52:34.123Z", "2026-11-29T21:52:34Z", "2026-11-29"])
# Mostly valid fields (so the fast path has to answer), with any value anywhere now and then.
friendly = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp")),
    min_size=1,
    max_size=40,
)
friendly_forms = friendly | friendly.map(quoted)


def mostly_valid(fields: list[str], count: int, wild_at: int | None, wild: str) -> list[str]:
    if wild_at is not None:
        fields[wild_at] = wild
    return canonical_lines(fields[:count])


# Valid fields (so the fast path has to answer), with one wild value now and then.
well_formed = st.builds(
    mostly_valid,
    st.tuples(friendly_forms, bools, sources, friendly_forms, stamps, stamps).map(list),
    st.integers(3, 6),
    st.none() | st.integers(0, 5),
    value_forms,
)


def check_same(fm_lines: list[str]) -> None:
    fast = parse_fast(fm_lines)
    if fast is None:
        return
    slow = parse_yaml(fm_lines)
    if isinstance(fast, FileProblem):
        assert fast == slow, (fm_lines, fast, slow)
        return
    assert not isinstance(slow, FileProblem), (fm_lines, fast, slow)
    assert fast[0] == slow[0], (fm_lines, fast, slow)
    assert fast[1] == slow[1], (fm_lines, fast, slow)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(well_formed)
@example(["title: 2024", "enabled: on", "source: ai"])
@example(["title: T", "enabled: yes", "source: user"])
@example(["title: T", "enabled: FALSE", "source: user"])
@example(["title: T", "enabled: !!bool yes", "source: user"])
@example(["title: 'it''s: fine # really'", "enabled: true", "source: 'user'"])
@example(["title: 'null'", "enabled: true", "source: user"])
@example(["title: x", "enabled: 'true'", "source: user"])
@example(["title: line\u2028sep", "enabled: true", "source: user", "sessionId: a\u2028b"])
@example(["title: bom\ufeffx", "enabled: true", "source: user"])
@example(["title: T", "enabled: true", "source: user", "created: 2026-11-29T21:52:34.123Z"])
@example(["title: T", "enabled: true", "source: user", "created: 2026-11-29 21:52:34"])
@example(["title: T", "enabled: true", "source: user", "sessionId: ~"])
def test_fast_path_equals_yaml_on_well_formed_frontmatter(fm_lines: list[str]) -> None:
    check_same(fm_lines)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(lines)
@example([])
@example(["title: T", "title: U", "enabled: true", "source: user"])
@example(["title: T", "enabled: true", "source: user", "enabled: false"])
@example(["title: T", "enabled: true", "source: user", "x: 1", "x: 1"])
@example(["title:", "enabled:", "source:"])
@example(["title: T", "enabled: true", "source: user", "extra: 1"])
def test_fast_path_equals_yaml_on_any_lines(fm_lines: list[str]) -> None:
    check_same(fm_lines)


extra_keys = st.sampled_from(
    ["replaced", "via", "x_y", "Title", "yes", "On", "null", "9a", "a-b", "replaced "]
)
fingerprints = st.text(alphabet="0123456789abcdefbx", min_size=1, max_size=18)
extra_lines = st.lists(
    st.builds(
        lambda k, sep, v: f"{k}{sep}{v}", extra_keys, st.sampled_from(SEPARATORS), value_forms | fingerprints
    ),
    min_size=1,
    max_size=2,
)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(well_formed, extra_lines, st.integers(0, 6))
@example(["title: T", "enabled: true", "source: user"], ["replaced: e760cd4b0094d82a"], 3)
@example(["title: T", "enabled: true", "source: user"], ["replaced: nothing"], 3)
@example(["title: T", "enabled: true", "source: user"], ["replaced: 0123"], 0)
@example(["title: T", "enabled: true", "source: user"], ["replaced: 0b101"], 1)
@example(["title: T", "enabled: true", "source: user"], ["replaced: 0x1f"], 2)
@example(["title: T", "enabled: true", "source: user"], ["replaced: 1e10"], 3)
@example(["title: T", "enabled: true", "source: user"], ["replaced: 2026-11-29"], 3)
@example(["title: T", "enabled: true", "source: user"], ["replaced: ~", "via: yes"], 3)
@example(["title: T", "enabled: true", "source: user"], ["replaced: 'it''s'", "via: ''"], 3)
@example(["title: T", "enabled: true", "source: user"], ["replaced:", "replaced: x"], 3)
def test_fast_path_equals_yaml_with_other_keys(fm_lines: list[str], extra: list[str], at: int) -> None:
    # Kept versions carry ``replaced`` (a fingerprint, or "nothing"); imports may add others.
    at = min(at, len(fm_lines))
    check_same(fm_lines[:at] + extra + fm_lines[at:])


def reference_split(content: str) -> tuple[list[str], str] | None:
    """The frontmatter split, the slow obvious way: one line at a time."""
    content = content.replace("\r\n", "\n")
    parts = content.split("\n")
    if len(parts) < 2 or parts[0].rstrip(" \t") != "---":
        return None
    for i in range(1, len(parts)):
        if parts[i].rstrip(" \t") == "---":
            if i == len(parts) - 1:
                return parts[1:i], ""
            return parts[1:i], "\n".join(parts[i + 1 :])
    return None


pieces = st.lists(
    st.sampled_from(["---", "--- ", "---\t", "----", " ---", "---x", "title: T", "", "\r", "x"])
    | st.text(max_size=10),
    max_size=8,
)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(pieces, st.sampled_from(["\n", "\r\n"]), st.booleans())
@example(["---", "---"], "\n", False)
@example(["---", "---"], "\n", True)
@example(["---", "a", "---", "body"], "\r\n", True)
def test_split_frontmatter_equals_the_reference(parts: list[str], newline: str, final: bool) -> None:
    content = newline.join(parts) + (newline if final else "")
    assert split_frontmatter(content) == reference_split(content)


def test_fast_path_answers_for_what_the_store_writes() -> None:
    """The shortcut must actually be taken for ordinary files, quoted titles included."""
    from datetime import UTC, datetime

    from store.format.parse import Fields, render_new

    moment = datetime(2026, 11, 29, 21, 52, 34, 123000, tzinfo=UTC)
    for title in ["Plain title", "Project: deadline # soon", "2024", "it's", "ünï 日本 🎉", "- dash"]:
        fields = Fields(title, True, "ai", "s-1", moment, moment)
        split = split_frontmatter(render_new(fields, "Some text."))
        assert split is not None
        parsed = parse_fast(split[0])
        assert parsed is not None and not isinstance(parsed, FileProblem), title
        assert parsed[0] == fields


def project(result: object) -> object:
    """What loading keeps of ``parse_bytes``: the fields and text, or the problem."""
    from store.format.parse import Document

    return (result.fields, result.text) if isinstance(result, Document) else result


def check_content(raw: bytes) -> None:
    from store.format.parse import parse_bytes, parse_content
    from store.limits import Limits

    for limits in (Limits(), Limits(title_max_chars=10, text_max_chars=100, file_max_bytes=1024)):
        assert parse_content(raw, limits) == project(parse_bytes(raw, limits)), raw


def store_file(fm_lines: list[str], body: str) -> bytes:
    return ("---\n" + "".join(line + "\n" for line in fm_lines) + "---\n" + body).encode(
        "utf-8", "surrogatepass"
    )


bodies = st.sampled_from(
    ["", "\n", "\nText\n", "\n  Text with\r\nCRLF \n\n", "Body", "\n" + "x" * 120]
) | st.text(max_size=50)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(well_formed, bodies)
@example(["title: ' '", "enabled: true", "source: user"], "\nT\n")
@example(["title: 'a''b'", "enabled: false", "source: ai", "sessionId: 'x: #y'"], "\nT\n")
@example(["title: null", "enabled: true", "source: user"], "\nT\n")
@example(["title: T", "enabled: true", "source: user", "created: 2026-02-30T10:00:00.000Z"], "\nT\n")
@example(["title: " + "t" * 11, "enabled: true", "source: user"], "\n" + "x" * 101 + "\n")
def test_loading_shortcut_equals_parse_bytes(fm_lines: list[str], body: str) -> None:
    check_content(store_file(fm_lines, body))


@settings(max_examples=500, deadline=None)
@given(
    st.binary(max_size=300)
    | st.text(max_size=300).map(lambda t: ("---\n" + t).encode("utf-8", "surrogatepass"))
)
def test_loading_shortcut_equals_parse_bytes_on_any_bytes(raw: bytes) -> None:
    check_content(raw)


def test_loading_shortcut_equals_parse_bytes_on_what_the_store_writes() -> None:
    from datetime import UTC, datetime

    from store.format.parse import Fields, render_new

    moment = datetime(2026, 11, 29, 21, 52, 34, 123000, tzinfo=UTC)
    for title in [
        "Plain title",
        "Project: deadline # soon",
        "2024",
        "it's",
        "ünï 日本 🎉",
        "- dash",
        "a\u2028b",
    ]:
        for session in [None, "s-1", "12345", "null", "x: y"]:
            fields = Fields(title, True, "ai", session, moment, moment)
            check_content(render_new(fields, "Some text.").encode("utf-8"))


def test_the_fast_paths_character_classes_are_the_printable_sets_they_stand_for() -> None:
    # Written as what they leave out (quick to compile): each must take exactly the
    # characters of the positive set it replaces, over every code point.
    from store.format import fast_parser

    printable = "\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff"
    every = "".join(map(chr, range(0x110000)))

    def taken(pattern: str) -> str:
        return "".join(re.findall(pattern, every))

    assert taken(fast_parser._SAFE) == taken(f"[{printable}]")
    assert taken(fast_parser._SAFE_UNQUOTED) == taken(f"[{printable}]").replace("'", "")
    assert taken(f"[^ :{fast_parser._UNSAFE}]") == taken(f"[{printable.replace(' -~', '!-9;-~', 1)}]")


def test_the_first_characters_taken_as_written_are_those_no_yaml_resolver_claims() -> None:
    # A value is read as written, without YAML, when it starts with none of these.
    assert set(_risky()) == RISKY_FIRST
