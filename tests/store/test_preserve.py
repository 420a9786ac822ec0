"""Preserve what a person wrote: a toggle or a title change rewrites only its own lines.

Every other line of a hand-edited file (comments, quoting, key order, unknown keys, the body
and how it is separated) stays as it was; the only other line that may change is ``updated``
(replaced where it is, or added at the end of the frontmatter when the file had none). A file
whose content would not change is never written. Line ends: the store writes LF (the spec), so
a CRLF file keeps every line's content but gets LF line ends when it is rewritten.
"""

from __future__ import annotations

import os
import re
from datetime import datetime
from pathlib import Path

import pytest

from store import GLOBAL, MemoryStore
from tests.support.files import write_raw

MID = "0123abcd"
UPDATED = re.compile(r"updated: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\Z")

HAND_EDITED = {
    "comments": (
        "---\n"
        "# written by hand\n"
        "title: Tea\n"
        "# on for now\n"
        "enabled: true\n"
        "source: user\n"
        "updated: 2026-01-02T03:04:05.678Z\n"
        "---\n"
        "\n"
        "Likes green tea.\n"
    ),
    "single_quoted": ("---\ntitle: 'Tea: green'\nenabled: TRUE\nsource: 'user'\n---\n\nLikes green tea.\n"),
    "double_quoted": (
        '---\ntitle: "Tea \\u2014 green"\nenabled: True\nsource: "user"\n---\nLikes green tea.\n'
    ),
    "odd_order_unknown_keys": (
        "---\n"
        "source: user\n"
        "zeta: [1, 2, 3]\n"
        "enabled: true\n"
        "owner:\n"
        "  name: Alice   # the person\n"
        "  team: core\n"
        "title: Tea\n"
        "created: 2025-12-31T23:59:59Z\n"
        "updated: 2026-01-01T00:00:00.000Z\n"
        "custom: keep me\n"
        "---\n"
        "\n\n"
        "Likes green tea.\n\n"
    ),
    "folded_title": (
        "---\n"
        "title: >-\n"
        "  A folded\n"
        "  long title\n"
        "\n"
        "# between\n"
        "enabled: true\n"
        "source: user\n"
        "---\n"
        "\n"
        "Likes green tea.\n"
    ),
    "literal_title_last": ("---\nenabled: true\nsource: user\ntitle: |-\n  Tea\n---\nLikes green tea.\n"),
    "no_blank_line_after_frontmatter": (
        "---\ntitle: Tea\nenabled: true\nsource: user\n---\nLikes green tea.\nSecond line.\n"
    ),
    "trailing_spaces_and_flow_extra": (
        "---\ntitle:    Tea   \nenabled:  true\nsource: user\nextra: {a: 1, b: [x, y]}\n---\n\nBody  \n"
    ),
}


