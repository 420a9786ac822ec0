"""``oda-tui sync``: the chat's text into the files other assistants read, as a managed block."""

from __future__ import annotations

import os
from pathlib import Path

from store import MemoryStore
from store.exchange.managed_block import find_block
from tests.support.cli import Sample, run_cli


def sync_proj(sample: Sample, project: Path, *targets: str) -> list[str | Path]:
    """``oda-tui sync``'s arguments for workspace proj of the sample, into ``project``."""
    return ["sync", "--root", sample.root, "--workspace", "proj", "--project", project, *targets]


def test_sync_writes_exactly_the_context_text_then_nothing(tmp_path: Path, sample: Sample) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "CLAUDE.md").write_bytes(b"# Mine\r\n\r\nkeep this\r\n")
    targets = ["AGENTS.md", "CLAUDE.md", ".cursor/rules/oda-memory.mdc"]
    r = run_cli(*sync_proj(sample, project, *targets))
    assert r.code == 0, r.err
    assert r.out.split("\n")[:3] == [
        "AGENTS.md                     created",
        "CLAUDE.md                     block added",
        ".cursor/rules/oda-memory.mdc  created",
    ]
    context = run_cli("context", "--root", sample.root, "--workspace", "proj").out
    for name in targets:
        text = (project / name).read_text()
        block = find_block(text)
        assert block is not None
        assert block.content(text) == context  # the same text, off memories left out
    assert "Uses" not in (project / "AGENTS.md").read_text()
    assert (
        (project / "CLAUDE.md")
        .read_bytes()
        .startswith(b"# Mine\r\n\r\nkeep this\r\n\r\n<!-- oda-memory: begin")
    )
    stats = {n: os.stat(project / n).st_mtime_ns for n in targets}
    again = run_cli(*sync_proj(sample, project))  # the known files
    assert again.code == 0
    assert again.out.count("in step") == 3
    assert {n: os.stat(project / n).st_mtime_ns for n in targets} == stats


def test_check_exits_1_naming_what_is_out_of_step(tmp_path: Path, sample: Sample) -> None:
    args = sync_proj(sample, tmp_path, "AGENTS.md")
    assert run_cli(*args).code == 0
    assert run_cli(*args, "--check").code == 0
    MemoryStore(sample.root).create("proj", "New rule", "Tabs, never spaces.")
    r = run_cli(*args, "--check")
    assert (r.code, r.out) == (1, "AGENTS.md  out of step\n")
    assert "Tabs" not in (tmp_path / "AGENTS.md").read_text()
    doc = run_cli(*args, "--check", "--json").json()
    assert doc["in_step"] is False and doc["check"] is True
    assert [(t["target"], t["state"], t["written"]) for t in doc["targets"]] == [
        ("AGENTS.md", "out of step", False)
    ]


def test_a_hand_edited_block_is_refused_with_its_diff_until_forced(tmp_path: Path, sample: Sample) -> None:
    args = sync_proj(sample, tmp_path, "AGENTS.md", "CLAUDE.md")
    run_cli(*args)
    agents = tmp_path / "AGENTS.md"
    agents.write_text(agents.read_text().replace("Use pytest -q.", "Use pytest -x."))
    MemoryStore(sample.root).create("proj", "New rule", "Tabs, never spaces.")
    claude = (tmp_path / "CLAUDE.md").read_bytes()
    r = run_cli(*args)
    assert r.code == 2
    assert "AGENTS.md: its managed block was edited by hand since the last sync" in r.err
    assert r.out.startswith("AGENTS.md  edited by hand since the last sync\nCLAUDE.md  out of step\n")
    assert "Use pytest [--x.\n-]{+-q.\n\n## New rule\n\nTabs, never spaces.\n+}" in r.out
    assert (tmp_path / "CLAUDE.md").read_bytes() == claude  # nothing written at all
    forced = run_cli(*args, "--force")
    assert forced.code == 0
    assert "Tabs, never spaces." in agents.read_text() and "pytest -x" not in agents.read_text()


def test_refusals_are_one_line_and_nothing_is_written(tmp_path: Path, sample: Sample) -> None:
    (tmp_path / "CLAUDE.md").write_bytes(b"caf\xe9\n")
    r = run_cli("sync", "--root", sample.root, "--project", tmp_path, "AGENTS.md", "CLAUDE.md", "../out.md")
    assert r.code == 2
    assert r.out == ""
    assert r.err.splitlines() == [
        "CLAUDE.md: it is not UTF-8 text, so it was left as it is; nothing was written.",
        f"../out.md: it is outside the project folder {tmp_path}; nothing was written.",
    ]
    assert not (tmp_path / "AGENTS.md").exists()
    none = run_cli("sync", "--root", sample.root, "--project", tmp_path)
    assert none.code == 2 and "no assistant file in" in none.err
