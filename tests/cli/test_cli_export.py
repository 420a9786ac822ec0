"""``oda-tui export``: one Markdown document grouped by scope, to stdout or a file."""

from __future__ import annotations

import errno
import os
import socket
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt

from oda_tui.cli import output_file
from oda_tui.cli.errors import CommandError
from store import GLOBAL, Memory, MemoryStore
from store.exchange.export import export_markdown, export_store, fenced
from tests.support.cli import Sample, run_cli
from tests.support.files import write_raw


def test_export_groups_by_scope_and_is_exactly_the_library_output(sample: Sample) -> None:
    r = run_cli("export", "--root", sample.root)
    assert r.code == 0 and r.err == ""
    assert r.out_bytes == export_store(MemoryStore(sample.root)).encode("utf-8")
    out = r.out
    assert out.index("## Global") < out.index("### Reply language") < out.index("## Workspace `proj`")
    assert f"`{sample.reply}` · on · saved by you" in out
    assert f"`{sample.agent}` · off · saved by the agent" in out
    # The agent memory's own heading and fence stay inside a longer fence.
    assert "````\n# Heading\n\n```sh\nuv add\n```\n````\n" in out
    assert headings(out) == [
        ("h1", "Oda memories"),
        ("h2", "Global"),
        ("h3", "Reply language"),
        ("h3", "Uses \x1b[31muv"),
        ("h2", "Workspace proj"),
        ("h3", "Test runner"),
    ]


def headings(markdown: str) -> list[tuple[str, str]]:
    """The document's headings as a CommonMark parser sees them: (level, plain text)."""
    tokens = MarkdownIt("commonmark").parse(markdown)
    found = []
    for opening, inline in zip(tokens, tokens[1:], strict=False):
        if opening.type == "heading_open":
            text = "".join(child.content for child in inline.children or [])
            found.append((opening.tag, text))
    return found


def test_titles_and_texts_with_markdown_never_break_the_structure() -> None:
    root_free = [
        (GLOBAL, [memory("## Not a heading ```", "# Also not\n````\n~~~\n---\n<b>html</b>")]),
        ("w", [memory("a | b * c _d_ [x](y) &amp; #", "```\n# inside\n```")]),
    ]
    assert headings(export_markdown(root_free)) == [
        ("h1", "Oda memories"),
        ("h2", "Global"),
        ("h3", "## Not a heading ```"),
        ("h2", "Workspace w"),
        ("h3", "a | b * c _d_ [x](y) &amp; #"),
    ]


def memory(title: str, text: str) -> Memory:
    return Memory("0000000e", None, title, text, True, "user", None, None, None, "x")


def test_export_to_a_file_one_workspace_and_json(tmp_path: Path, sample: Sample) -> None:
    write_raw(sample.root / "workspaces" / "proj" / "0000000c.md", "broken")
    target = tmp_path / "out.md"
    r = run_cli("export", "--root", sample.root, "--workspace", "proj", "-o", target)
    assert (r.code, r.out) == (0, "")
    assert r.err == "Note: 1 memory file has a problem and is not exported; see oda-tui check.\n"
    text = target.read_text("utf-8")
    assert "## Global" not in text and "### Test runner" in text
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []

    doc = run_cli("export", "--root", sample.root, "--json").json()
    assert [(g["scope"], g["label"], len(g["memories"])) for g in doc["scopes"]] == [
        (None, "Global", 2),
        ("proj", "proj", 1),
    ]

    r = run_cli("export", "--root", sample.root, "-o", tmp_path / "no" / "such" / "x.md")
    assert r.code == 2 and r.err.startswith("Could not write ") and r.err.count("\n") == 1


def test_markdown_fence_is_longer_than_any_backtick_run() -> None:
    assert fenced("a ``````` b") == "````````\na ``````` b\n````````\n"
    assert fenced("") == "```\n```\n"
    store_free = export_markdown([(GLOBAL, []), ("w", [])])
    assert store_free == "# Oda memories\n\n## Global\n\nNo memories.\n\n## Workspace `w`\n\nNo memories.\n"