@pytest.fixture(autouse=True)
def ticking_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each save a millisecond later than the one before: two saves in the same millisecond
    would write the same `updated` line, and the tests count which lines changed."""
    from datetime import timedelta

    import store.memory_store as memory_store
    from store.format.timestamps import now_utc as real  # the clock memory_store reads

    last = [real()]

    def now() -> datetime:
        last[0] = max(real(), last[0] + timedelta(milliseconds=1))
        return last[0]

    monkeypatch.setattr(memory_store, "now_utc", now)


def load(store: MemoryStore, content: str | bytes) -> Path:
    path = write_raw(store.root / "global" / f"{MID}.md", content)
    store.refresh()
    assert store.get(GLOBAL, MID)
    return path


def changed_lines(before: str, after: str) -> tuple[list[int], list[str]]:
    """The indexes of lines that differ (same line count asserted), and the new added lines."""
    old, new = before.splitlines(), after.splitlines()
    added = new[len(old) :]
    common = min(len(old), len(new))
    return [i for i in range(common) if old[i] != new[i]], added


def line_of(content: str, prefix: str) -> int:
    return next(i for i, line in enumerate(content.splitlines()) if line.startswith(prefix))


@pytest.mark.parametrize("name", sorted(HAND_EDITED))
@pytest.mark.parametrize("crlf", [False, True])
def test_toggle_changes_only_enabled_and_updated(store: MemoryStore, name: str, crlf: bool) -> None:
    before = HAND_EDITED[name]
    raw = before.replace("\n", "\r\n") if crlf else before
    path = load(store, raw)
    store.set_enabled(GLOBAL, MID, False)
    after = path.read_text("utf-8")
    assert "\r" not in after
    diff, added = changed_lines(before, after)
    new_lines = after.splitlines()
    enabled_at = line_of(before, "enabled:")
    assert new_lines[enabled_at] == "enabled: false"
    if "updated:" in before:
        updated_at = line_of(before, "updated:")
        assert sorted(diff) == sorted([enabled_at, updated_at])
        assert UPDATED.match(new_lines[updated_at])
        assert added == []
    else:
        # updated is added as the last frontmatter line: the lines after it shift by one
        fm_end = before.splitlines().index("---", 1)
        assert new_lines[:fm_end] == [
            "enabled: false" if i == enabled_at else line
            for i, line in enumerate(before.splitlines()[:fm_end])
        ]
        assert UPDATED.match(new_lines[fm_end])
        assert new_lines[fm_end + 1 :] == before.splitlines()[fm_end:]
    assert store.get(GLOBAL, MID).enabled is False
    # and back on: the same line again
    store.set_enabled(GLOBAL, MID, True)
    again = path.read_text("utf-8").splitlines()
    assert again[enabled_at] == "enabled: true"
    assert [i for i, (a, b) in enumerate(zip(again, new_lines, strict=True)) if a != b] == sorted(
        {enabled_at, line_of(after, "updated:")}
    )


@pytest.mark.parametrize("name", sorted(HAND_EDITED))
def test_title_change_changes_only_title_and_updated(store: MemoryStore, name: str) -> None:
    before = HAND_EDITED[name]
    path = load(store, before)
    old_title = store.get(GLOBAL, MID).title
    store.change(GLOBAL, MID, title="Green tea: always")
    after = path.read_text("utf-8")
    assert store.get(GLOBAL, MID).title == "Green tea: always"
    assert store.get(GLOBAL, MID).text == store.get(GLOBAL, MID).text  # unchanged below
    old, new = before.splitlines(), after.splitlines()
    title_at = line_of(before, "title:")
    title_span = 1
    while title_at + title_span < len(old) and old[title_at + title_span].startswith("  "):
        title_span += 1  # a block scalar's lines
    # everything before the title is the same
    assert new[:title_at] == old[:title_at]
    assert new[title_at] == "title: 'Green tea: always'"
    rest_old = old[title_at + title_span :]
    rest_new = new[title_at + 1 :]
    if "updated:" in before:
        assert len(rest_new) == len(rest_old)
        differ = [i for i, (a, b) in enumerate(zip(rest_old, rest_new, strict=True)) if a != b]
        assert [rest_old[i].split(":")[0] for i in differ] == ["updated"]
    else:
        fm_end = rest_old.index("---")
        assert rest_new[:fm_end] == rest_old[:fm_end]
        assert UPDATED.match(rest_new[fm_end])
        assert rest_new[fm_end + 1 :] == rest_old[fm_end:]
    assert old_title != "Green tea: always"


def test_text_change_keeps_the_frontmatter(store: MemoryStore) -> None:
    before = HAND_EDITED["comments"]
    path = load(store, before)
    store.change(GLOBAL, MID, text="Likes black tea.")
    after = path.read_text("utf-8").splitlines()
    old = before.splitlines()
    fm_end = old.index("---", 1)
    differ = [i for i in range(fm_end) if old[i] != after[i]]
    assert differ == [line_of(before, "updated:")]
    assert after[fm_end:] == ["---", "", "Likes black tea."]


def test_no_op_changes_never_rewrite(store: MemoryStore) -> None:
    for name, content in HAND_EDITED.items():
        path = load(store, content.replace("\n", "\r\n") if name.endswith("title") else content)
        st = os.stat(path)
        raw = path.read_bytes()
        memory = store.get(GLOBAL, MID)
        store.set_enabled(GLOBAL, MID, True)  # already on
        assert store.change(GLOBAL, MID, title=memory.title).changed is False
        assert store.change(GLOBAL, MID, text=memory.text).changed is False
        assert (
            store.change(GLOBAL, MID, title=f"  {memory.title} ", text=f"\n{memory.text}\n").changed is False
        )
        st2 = os.stat(path)
        assert (st2.st_ino, st2.st_mtime_ns, st2.st_size) == (st.st_ino, st.st_mtime_ns, st.st_size), name
        assert path.read_bytes() == raw, name
        path.unlink()
        store.refresh()


def test_turning_off_an_off_memory_does_not_rewrite(store: MemoryStore) -> None:
    path = load(store, "---\ntitle: Tea\nenabled: false   # off\nsource: user\n---\nBody\n")
    st = os.stat(path)
    store.set_enabled(GLOBAL, MID, False)
    st2 = os.stat(path)
    assert (st2.st_ino, st2.st_mtime_ns) == (st.st_ino, st.st_mtime_ns)


def test_bom_is_dropped_and_the_rest_kept(store: MemoryStore) -> None:
    before = HAND_EDITED["comments"]
    path = load(store, b"\xef\xbb\xbf" + before.encode("utf-8"))
    store.set_enabled(GLOBAL, MID, False)
    after = path.read_bytes()
    assert not after.startswith(b"\xef\xbb\xbf")
    diff, added = changed_lines(before, after.decode("utf-8"))
    assert diff == [line_of(before, "enabled:"), line_of(before, "updated:")]
    assert added == []


def test_comment_on_the_changed_line_goes_with_it(store: MemoryStore) -> None:
    # Documented: the changed field's own line is written anew, its trailing comment included.
    before = "---\ntitle: Tea   # short\nenabled: true  # on\nsource: user\n---\nBody\n"
    path = load(store, before)
    store.set_enabled(GLOBAL, MID, False)
    after = path.read_text("utf-8").splitlines()
    assert after[:4] == ["---", "title: Tea   # short", "enabled: false", "source: user"]


def test_flow_style_frontmatter_is_written_whole(store: MemoryStore) -> None:
    # Documented fallback: a frontmatter written as one flow mapping has no per-field lines,
    # so a change writes it again in block style (unknown keys kept, in order).
    path = load(store, "---\n{title: Tea, enabled: true, source: user, mood: calm}\n---\nBody\n")
    store.set_enabled(GLOBAL, MID, False)
    after = path.read_text("utf-8").splitlines()
    assert after[:4] == ["---", "title: Tea", "enabled: false", "source: user"]
    assert "mood: calm" in after
    memory = store.get(GLOBAL, MID)
    assert (memory.title, memory.enabled, memory.text, memory.extra) == (
        "Tea",
        False,
        "Body",
        {"mood": "calm"},
    )


def test_delimiter_lines_are_written_plain(store: MemoryStore) -> None:
    # Documented: the --- lines are written as exactly "---" (trailing blanks on them dropped);
    # every field line but the changed ones stays.
    path = load(store, "---  \ntitle: Tea\nenabled: true\nsource: user\n--- \nBody\n")
    store.set_enabled(GLOBAL, MID, False)
    after = path.read_text("utf-8").splitlines()
    assert after[:4] == ["---", "title: Tea", "enabled: false", "source: user"]
    assert after[5:] == ["---", "Body"]
