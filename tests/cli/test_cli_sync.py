"""``oda-tui sync``: the memories a person would share into the files other assistants read, as a
managed block: a workspace's into its project, Global's into the user-level files."""

from __future__ import annotations

import os
from pathlib import Path

from oda_tui.own_files.review_marks import mark_reviewed
from store import GLOBAL, MemoryStore
from store.exchange.managed_block import find_block
from tests.support.cli import Sample, run_cli

HELD = (
    "1 memory an agent saved or changed is waiting for your review and was left out of the files: review "
    "it in the app (r), or sync with oda-tui sync --include-unreviewed."
)


def _sync_proj(sample: Sample, project: Path, *targets: str) -> list[str | Path]:
    """``oda-tui sync`` of the sample's workspace ``proj`` into these targets of ``project``."""
    return ["sync", "--root", sample.root, "--workspace", "proj", "--project", project, *targets]


def _state(tmp_path: Path) -> dict[str, str]:
    return {"ODA_TUI_STATE": str(tmp_path / "state")}


def _review_all(s: Sample, tmp_path: Path) -> None:
    store = MemoryStore(s.root)
    mark_reviewed(store, "proj", s.proj, path=tmp_path / "state" / "review.json")


def test_sync_writes_a_workspaces_reviewed_memories_and_no_global_then_nothing(
    tmp_path: Path, sample: Sample
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "CLAUDE.md").write_bytes(b"# Mine\r\n\r\nkeep this\r\n")
    targets = ["AGENTS.md", "CLAUDE.md", ".github/copilot-instructions.md"]
    args: list[str | Path] = ["sync", "--root", sample.root, "--workspace", "proj", "--project", project]
    first = run_cli(*args, *targets, env=_state(tmp_path))
    assert first.code == 0, first.err
    assert first.err.splitlines() == [HELD]  # the agent's "Use pytest -q." waits for review
    assert "pytest" not in (project / "AGENTS.md").read_text()
    _review_all(sample, tmp_path)
    r = run_cli(*args, *targets, env=_state(tmp_path))
    assert (r.code, r.err) == (0, "")
    assert r.out.split("\n")[:3] == [
        "AGENTS.md                        updated",
        "CLAUDE.md                        updated",
        ".github/copilot-instructions.md  updated",
    ]
    for name in targets:
        text = (project / name).read_text()
        block = find_block(text)
        assert block is not None and block.holds == "workspace:proj"
        assert block.content(text).replace("\r\n", "\n") == "# Memory\n\n## Test runner\n\nUse pytest -q.\n"
    assert "Reply language" not in (project / "AGENTS.md").read_text()  # Global is the person's own
    assert (
        (project / "CLAUDE.md")
        .read_bytes()
        .startswith(b"# Mine\r\n\r\nkeep this\r\n\r\n<!-- oda-memory: begin")
    )
    stats = {n: os.stat(project / n).st_mtime_ns for n in targets}
    # later: no workspace, no target named: the known files, and the workspace their blocks record
    again = run_cli("sync", "--root", sample.root, "--project", project, env=_state(tmp_path))
    assert again.code == 0, again.err
    assert again.out.count("in step") == 3
    assert {n: os.stat(project / n).st_mtime_ns for n in targets} == stats