def test_export_o_refuses_what_is_not_a_regular_file_and_leaves_it_as_it_is(
    tmp_path: Path, sample: Sample
) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    folder = tmp_path / "folder"
    folder.mkdir()
    sock_path = tmp_path / "sock"
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(sock_path))
    to_fifo = tmp_path / "to-fifo"
    to_fifo.symlink_to(fifo)
    to_stdout = tmp_path / "to-stdout"  # the command's own stdout (a pipe here)
    to_stdout.symlink_to("/proc/self/fd/1")
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "nowhere")
    refused = {
        fifo: f"Could not write {fifo}: it is a FIFO (named pipe), not a regular file.\n",
        folder: f"Could not write {folder}: it is a folder, not a regular file.\n",
        sock_path: f"Could not write {sock_path}: it is a socket, not a regular file.\n",
        to_fifo: f"Could not write {to_fifo}: it leads to a FIFO (named pipe), not a regular file.\n",
        to_stdout: f"Could not write {to_stdout}: it leads to a FIFO (named pipe), not a regular file.\n",
        dangling: f"Could not write {dangling}: it is a link to {tmp_path / 'nowhere'}, which does not exist.\n",
    }
    try:
        for target, message in refused.items():
            r = run_cli("export", "--root", sample.root, "-o", target)
            assert (r.code, r.out, r.err) == (2, "", message), target
        assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and stat.S_ISDIR(os.lstat(folder).st_mode)
        assert stat.S_ISSOCK(os.lstat(sock_path).st_mode)
        for link in (to_fifo, to_stdout, dangling):
            assert link.is_symlink()
        assert list(folder.iterdir()) == [] and not (tmp_path / "nowhere").exists()
    finally:
        sock.close()


def test_export_o_writes_through_a_link_to_its_regular_file(tmp_path: Path, sample: Sample) -> None:
    real = tmp_path / "notes" / "memories.md"
    real.parent.mkdir()
    real.write_text("old\n")
    link = tmp_path / "memories.md"
    link.symlink_to(Path("notes") / "memories.md")
    r = run_cli("export", "--root", sample.root, "-o", link)
    assert (r.code, r.out, r.err) == (0, "", "")
    assert link.is_symlink() and os.readlink(link) == str(Path("notes") / "memories.md")
    assert real.read_bytes() == export_store(MemoryStore(sample.root)).encode("utf-8")


@contextmanager
def umask(mask: int) -> Iterator[None]:
    """The process's umask (which ``run_cli``'s child inherits) set for the block."""
    before = os.umask(mask)
    try:
        yield
    finally:
        os.umask(before)


def test_export_o_writes_an_existing_file_in_place_keeping_its_inode_and_mode(
    tmp_path: Path, sample: Sample
) -> None:
    target, other_name = tmp_path / "memories.md", tmp_path / "hard-link.md"
    target.write_text("old text\n")
    os.link(target, other_name)
    target.chmod(0o640)
    inode = target.stat().st_ino
    r = run_cli("export", "--root", sample.root, "-o", target)
    assert (r.code, r.out, r.err) == (0, "", "")
    expected = export_store(MemoryStore(sample.root)).encode("utf-8")
    assert target.read_bytes() == expected and other_name.read_bytes() == expected  # the hard link too
    st = target.stat()
    assert (st.st_ino, stat.S_IMODE(st.st_mode), st.st_nlink) == (inode, 0o640, 2)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_export_o_refuses_a_read_only_file_and_leaves_it_as_it_is(tmp_path: Path, sample: Sample) -> None:
    target = tmp_path / "frozen.md"
    target.write_text("keep me\n")
    target.chmod(0o444)
    r = run_cli("export", "--root", sample.root, "-o", target)
    assert (r.code, r.out) == (2, "")
    assert r.err == (
        f"Could not write {target}: it is read-only (mode 0444); nothing was written. Make it writable "
        "(chmod u+w) to replace it, or choose another file.\n"
    )
    assert target.read_text() == "keep me\n" and stat.S_IMODE(target.stat().st_mode) == 0o444


