"""Parser fuzz: any bytes give a memory or a problem, never an exception (frontmatter-shaped
inputs included, where the interesting bugs live); any valid memory round-trips."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from store.format.parse import Document, Fields, FileProblem, parse_bytes, parse_content, render_new
from store.limits import Limits

#: Among the suite's longest: started first (see ``tests/conftest.py``).
pytestmark = pytest.mark.slow

LIMITS = Limits(text_max_chars=100000, title_max_chars=1000)

yamlish = st.text(
    alphabet=st.sampled_from(list("abt:- '\"#&*!|>[]{},?%@`~\n\t\r\\0123456789.")), max_size=120
)
keys = st.sampled_from(["title", "enabled", "source", "sessionId", "created", "updated", "extra"])
fm_line = st.builds(lambda k, v: f"{k}: {v}", keys, st.text(max_size=30)) | yamlish
frontmatterish = st.builds(
    lambda lines, body, crlf, bom: (
        (b"\xef\xbb\xbf" if bom else b"")
        + ("---\n" + "\n".join(lines) + "\n---\n" + body)
        .replace("\n", "\r\n" if crlf else "\n")
        .encode("utf-8", "surrogatepass")
    ),
    st.lists(fm_line, max_size=8),
    st.text(max_size=60),
    st.booleans(),
    st.booleans(),
)


@settings(max_examples=600, deadline=None)
@given(st.binary(max_size=300) | frontmatterish)
def test_any_bytes_give_a_memory_or_a_problem(raw: bytes) -> None:
    for limits in (LIMITS, Limits()):
        result = parse_bytes(raw, limits)
        assert isinstance(result, Document | FileProblem)
        content = parse_content(raw, limits)
        assert isinstance(content, tuple | FileProblem)


titles = (
    st.text(
        alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp")),
        min_size=1,
        max_size=120,
    )
    .map(lambda t: " ".join(t.split()))
    .filter(bool)
)
texts = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=300).map(
    lambda t: t.strip()
)
moments = st.datetimes(
    min_value=datetime(1971, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)
).map(lambda d: d.replace(microsecond=d.microsecond // 1000 * 1000))
sessions = st.none() | st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp")),
    min_size=1,
    max_size=40,
)


@settings(max_examples=400, deadline=None)
@given(
    titles,
    texts,
    st.booleans(),
    st.sampled_from(["user", "ai"]),
    sessions,
    st.none() | moments,
    st.none() | moments,
)
def test_any_valid_memory_round_trips(
    title: str,
    text: str,
    enabled: bool,
    source: str,
    session: str | None,
    created: datetime | None,
    updated: datetime | None,
) -> None:
    fields = Fields(title, enabled, source, session, created, updated)
    raw = render_new(fields, text).encode("utf-8")
    doc = parse_bytes(raw, LIMITS)
    assert isinstance(doc, Document), (raw, doc)
    assert doc.fields == fields
    assert doc.text == text
    assert parse_content(raw, LIMITS) == (fields, text)


# U+0085 (NEL) is a line break to YAML: the writer must not leave it in a single-quoted value.
@pytest.mark.parametrize("odd", ["\x85", "a\x85b"])
def test_line_break_characters_round_trip(odd: str) -> None:
    fields = Fields("Title", True, "user", odd)
    raw = render_new(fields, "Text").encode("utf-8")
    doc = parse_bytes(raw, LIMITS)
    assert isinstance(doc, Document) and doc.fields.session_id == odd