def test_with_global_is_said_and_global_alone_goes_to_the_users_own_files(
    tmp_path: Path, sample: Sample
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    r = run_cli(
        "sync", "--root", sample.root, "--workspace", "proj", "--with-global", "--include-unreviewed",
        "--project", project, "AGENTS.md", env=_state(tmp_path),
    )  # fmt: skip
    assert r.code == 0, r.err
    assert "Global memories are written into these project files too (--with-global)" in r.err
    assert "Reply language" in (project / "AGENTS.md").read_text()
    home = tmp_path / "home"
    home.mkdir()
    user = run_cli(
        "sync", "--root", sample.root, "--global", str(home / ".claude/CLAUDE.md"), ".codex/AGENTS.md",
        env=_state(tmp_path), home=home,
    )  # fmt: skip
    assert user.code == 0, user.err
    for name in (".claude/CLAUDE.md", ".codex/AGENTS.md"):
        text = (home / name).read_text()
        assert "Reply in short bullet points." in text and "pytest" not in text
    later = run_cli("sync", "--root", sample.root, "--global", "--check", env=_state(tmp_path), home=home)
    assert (later.code, later.out.count("in step")) == (0, 2)


def test_sync_with_no_workspace_named_or_recorded_is_refused(tmp_path: Path, sample: Sample) -> None:
    r = run_cli("sync", "--root", sample.root, "--project", tmp_path, "AGENTS.md", env=_state(tmp_path))
    assert r.code == 2
    assert r.err.startswith(
        "Name the workspace whose memories go into these files: oda-tui sync --workspace KEY"
    )
    assert not (tmp_path / "AGENTS.md").exists()


def test_a_secret_looking_memory_stops_the_sync(tmp_path: Path, sample: Sample) -> None:
    MemoryStore(sample.root).create("proj", "Login", "password: Hunter2!x", allow_secret=True)
    args = _sync_proj(sample, tmp_path, "AGENTS.md")
    r = run_cli(*args, env=_state(tmp_path))
    assert r.code == 2
    assert 'The memory "Login" (workspace proj, id ' in r.err and "looks like it holds a password" in r.err
    assert not (tmp_path / "AGENTS.md").exists()
    allowed = run_cli(*args, "--allow-secrets", env=_state(tmp_path))
    assert allowed.code == 0 and "Hunter2!x" in (tmp_path / "AGENTS.md").read_text()


def test_check_exits_1_naming_what_is_out_of_step(tmp_path: Path, sample: Sample) -> None:
    args = _sync_proj(sample, tmp_path, "AGENTS.md")
    assert run_cli(*args, env=_state(tmp_path)).code == 0
    assert run_cli(*args, "--check", env=_state(tmp_path)).code == 0
    MemoryStore(sample.root).create("proj", "New rule", "Tabs, never spaces.")
    r = run_cli(*args, "--check", env=_state(tmp_path))
    assert (r.code, r.out) == (1, "AGENTS.md  out of step\n")
    assert "Tabs" not in (tmp_path / "AGENTS.md").read_text()
    doc = run_cli(*args, "--check", "--json", env=_state(tmp_path)).json()
    assert doc["in_step"] is False and doc["check"] is True
    assert (doc["memories"], doc["held_back"]) == ("workspace:proj", 1)
    assert [(t["target"], t["state"], t["written"]) for t in doc["targets"]] == [
        ("AGENTS.md", "out of step", False)
    ]


def test_a_hand_edited_block_is_refused_with_its_diff_until_forced(tmp_path: Path, sample: Sample) -> None:
    _review_all(sample, tmp_path)
    args = _sync_proj(sample, tmp_path, "AGENTS.md", "CLAUDE.md")
    run_cli(*args, env=_state(tmp_path))
    agents = tmp_path / "AGENTS.md"
    agents.write_text(agents.read_text().replace("Use pytest -q.", "Use pytest -x."))
    MemoryStore(sample.root).create("proj", "New rule", "Tabs, never spaces.")
    claude = (tmp_path / "CLAUDE.md").read_bytes()
    r = run_cli(*args, env=_state(tmp_path))
    assert r.code == 2
    assert "AGENTS.md: its managed block was edited by hand since the last sync" in r.err
    assert r.out.startswith("AGENTS.md  edited by hand since the last sync\nCLAUDE.md  out of step\n")
    assert "Use pytest [--x.\n-]{+-q.\n\n## New rule\n\nTabs, never spaces.\n+}" in r.out
    assert (tmp_path / "CLAUDE.md").read_bytes() == claude  # nothing written at all
    forced = run_cli(*args, "--force", env=_state(tmp_path))
    assert forced.code == 0
    assert "Tabs, never spaces." in agents.read_text() and "pytest -x" not in agents.read_text()


def test_refusals_are_one_line_and_say_nothing_was_written(tmp_path: Path, sample: Sample) -> None:
    (tmp_path / "CLAUDE.md").write_bytes(b"caf\xe9\n")
    r = run_cli(
        "sync", "--root", sample.root, "--workspace", "proj", "--project", tmp_path,
        "AGENTS.md", "CLAUDE.md", "../out.md", env=_state(tmp_path),
    )  # fmt: skip
    assert r.code == 2
    assert r.out == "AGENTS.md  missing\n"
    assert r.err.splitlines() == [
        "CLAUDE.md: it is not UTF-8 text, so it was left as it is; nothing was written.",
        f"../out.md: it is outside the folder {tmp_path}; nothing was written.",
        HELD,
        "Nothing was written.",
    ]
    assert not (tmp_path / "AGENTS.md").exists()
    none = run_cli("sync", "--root", sample.root, "--project", tmp_path, env=_state(tmp_path))
    assert none.code == 2 and "no assistant file in" in none.err


def test_the_set_a_block_records_is_kept_to(tmp_path: Path, sample: Sample) -> None:
    MemoryStore(sample.root).create("other", "Other rule", "Tabs.")
    MemoryStore(sample.root).create(GLOBAL, "Tea", "Green.")
    base: list[str | Path] = ["sync", "--root", sample.root, "--project", tmp_path]
    assert run_cli(*base, "--workspace", "proj", "AGENTS.md", env=_state(tmp_path)).code == 0
    other = run_cli(*base, "--workspace", "other", env=_state(tmp_path))
    assert other.code == 2
    assert other.err.startswith(
        "AGENTS.md: its block holds the memories of workspace proj, not those of workspace other"
    )
    assert "Tabs." not in (tmp_path / "AGENTS.md").read_text()
    assert run_cli(*base, "--workspace", "other", "--force", env=_state(tmp_path)).code == 0
    assert "Tabs." in (tmp_path / "AGENTS.md").read_text()