def test_export_o_makes_a_new_file_with_the_umask(tmp_path: Path, sample: Sample) -> None:
    for mask, mode in ((0o022, 0o644), (0o077, 0o600), (0o002, 0o664)):
        target = tmp_path / f"new-{mask:03o}.md"
        with umask(mask):
            r = run_cli("export", "--root", sample.root, "-o", target)
        assert r.code == 0
        assert stat.S_IMODE(target.stat().st_mode) == mode
        assert target.read_bytes() == export_store(MemoryStore(sample.root)).encode("utf-8")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_an_outside_change_between_the_read_and_the_write_is_never_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "memories.md"

    def edited_in_place() -> None:
        with open(target, "r+b") as f:  # another program writes the same file
            f.write(b"THEIR TEXT, written meanwhile\n")

    def saved_by_rename() -> None:  # an editor's save: a new file renamed over it
        (tmp_path / "editor.tmp").write_text("EDITOR SAVE\n")
        os.rename(tmp_path / "editor.tmp", target)

    for change, left in (
        (edited_in_place, b"THEIR TEXT, written meanwhile\n"),
        (saved_by_rename, b"EDITOR SAVE\n"),
    ):
        target.write_bytes(b"the old export\n")
        monkeypatch.setattr(output_file, "before_replacing", change)
        with pytest.raises(
            CommandError, match="another program changed or replaced it .* nothing was written"
        ):
            output_file.write_file(target, "the new export\n")
        assert target.read_bytes() == left
    monkeypatch.setattr(output_file, "before_replacing", lambda: None)
    output_file.write_file(target, "the new export\n")
    assert target.read_text() == "the new export\n"


def test_a_new_file_made_by_another_program_meanwhile_is_never_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "memories.md"
    link = os.link

    def made_meanwhile(*args: Any, **kwargs: Any) -> None:
        target.write_text("MADE MEANWHILE\n")
        link(*args, **kwargs)

    monkeypatch.setattr(os, "link", made_meanwhile)
    with pytest.raises(CommandError, match="another program changed or replaced it"):
        output_file.write_file(target, "the export\n")
    assert target.read_text() == "MADE MEANWHILE\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memories.md"]  # no temporary file left


def test_a_failed_write_puts_the_earlier_text_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "memories.md"
    target.write_bytes(b"the earlier export, which must survive\n")
    pwrite = os.pwrite
    calls: list[int] = []

    def failing(fd: int, data: Any, offset: int) -> int:
        calls.append(offset)
        if len(calls) == 1:
            return pwrite(fd, bytes(data)[:10], offset)  # a short write, then the disk fails
        if len(calls) == 2:
            raise OSError(errno.EIO, "Input/output error")
        return pwrite(fd, data, offset)

    monkeypatch.setattr(os, "pwrite", failing)
    with pytest.raises(CommandError, match="Input/output error; its earlier text was put back"):
        output_file.write_file(target, "a much longer new export " * 10)
    assert target.read_bytes() == b"the earlier export, which must survive\n"

    def full(fd: int, offset: int, length: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "pwrite", pwrite)
    monkeypatch.setattr(os, "posix_fallocate", full)
    with pytest.raises(CommandError, match="No space left on device; nothing was written"):
        output_file.write_file(target, "a much longer new export " * 10)
    assert target.read_bytes() == b"the earlier export, which must survive\n"


def test_a_link_put_in_place_of_the_file_after_the_check_is_not_written_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("outside\n")
    target = tmp_path / "memories.md"
    target.write_text("old\n")
    resolved = output_file.regular_target

    def swapped(path: Path) -> Path:
        found = resolved(path)
        target.unlink()
        target.symlink_to(outside)  # swapped for a link once it was checked
        return found

    monkeypatch.setattr(output_file, "regular_target", swapped)
    with pytest.raises(CommandError, match="another program changed or replaced it"):
        output_file.write_file(target, "new\n")
    assert outside.read_text() == "outside\n" and target.is_symlink()
