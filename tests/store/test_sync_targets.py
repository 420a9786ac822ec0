"""Syncing target files on disk: the store's file rules, idempotence, all or nothing."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from store.exchange.managed_block import BEGIN, END, render_block
from store.exchange.sync_targets import TargetRefused, known_targets, plan, sync

CHAT = "# Memory\n\n## Use uv\n\nAlways use uv.\n"
LATER = "# Memory\n\n## Use uv\n\nAlways use uv, never pip.\n"


def test_a_second_sync_writes_nothing_same_bytes_same_mtime(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").write_bytes(b"# Mine\r\n\r\nkeep\r\n")
    names = ["AGENTS.md", "CLAUDE.md", ".github/copilot-instructions.md", ".cursor/rules/oda-memory.mdc"]
    first = sync(tmp_path, names, CHAT)
    assert first.refusals == [] and first.written == names
    before = {n: os.stat(tmp_path / n) for n in names}
    contents = {n: (tmp_path / n).read_bytes() for n in names}
    again = sync(tmp_path, names, CHAT)
    assert again.written == [] and [p.status for p in again.plans] == ["in step"] * 4
    for name in names:
        now = os.stat(tmp_path / name)
        assert (now.st_mtime_ns, now.st_ino) == (before[name].st_mtime_ns, before[name].st_ino)
        assert (tmp_path / name).read_bytes() == contents[name]
    assert contents["CLAUDE.md"].startswith(b"# Mine\r\n\r\nkeep\r\n\r\n" + BEGIN.encode())


def test_a_target_keeps_its_mode_and_a_new_one_is_readable(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").write_text("hello\n")
    os.chmod(tmp_path / "AGENTS.md", 0o640)
    sync(tmp_path, ["AGENTS.md", "CLAUDE.md"], CHAT)
    assert stat.S_IMODE(os.stat(tmp_path / "AGENTS.md").st_mode) == 0o640
    assert stat.S_IMODE(os.stat(tmp_path / "CLAUDE.md").st_mode) == 0o644


def test_an_edited_target_stops_the_whole_sync_until_forced(tmp_path: Path) -> None:
    sync(tmp_path, ["AGENTS.md", "CLAUDE.md"], CHAT)
    claude = tmp_path / "CLAUDE.md"
    claude.write_text(claude.read_text().replace("Always use uv.", "Always use uv!"))
    agents = (tmp_path / "AGENTS.md").read_bytes()
    report = sync(tmp_path, ["AGENTS.md", "CLAUDE.md"], LATER)
    assert [p.name for p in report.edited] == ["CLAUDE.md"]
    assert report.written == []
    assert (tmp_path / "AGENTS.md").read_bytes() == agents  # all or nothing
    assert "uv!" in claude.read_text()
    forced = sync(tmp_path, ["AGENTS.md", "CLAUDE.md"], LATER, force=True)
    assert forced.written == ["AGENTS.md", "CLAUDE.md"]
    assert "uv!" not in claude.read_text()


def test_check_writes_nothing_and_says_what_is_out_of_step(tmp_path: Path) -> None:
    sync(tmp_path, ["AGENTS.md"], CHAT)
    report = sync(tmp_path, ["AGENTS.md", "CLAUDE.md"], LATER, check=True)
    assert [(p.name, p.status) for p in report.out_of_step] == [
        ("AGENTS.md", "updated"),
        ("CLAUDE.md", "added"),
    ]
    assert not (tmp_path / "CLAUDE.md").exists()
    assert CHAT.encode() in (tmp_path / "AGENTS.md").read_bytes()


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"caf\xe9\n", "not UTF-8"),
        (f"{BEGIN} -->\n{END}\n{BEGIN} -->\n{END}\n".encode(), "2 begin markers"),
    ],
)
def test_a_bad_target_is_refused_and_nothing_is_written(tmp_path: Path, content: bytes, words: str) -> None:
    (tmp_path / "CLAUDE.md").write_bytes(content)
    report = sync(tmp_path, ["AGENTS.md", "CLAUDE.md"], CHAT)
    assert len(report.refusals) == 1 and words in report.refusals[0]
    assert report.refusals[0].startswith("CLAUDE.md: ")
    assert (tmp_path / "CLAUDE.md").read_bytes() == content
    assert not (tmp_path / "AGENTS.md").exists()


def test_links_are_followed_only_inside_the_project(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    outside = tmp_path / "elsewhere.md"
    outside.write_text("not yours\n")
    (project / "CLAUDE.md").symlink_to(outside)
    with pytest.raises(TargetRefused, match="outside the project folder"):
        plan(project, "CLAUDE.md", CHAT)
    with pytest.raises(TargetRefused, match="outside the project folder"):
        plan(project, "../elsewhere.md", CHAT)
    assert outside.read_text() == "not yours\n"
    (project / "CLAUDE.md").unlink()
    (project / "CLAUDE.md").symlink_to("AGENTS.md")  # the usual: one file, two names
    report = sync(project, ["AGENTS.md", "CLAUDE.md"], CHAT)
    assert report.refusals == [] and report.written == ["AGENTS.md", "CLAUDE.md"]
    assert (project / "CLAUDE.md").is_symlink()
    assert (project / "AGENTS.md").read_text() == render_block(CHAT, "\n") + "\n"
    assert [p.status for p in sync(project, ["AGENTS.md", "CLAUDE.md"], CHAT).plans] == ["in step"] * 2


def test_a_folder_a_fifo_and_a_huge_file_are_refused(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").mkdir()
    os.mkfifo(tmp_path / "CLAUDE.md")
    with open(tmp_path / "big.md", "wb") as f:
        f.truncate(1024**3)  # a sparse gigabyte: refused without reading it
    report = sync(tmp_path, ["AGENTS.md", "CLAUDE.md", "big.md"], CHAT)
    assert len(report.refusals) == 3
    assert "not a regular file" in report.refusals[0]
    assert "not a regular file" in report.refusals[1]
    assert "larger than 1024 KiB" in report.refusals[2]
    assert os.stat(tmp_path / "big.md").st_size == 1024**3


def test_known_targets_are_the_files_already_holding_a_block(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").write_text("# no block\n")
    assert known_targets(tmp_path) == []
    sync(tmp_path, ["CLAUDE.md", ".cursor/rules/oda-memory.mdc"], CHAT)
    assert known_targets(tmp_path) == ["CLAUDE.md", ".cursor/rules/oda-memory.mdc"]
