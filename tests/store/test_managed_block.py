"""The managed block: every byte outside it kept, idempotent, hand edits told apart."""

from __future__ import annotations

from typing import Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from store.exchange.managed_block import (
    BEGIN,
    END,
    BlockProblem,
    digest,
    find_block,
    plan_block,
    plan_owned,
    render_block,
    render_owned,
    without_block,
)

CHAT = "# Memory\n\n## Use uv\n\nAlways use uv.\n"
LATER = "# Memory\n\n## Use uv\n\nAlways use uv, never pip.\n"

# Surrounding text: any characters, with LF, CRLF and lone CR line ends, but no marker line.
_NO_SURROGATES: tuple[Literal["Cs"]] = ("Cs",)
_LINE = st.text(
    st.characters(exclude_categories=_NO_SURROGATES, exclude_characters="\r\n"), max_size=30
).filter(lambda line: "<!-- oda-memory:" not in line)
_SURROUNDING = st.lists(st.tuples(_LINE, st.sampled_from(["\n", "\r\n", "\r", ""])), max_size=8).map(
    lambda parts: "".join(line + end for line, end in parts)
)


@settings(max_examples=150, deadline=None)
@given(before=_SURROUNDING, after=_SURROUNDING, eol=st.sampled_from(["\n", "\r\n"]))
def test_every_byte_outside_the_block_is_kept(before: str, after: str, eol: str) -> None:
    # The markers are lines of their own: what comes before ends its line, the block its own.
    if before and not before.endswith("\n"):
        before += eol
    after = eol + after
    text = before + render_block(CHAT, eol) + after
    plan = plan_block(text, LATER)
    assert plan.status == "updated"
    assert plan.text.startswith(before)
    assert plan.text.endswith(after)
    # the block keeps its own line ends
    assert plan.text == before + render_block(LATER, eol) + after
    # a second sync writes nothing
    assert plan_block(plan.text, LATER).status == "in step"
    assert plan_block(plan.text, LATER).text == plan.text


@settings(max_examples=150, deadline=None)
@given(original=_SURROUNDING)
def test_a_new_block_is_added_at_the_end_and_the_file_kept_before_it(original: str) -> None:
    plan = plan_block(original, CHAT)
    assert plan.status == "added"
    assert plan.text.startswith(original)
    block = find_block(plan.text)
    assert block is not None
    assert block.content(plan.text).replace("\r\n", "\n") == CHAT
    again = plan_block(plan.text, CHAT)
    assert (again.status, again.text) == ("in step", plan.text)
    assert without_block(plan.text).startswith(original)


def test_a_crlf_file_gets_a_crlf_block_and_a_blank_line_before_it() -> None:
    plan = plan_block("# Notes\r\nkeep me\r\n", CHAT)
    assert plan.text.startswith("# Notes\r\nkeep me\r\n\r\n" + BEGIN)
    assert "\n" not in plan.text.replace("\r\n", "")
    assert plan.text.endswith(END + "\r\n")


def test_the_begin_marker_records_the_blocks_digest() -> None:
    block = find_block(render_block(CHAT, "\n"))
    assert block is not None
    assert block.recorded == digest(CHAT)


def test_a_block_edited_by_hand_is_left_until_forced() -> None:
    text = "intro\n\n" + render_block(CHAT, "\n") + "\noutro\n"
    edited = text.replace("Always use uv.", "Always use uv (and ruff).")
    plan = plan_block(edited, LATER)
    assert (plan.status, plan.text) == ("edited", edited)
    assert "(and ruff)" in plan.before
    assert plan.after == LATER
    forced = plan_block(edited, LATER, force=True)
    assert forced.status == "updated"
    assert forced.text == "intro\n\n" + render_block(LATER, "\n") + "\noutro\n"


def test_an_edit_that_already_matches_the_memories_is_no_conflict() -> None:
    edited = render_block(CHAT, "\n").replace("Always use uv.", "Always use uv, never pip.")
    assert plan_block(edited, LATER).status == "updated"


def test_line_ends_turned_into_crlf_by_a_checkout_are_no_edit() -> None:
    crlf = render_block(CHAT, "\n").replace("\n", "\r\n") + "\r\n"
    assert plan_block(crlf, CHAT).status == "in step"
    assert plan_block(crlf, LATER).status == "updated"


def test_markers_written_by_hand_without_a_digest_count_as_an_edit() -> None:
    text = f"{BEGIN} -->\nsomething else\n{END}\n"
    assert plan_block(text, CHAT).status == "edited"
    assert (
        plan_block(f"{BEGIN} -->\n{CHAT}{END}\n", CHAT).status == "updated"
    )  # same content: the digest added


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (f"{BEGIN} -->\n{END}\n{BEGIN} -->\n{END}\n", "2 begin markers"),
        (f"{BEGIN} -->\nno end\n", "no end marker"),
        (f"{END}\n{BEGIN} -->\n", "without a begin marker"),
        (f"{BEGIN} -->\n{END}\n{END}\n", "2 end markers"),
    ],
)
def test_markers_that_are_not_one_block_are_refused(text: str, words: str) -> None:
    with pytest.raises(BlockProblem, match=words):
        plan_block(text, CHAT)


def test_a_memory_holding_a_marker_line_is_refused() -> None:
    with pytest.raises(BlockProblem, match="would read as a marker"):
        plan_block("", CHAT + END + "\n")


def test_an_empty_chat_keeps_an_empty_block() -> None:
    plan = plan_block("", "")
    assert plan.text == render_block("", "\n") + "\n"
    assert plan_block(plan.text, "").status == "in step"


def test_an_owned_file_has_cursors_frontmatter_and_counts_any_change_as_an_edit() -> None:
    new = plan_owned(None, CHAT)
    assert new.status == "added"
    assert new.text.startswith("---\ndescription: ")
    assert "\nalwaysApply: true\n---\n" + BEGIN in new.text
    assert "globs" not in new.text
    assert plan_owned(new.text, CHAT).status == "in step"
    assert plan_owned(new.text, LATER).text == render_owned(LATER)
    changed = new.text.replace("alwaysApply: true", "alwaysApply: false")
    assert plan_owned(changed, LATER).status == "edited"
    assert plan_owned("my own rules\n", CHAT).status == "edited"
    assert plan_owned("my own rules\n", CHAT, force=True).text == render_owned(CHAT)
