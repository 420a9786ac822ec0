"""The frontmatter block as written: read, checked with the store's own messages, written back."""

from __future__ import annotations

from pathlib import Path

import pytest

from store import GLOBAL, MemoryStore, StoreError
from tests.support.files import write_raw

FILE = (
    "---\n"
    "# kept comment\n"
    "title: 'Reply language'\n"
    "enabled: true\n"
    "source: ai\n"
    "sessionId: chat-42\n"
    "mood: sunny   # unknown key\n"
    "---\n"
    "\n"
    "Reply in short bullet points.\n"
    "  trailing spaces kept  \n"
)


def made(root: Path) -> tuple[MemoryStore, Path]:
    path = write_raw(root / "global" / "0123abcd.md", FILE)
    return MemoryStore(root), path


def test_the_block_is_read_as_written(root: Path) -> None:
    store, _ = made(root)
    block = store.frontmatter(GLOBAL, "0123abcd")
    assert block == FILE.split("---\n")[1].rstrip("\n")


def test_a_new_block_is_written_as_given_and_the_text_byte_for_byte(root: Path) -> None:
    store, path = made(root)
    block = store.frontmatter(GLOBAL, "0123abcd").replace("sunny", "rainy").replace("chat-42", "chat-43")
    memory = store.change_frontmatter(GLOBAL, "0123abcd", block)
    assert memory.session_id == "chat-43" and memory.extra == {"mood": "rainy"}
    assert path.read_text() == FILE.replace("sunny", "rainy").replace("chat-42", "chat-43")
    assert MemoryStore(path.parents[1]).get(GLOBAL, "0123abcd") == memory


def test_a_changed_title_is_kept_as_a_version(root: Path) -> None:
    store, _ = made(root)
    block = store.frontmatter(GLOBAL, "0123abcd").replace("'Reply language'", "Language")
    store.change_frontmatter(GLOBAL, "0123abcd", block)
    titles = [v.title for v in store.versions(GLOBAL, "0123abcd")]
    assert titles[:2] == ["Language", "Reply language"]


@pytest.mark.parametrize(
    ("block", "message"),
    [
        ("title: [unclosed\nenabled: true\nsource: user", "The frontmatter is not valid YAML: "),
        ("title: x\nenabled: maybe\nsource: user", "The frontmatter fields enabled are missing or invalid."),
        ("enabled: true\nsource: robot", "The frontmatter fields title, source are missing or invalid."),
        (f"title: {'t' * 121}\nenabled: true\nsource: user", "A memory title is limited to 120 characters"),
    ],
)
def test_a_bad_block_is_named_in_the_stores_words_and_refused(root: Path, block: str, message: str) -> None:
    store, path = made(root)
    problem = store.check_frontmatter(block, "Reply in short bullet points.")
    assert problem is not None and problem.startswith(message)
    with pytest.raises(StoreError) as refused:
        store.change_frontmatter(GLOBAL, "0123abcd", block)
    assert str(refused.value) == problem
    assert path.read_text() == FILE  # refused means not applied


def test_a_good_block_has_no_message(root: Path) -> None:
    store, _ = made(root)
    assert store.check_frontmatter(store.frontmatter(GLOBAL, "0123abcd"), "Some text.") is None


def test_a_block_past_the_file_limit_is_named_without_parsing_it(root: Path) -> None:
    store, _ = made(root)
    block = "title: x\nenabled: true\nsource: user\nnote: " + "y" * 70_000
    assert store.check_frontmatter(block, "Some text.") == "The file is larger than 65536 bytes."


@pytest.mark.parametrize("blank_lines", [0, 1, 3])
def test_a_yaml_error_names_the_line_as_the_block_was_typed(tmp_path: Path, blank_lines: int) -> None:
    # The editor numbers the block from 2 (line 1 is the opening ---), blank lines included.
    store = MemoryStore(tmp_path / "oda")
    memory = store.create(GLOBAL, "T", "x")
    block = "\n" * blank_lines + store.frontmatter(GLOBAL, memory.id) + "\nsource: ai"
    lines = block.split("\n")
    gutter = 2 + len(lines) - 1  # the duplicate key is the block's last line
    message = store.check_frontmatter(block, "x")
    assert message is not None
    assert message.endswith(f"found duplicate key 'source' (line {gutter}, column 1)")
    with pytest.raises(StoreError, match=rf"\(line {gutter}, column 1\)"):
        store.change_frontmatter(GLOBAL, memory.id, block)
