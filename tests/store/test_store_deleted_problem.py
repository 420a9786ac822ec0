"""Recently deleted shows a deleted problem file's text when it is readable."""

from __future__ import annotations

from pathlib import Path

from store import GLOBAL, MemoryStore
from store.memory_store import PROBLEM_PREVIEW_BYTES
from tests.support.files import write_raw


def _deleted_problem(tmp_path: Path, content: bytes) -> str:
    store = MemoryStore(tmp_path / "oda")
    write_raw(store.memory_path(GLOBAL, "0badf11e"), content)
    store.refresh()
    store.delete(GLOBAL, "0badf11e")
    [entry] = store.deleted(GLOBAL)
    assert entry.problem
    return entry.text


def test_a_readable_problem_file_shows_its_text(tmp_path: Path) -> None:
    assert _deleted_problem(tmp_path, b"no frontmatter, caf\xc3\xa9\n") == "no frontmatter, café\n"


def test_bytes_that_are_not_text_show_nothing(tmp_path: Path) -> None:
    assert _deleted_problem(tmp_path, b"---\ntitle: \xff\xfe\n---\nx\n") == ""


def test_a_long_problem_file_shows_its_start(tmp_path: Path) -> None:
    body = "é" * PROBLEM_PREVIEW_BYTES  # two bytes each: the preview's end cuts one in half
    text = _deleted_problem(tmp_path, body.encode("utf-8"))
    assert text.endswith("\n…") and set(text[:-2]) == {"é"}
    assert len(text[:-2]) == PROBLEM_PREVIEW_BYTES // 2
