"""``oda-tui export``: one Markdown document grouped by scope, to stdout or a file."""

from __future__ import annotations

import os
import socket
import stat
from pathlib import Path

from markdown_it import MarkdownIt

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
    assert stat.S_IMODE(target.stat().st_mode) == 0o600  # memories are private
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
