"""The file format: what parses as a memory, what is a problem, and with which exact message."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from store import GLOBAL, Memory, MemoryStore
from store.format.parse import Document, Fields, FileProblem, parse_bytes, render_new
from store.limits import Limits
from tests.support.files import memory_file, write_raw

LIMITS = Limits()


def parse(content: str | bytes) -> Document | FileProblem:
    return parse_bytes(content.encode("utf-8") if isinstance(content, str) else content, LIMITS)


def problem_of(content: str | bytes) -> str:
    result = parse(content)
    assert isinstance(result, FileProblem), result
    return result.message


def test_the_spec_example_is_a_memory() -> None:
    doc = parse(
        "---\ntitle: Reply language\nenabled: true\nsource: user\n---\n\nReply in short bullet points.\n"
    )
    assert isinstance(doc, Document)
    assert (doc.fields.title, doc.fields.enabled, doc.fields.source) == ("Reply language", True, "user")
    assert doc.text == "Reply in short bullet points."


def test_optional_fields_are_read() -> None:
    doc = parse(
        "---\ntitle: T\nenabled: false\nsource: ai\nsessionId: abc-1\n"
        "created: 2026-11-29T21:52:34.123Z\nupdated: 2026-11-30T08:00:00Z\n---\nText"
    )
    assert isinstance(doc, Document)
    assert doc.fields.session_id == "abc-1"
    assert doc.fields.created == datetime(2026, 11, 29, 21, 52, 34, 123000, tzinfo=UTC)
    assert doc.fields.updated == datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
    assert doc.fields.enabled is False


@pytest.mark.parametrize(
    ("written", "expected"),
    [("2024", "2024"), ("Off", "Off"), ("1.50", "1.50"), ("2024-01-02", "2024-01-02"), ("'yes'", "yes")],
)
def test_title_is_the_written_text_even_when_yaml_reads_another_type(written: str, expected: str) -> None:
    doc = parse(memory_file(title=written))
    assert isinstance(doc, Document)
    assert doc.fields.title == expected


def test_session_id_is_the_written_text() -> None:
    doc = parse(memory_file(extra="sessionId: 12345\n"))
    assert isinstance(doc, Document)
    assert doc.fields.session_id == "12345"


def test_title_is_normalised_to_one_line_with_single_spaces() -> None:
    doc = parse('---\ntitle: "  a\\tb\\u2028c\\x85d\\n\\ne   "\nenabled: true\nsource: user\n---\nx')
    assert isinstance(doc, Document)
    assert doc.fields.title == "a b c d e"


def test_text_is_trimmed_and_may_be_empty() -> None:
    doc = parse("---\ntitle: T\nenabled: true\nsource: user\n---\n\n\n  hello\n  world  \n\n")
    assert isinstance(doc, Document) and doc.text == "hello\n  world"
    empty = parse("---\ntitle: T\nenabled: true\nsource: user\n---\n")
    assert isinstance(empty, Document) and empty.text == ""


def test_bom_and_crlf_are_accepted() -> None:
    doc = parse(
        b"\xef\xbb\xbf---\r\ntitle: T\r\nenabled: true\r\nsource: user\r\n---\r\n\r\nline 1\r\nline 2\r\n"
    )
    assert isinstance(doc, Document)
    assert doc.text == "line 1\nline 2"


def test_unknown_keys_are_kept_as_extra() -> None:
    doc = parse(memory_file(extra="tags: [a, b]\npriority: 3\n"))
    assert isinstance(doc, Document)
    assert doc.fields.extra == {"tags": ["a", "b"], "priority": 3}


# --- problems, each with its exact message, in the spec's order ---------------------------


def test_too_large_is_decided_first() -> None:
    big = memory_file(text="x" * 70000) + "\xff"
    assert problem_of(big) == "The file is larger than 65536 bytes."


def test_not_utf8() -> None:
    assert problem_of(b"---\ntitle: \xff\xfe\n---\n") == "The file is not UTF-8 text."


@pytest.mark.parametrize(
    "content", ["", "---", "---\n", "title: T\n---\n", "---\ntitle: T\n", " ---\n---\n", "--- x\n---\n"]
)
def test_no_frontmatter_block(content: str) -> None:
    assert problem_of(content) == "The file does not start with a --- frontmatter block."


def test_bad_yaml_names_the_file_line() -> None:
    result = parse("---\ntitle: T\nenabled: true\nsource: [user\n---\ntext")
    assert isinstance(result, FileProblem)
    assert result.message.startswith("The frontmatter is not valid YAML: ")
    assert result.line is not None and result.line >= 4
    assert "line" in result.message


def test_yaml_error_line_counts_from_the_top_of_the_file() -> None:
    result = parse("---\ntitle: T\nenabled: true\nsource: user\nbad: : x\n---\n")
    assert isinstance(result, FileProblem)
    assert result.line == 5
    assert "(line 5, column" in result.message


def test_python_tags_are_not_built() -> None:
    message = problem_of(
        "---\ntitle: !!python/object/apply:os.system ['echo hi']\nenabled: true\nsource: user\n---\n"
    )
    assert message.startswith("The frontmatter is not valid YAML: ")


@pytest.mark.parametrize(
    ("frontmatter", "names"),
    [
        ("title: T\nenabled: true\n", "source"),
        ("enabled: true\nsource: user\n", "title"),
        ("title: T\nenabled: yes please\nsource: user\n", "enabled"),
        ("title: T\nenabled: 'true'\nsource: user\n", "enabled"),
        ("title: T\nenabled: true\nsource: bot\n", "source"),
        ("title: [a]\nenabled: 1\nsource: user\nsessionId: {a: 1}\n", "title, enabled, sessionId"),
        ("title: T\nenabled: true\nsource: user\ncreated: yesterday\nupdated: [1]\n", "created, updated"),
        ("title: ''\nenabled: true\nsource: user\n", "title"),
        ("title: ~\nenabled: true\nsource: user\n", "title"),
        ("- a\n- b\n", "title, enabled, source"),
        ("just text\n", "title, enabled, source"),
        ("", "title, enabled, source"),
    ],
)
def test_missing_or_invalid_fields(frontmatter: str, names: str) -> None:
    assert (
        problem_of(f"---\n{frontmatter}---\ntext")
        == f"The frontmatter fields {names} are missing or invalid."
    )


def test_over_the_title_or_text_limit() -> None:
    expected = (
        "The memory is longer than 2000 characters or its title longer than 120; shorten it in the file."
    )
    assert problem_of(memory_file(title="t" * 121)) == expected
    assert problem_of(memory_file(text="x" * 2001)) == expected
    assert isinstance(parse(memory_file(title="t" * 120, text="x" * 2000)), Document)


def test_enabled_is_true_or_false_and_nothing_else() -> None:
    for word, value in [("true", True), ("True", True), ("TRUE", True)] + [
        ("false", False),
        ("False", False),
        ("FALSE", False),
    ]:
        doc = parse(memory_file(enabled=word))
        assert isinstance(doc, Document) and doc.fields.enabled is value
    # YAML 1.1's other booleans are text to YAML 1.2 parsers: the spec says true or false.
    for word in ("yes", "Yes", "no", "NO", "on", "On", "off", "OFF", "y", "n", "'true'", "!!bool yes"):
        assert problem_of(memory_file(enabled=word)) == (
            "The frontmatter fields enabled are missing or invalid."
        ), word


def test_a_key_written_twice_makes_the_file_a_problem() -> None:
    for extra, line in [("title: Again\n", 5), ("x: 1\nx: 2\n", 6), ("m: {a: 1, a: 2}\n", 5)]:
        problem = parse(memory_file(extra=extra))
        assert isinstance(problem, FileProblem), extra
        assert problem.message.startswith("The frontmatter is not valid YAML: ")
        assert "found duplicate key" in problem.message and problem.line == line, problem
    # A merge key brings keys in on purpose: the mapping's own key wins, as YAML says.
    doc = parse(memory_file(extra="base: &b {k: 1}\nmine:\n  <<: *b\n  k: 2\n"))
    assert isinstance(doc, Document) and doc.fields.extra["mine"] == {"k": 2}


# --- writing ---------------------------------------------------------------------------------


def test_files_are_written_lf_without_bom(store: MemoryStore) -> None:
    memory = store.create(GLOBAL, "Reply language", "Reply in short bullet points.\r\nAlways.")
    raw = memory.path.read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf") and b"\r" not in raw
    text = raw.decode()
    assert text.startswith("---\ntitle: Reply language\nenabled: true\nsource: user\ncreated: ")
    assert text.endswith("---\n\nReply in short bullet points.\nAlways.\n")


def test_timestamps_are_written_utc_with_milliseconds(store: MemoryStore) -> None:
    memory = store.create(GLOBAL, "T", "x")
    import re

    assert re.search(r"^created: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$", memory.path.read_text(), re.M)


def test_unknown_keys_survive_a_rewrite_in_order(store: MemoryStore, root: Path) -> None:
    path = write_raw(root / "global" / "0123abcd.md", memory_file(extra="zeta: 1\nalpha: [x, y]\n"))
    store.change(GLOBAL, "0123abcd", text="New")
    text = path.read_text()
    assert text.index("zeta: 1") < text.index("alpha: [x, y]")


# Fuzzing (any bytes, any valid memory round-trips) lives in test_harness_fuzz.py.


def test_store_reads_what_it_wrote(store: MemoryStore, root: Path) -> None:
    made = store.create("proj", "  Spaced   title ", "  body  ", source="ai", session_id="s1", via="chat")
    again = MemoryStore(root).get("proj", made.id)
    assert isinstance(again, Memory)
    assert again == made
    assert again.title == "Spaced title" and again.text == "body"


@pytest.mark.parametrize("value", ["\x85", "a\u2028b", "\u2029", "x\ny", "\x1b[31m", "tab\there"])
def test_line_breaks_and_controls_in_session_ids_survive_a_rewrite(value: str) -> None:
    raw = render_new(Fields(title="T", enabled=True, source="ai", session_id=value), "x").encode()
    doc = parse_bytes(raw, LIMITS)
    assert isinstance(doc, Document) and doc.fields.session_id == value
