"""``oda-tui show ID``: the memory's file, found in any scope; unknown ids refused word for word."""

from __future__ import annotations

from pathlib import Path

from cli_support import UNKNOWN_ID, build_sample, run_cli
from conftest import write_raw

from store import MemoryStore


def test_show_finds_a_workspace_memory_without_being_told_the_scope(tmp_path: Path) -> None:
    s = build_sample(tmp_path / "oda")
    r = run_cli("show", s.proj, "--root", s.root)
    assert r.code == 0 and r.err == ""
    assert r.out.startswith("---\ntitle: Test runner\nenabled: true\nsource: user\n")
    assert r.out.endswith("---\n\nUse pytest -q.\n")


def test_show_escapes_control_characters_and_json_keeps_them(tmp_path: Path) -> None:
    root = tmp_path / "oda"
    m = MemoryStore(root).create(None, "Clear", "before\x1b[2Jafter\n\tindented\u202eevil")
    r = run_cli("show", m.id, "--root", root, "--global")
    assert r.code == 0
    assert r.out.endswith("\n\nbefore\\x1b[2Jafter\n\tindented\\u202eevil\n")
    assert b"\x1b" not in r.out_bytes
    j = run_cli("show", m.id, "--root", root, "--json")
    assert j.json()["memory"]["text"] == "before\x1b[2Jafter\n\tindented\u202eevil"
    assert j.out_bytes.isascii()  # JSON escapes every control character too


def test_unknown_id_exits_2_with_the_store_message(tmp_path: Path) -> None:
    s = build_sample(tmp_path / "oda")
    for args in (["ffffffff"], ["not-an-id"], [s.proj, "--global"], [s.reply, "--workspace", "proj"]):
        r = run_cli("show", *args, "--root", s.root)
        assert (r.code, r.out) == (2, ""), args
        assert r.err == UNKNOWN_ID.format(id=args[0]), args


def test_a_problem_file_id_exits_2_with_its_problem(tmp_path: Path) -> None:
    root = tmp_path / "oda"
    path = write_raw(root / "global" / "0000000a.md", "no frontmatter here\n")
    r = run_cli("show", "0000000a", "--root", root)
    assert (r.code, r.out) == (2, "")
    assert r.err == f"{path}: The file does not start with a --- frontmatter block.\n"


def test_an_id_in_two_scopes_asks_which(tmp_path: Path) -> None:
    root = tmp_path / "oda"
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
