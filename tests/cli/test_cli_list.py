"""``oda-tui list``: one memory a line, scopes chosen by option, JSON for scripts."""

from __future__ import annotations

from pathlib import Path

import pytest

from store import MemoryStore, entry_tokens, estimate_tokens
from tests.support.cli import Sample, run_cli
from tests.support.unreadable import refuse_folder


def test_list_prints_every_scope_one_memory_a_line(sample: Sample) -> None:
    r = run_cli("list", "--root", sample.root)
    assert r.code == 0 and r.err == ""
    lines = r.out.splitlines()
    assert len(lines) == 3
    # The one token figure of a memory: what it adds to what a chat receives, title included.
    added = entry_tokens("Reply language", MemoryStore(sample.root).get(None, sample.reply).text)
    assert lines[0].split() == [
        "Global",
        sample.reply,
        "on",
        "you",
        "Reply",
        "language",
        f"+{added}",
        "tokens",
    ]
    # The title's escape character is shown as an escape, never sent to the terminal.
    assert lines[1].split()[:6] == ["Global", sample.agent, "off", "the", "agent", "Uses"]
    assert "\\x1b[31muv" in lines[1] and "\x1b" not in r.out
    assert lines[2].split()[:2] == ["proj", sample.proj]


def test_list_narrows_to_a_workspace_and_gives_json(sample: Sample) -> None:
    r = run_cli("list", "--root", sample.root, "--workspace", "proj", "--json")
    assert r.code == 0
    doc = r.json()
    assert doc["root"] == str(sample.root)
    [memory] = doc["memories"]
    assert memory["id"] == sample.proj and memory["scope"] == "proj" and memory["label"] == "proj"
    assert memory["text"] == "Use pytest -q." and memory["enabled"] is True
    assert memory["source"] == "user" and memory["saved_by"] == "saved by you"
    assert memory["tokens"] == entry_tokens(memory["title"], "Use pytest -q.")
    assert memory["tokens"] > estimate_tokens("Use pytest -q.")  # the title counts too
    assert memory["created"].endswith("Z") and memory["path"].endswith(f"{sample.proj}.md")
    assert set(memory) == {
        "id", "scope", "label", "title", "enabled", "source", "saved_by", "session_id",
        "created", "updated", "tokens", "path", "extra", "text",
    }  # fmt: skip

    g = run_cli("list", "--root", sample.root, "--global", "--json").json()
    assert [m["id"] for m in g["memories"]] == [sample.reply, sample.agent]
    assert g["memories"][1]["saved_by"] == "saved by the agent"


def test_missing_root_is_an_empty_store_with_a_note(tmp_path: Path) -> None:
    r = run_cli("list", "--root", tmp_path / "nowhere")
    assert r.code == 0 and r.out == ""
    assert r.err == f"Note: the folder {tmp_path / 'nowhere'} does not exist, so it holds no memories.\n"
    assert not (tmp_path / "nowhere").exists()  # reading never creates the store


def test_bad_workspace_key_and_file_root_are_one_line_each(tmp_path: Path, sample: Sample) -> None:
    r = run_cli("list", "--root", sample.root, "--workspace", "../etc")
    assert r.code == 2 and r.out == ""
    assert r.err.startswith('The workspace key "../etc" is not valid') and r.err.count("\n") == 1

    a_file = tmp_path / "file"
    a_file.write_text("x")
    r = run_cli("list", "--root", a_file)
    assert (r.code, r.err) == (2, f"The store root {a_file} is not a folder.\n")


def test_root_comes_from_oda_home(sample: Sample) -> None:
    r = run_cli("list", "--global", "--json", env={"ODA_HOME": str(sample.root)})
    assert r.code == 0 and len(r.json()["memories"]) == 2


def test_an_unreadable_folder_is_named_and_list_ends_with_1(
    sample: Sample, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Tests run as root, who reads any folder: the refusal the kernel would give is simulated.
    from oda_tui.cli import main as cli

    refuse_folder(monkeypatch, sample.root / "global")
    said = f"{sample.root / 'global'}: The folder could not be read: Permission denied. Its memories are not listed.\n"
    for options in (["--all"], ["--global"], ["--all", "--json"]):
        code = cli.main(["list", "--root", str(sample.root), *options])
        captured = capsys.readouterr()
        assert (code, captured.err) == (1, said), options
        assert sample.reply not in captured.out
    # A workspace's memories, from a folder that could be read: listed, and nothing to say.
    code = cli.main(["list", "--root", str(sample.root), "--workspace", "proj"])
    captured = capsys.readouterr()
    assert (code, captured.err) == (0, "")
