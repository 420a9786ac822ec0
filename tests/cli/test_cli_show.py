"""``oda-tui show ID``: the memory's file, found in any scope; unknown ids refused in words for a
person."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from store import GLOBAL, Memory, MemoryStore, Scope, UnknownMemory
from tests.support.cli import Sample, run_cli, unknown_id
from tests.support.files import write_raw


def test_show_finds_a_workspace_memory_without_being_told_the_scope(sample: Sample) -> None:
    r = run_cli("show", sample.proj, "--root", sample.root)
    assert r.code == 0 and r.err == ""
    assert r.out.startswith("---\ntitle: Test runner\nenabled: true\nsource: user\n")
    assert r.out.endswith("---\n\nUse pytest -q.\n")


def test_show_escapes_control_characters_and_json_keeps_them(root: Path) -> None:
    m = MemoryStore(root).create(None, "Clear", "before\x1b[2Jafter\n\tindented\u202eevil")
    r = run_cli("show", m.id, "--root", root, "--global")
    assert r.code == 0
    assert r.out.endswith("\n\nbefore\\x1b[2Jafter\n\tindented\\u202eevil\n")
    assert b"\x1b" not in r.out_bytes
    j = run_cli("show", m.id, "--root", root, "--json")
    assert j.json()["memory"]["text"] == "before\x1b[2Jafter\n\tindented\u202eevil"
    assert j.out_bytes.isascii()  # JSON escapes every control character too


def test_an_unknown_id_exits_2_saying_where_it_was_looked_for_in_words_for_a_person(sample: Sample) -> None:
    cases = {
        ("ffffffff",): unknown_id("ffffffff", f"in {sample.root}"),
        ("not-an-id",): unknown_id("not-an-id", f"in {sample.root}"),
        (sample.proj, "--global"): unknown_id(sample.proj, "in Global", "oda-tui list --global"),
        (sample.reply, "--workspace", "proj"): unknown_id(
            sample.reply, 'in workspace "proj"', "oda-tui list --workspace proj"
        ),
    }
    for args, message in cases.items():
        r = run_cli("show", *args, "--root", sample.root)
        assert (r.code, r.out, r.err) == (2, "", message), args
        assert "memory_list" not in r.err and "chat" not in r.err  # no chat at a shell


def test_a_problem_file_id_exits_2_with_its_problem(root: Path) -> None:
    path = write_raw(root / "global" / "0000000a.md", "no frontmatter here\n")
    r = run_cli("show", "0000000a", "--root", root)
    assert (r.code, r.out) == (2, "")
    assert r.err == f"{path}: The file does not start with a --- frontmatter block.\n"


def test_an_id_in_two_scopes_asks_which(root: Path) -> None:
    MemoryStore(root)  # nothing yet; both files are written by hand
    file = "---\ntitle: T\nenabled: true\nsource: user\n---\n\nBody\n"
    write_raw(root / "global" / "0000000b.md", file)
    write_raw(root / "workspaces" / "w1" / "0000000b.md", file)
    r = run_cli("show", "0000000b", "--root", root)
    assert r.code == 2
    assert r.err == (
        'The id "0000000b" is in more than one scope (Global, workspace w1); '
        "choose one with --global or --workspace KEY.\n"
    )
    assert run_cli("show", "0000000b", "--root", root, "--workspace", "w1").code == 0


def test_the_stores_typed_unknown_id_is_said_for_a_person(
    sample: Sample, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The memory goes between finding its id and reading it (another program deleted it).
    from oda_tui.cli import dispatch, show
    from oda_tui.cli.access import Found
    from oda_tui.cli.access import find_id as real_find  # the one show calls

    real_get = MemoryStore.get
    searched: list[Found] = []

    def find_id(*args: Any, **kwargs: Any) -> Found:
        searched.append(real_find(*args, **kwargs))
        return searched[-1]

    def gone_after_the_search(self: MemoryStore, scope: Scope, memory_id: str) -> Memory:
        if searched:
            raise UnknownMemory(memory_id)
        return real_get(self, scope, memory_id)

    monkeypatch.setattr(show, "find_id", find_id)
    monkeypatch.setattr(MemoryStore, "get", gone_after_the_search)
    assert dispatch.run(["show", sample.reply, "--root", str(sample.root)]) == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", unknown_id(sample.reply, f"in {sample.root}"))
    assert searched == [Found(GLOBAL)]  # found by the search, gone when read
