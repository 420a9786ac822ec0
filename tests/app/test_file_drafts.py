"""The Problems screen's drafts: one file per store and file, read back bounded, never another
store's, and a file that is not such a draft is never offered (nor removed)."""

from __future__ import annotations

from pathlib import Path

from oda_tui.own_files.file_drafts import (
    bytes_hash,
    file_draft,
    file_draft_path,
    forget_file_draft,
    keep_file_draft,
    kept_file_drafts,
    new_file_draft,
)


def test_a_draft_is_kept_read_back_and_forgotten(tmp_path: Path) -> None:
    root, folder = tmp_path / "oda", tmp_path / "drafts"
    path = keep_file_draft(new_file_draft(root, "global/0badf11e.md", "typed\n", b"shown\n"), folder)
    assert path == file_draft_path(root, "global/0badf11e.md", folder)
    found = file_draft(root, "global/0badf11e.md", folder)
    assert found is not None and found.text == "typed\n" and found.base == bytes_hash(b"shown\n")
    assert [d.file for d in kept_file_drafts(root, folder)] == ["global/0badf11e.md"]
    assert kept_file_drafts(tmp_path / "another", folder) == []  # another store's drafts stay apart
    forget_file_draft(root, "global/0badf11e.md", folder)
    assert file_draft(root, "global/0badf11e.md", folder) is None


def test_a_file_that_is_not_a_draft_is_never_offered_nor_removed(tmp_path: Path) -> None:
    root, folder = tmp_path / "oda", tmp_path / "drafts"
    path = file_draft_path(root, "global/0badf11e.md", folder)
    folder.mkdir()
    path.write_bytes(b'{"kind": "oda-tui-file-draft", "format": 1, "root": ')
    assert file_draft(root, "global/0badf11e.md", folder) is None
    assert kept_file_drafts(root, folder) == []
    assert path.exists()
