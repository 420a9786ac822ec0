"""What reaches a terminal: control characters shown visibly, file names that are not UTF-8
escaped, any output encoding, and columns aligned by display width; files and pipes still get
``export`` and ``context`` byte for byte."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from rich.cells import cell_len

from oda_tui.text.cell_widths import measure_modifiers_as_drawn
from store import GLOBAL, MemoryStore
from store.exchange.export import export_store
from tests.support.cli import run_cli, run_cli_on_terminal

# An SGR colour, an OSC 52 clipboard write, the 8-bit CSI and a bidi override.
HOSTILE = "red \x1b[31mhere\x1b[0m, clipboard \x1b]52;c;aGk=\x07, csi \x9b2J, bidi \u202eevil"
HOSTILE_SHOWN = "red \\x1b[31mhere\\x1b[0m, clipboard \\x1b]52;c;aGk=\\x07, csi \\x9b2J, bidi \\u202eevil"


def hostile_store(root: Path) -> MemoryStore:
    store = MemoryStore(root)
    store.create(GLOBAL, "Colours", HOSTILE + "\n\tindented line")
    return store


def raw_controls(data: bytes) -> list[int]:
    """Control bytes other than newline and tab, and UTF-8 encoded C1 controls."""
    text = data.decode("utf-8")
    return [ord(c) for c in text if (ord(c) < 0x20 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F]


def test_export_and_context_show_control_characters_visibly_on_a_terminal(tmp_path: Path) -> None:
    hostile_store(tmp_path / "oda")
    for command in ("export", "context"):
        r = run_cli_on_terminal(command, "--root", tmp_path / "oda")
        assert r.code == 0, r.err
        assert raw_controls(r.out_bytes) == [], command
        assert HOSTILE_SHOWN + "\n\tindented line" in r.out, command  # newlines and tabs kept


def test_export_and_context_stay_byte_for_byte_to_a_pipe_and_a_file(tmp_path: Path) -> None:
    store = hostile_store(tmp_path / "oda")
    exported = export_store(store).encode("utf-8")
    assert run_cli("export", "--root", store.root).out_bytes == exported
    assert run_cli("context", "--root", store.root).out_bytes == store.chat_memory(None).text.encode("utf-8")
    target = tmp_path / "out.md"
    run_cli_on_terminal("export", "--root", store.root, "-o", target)
    assert target.read_bytes() == exported


def test_every_command_shows_a_hostile_title_visibly_on_a_terminal(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path / "oda")
    memory = store.create(GLOBAL, "Title \x1b]52;c;aGk=\x07 \x9b2J", "Text.")
    store.change(GLOBAL, memory.id, text="Text, again.")
    shown = {
        "list": "\\x1b]52;c;aGk=\\x07 \\x9b2J",
        "history": "\\x1b]52;c;aGk=\\x07 \\x9b2J",
        "context": "\\x1b]52;c;aGk=\\x07 \\x9b2J",
        "export": "\\x1b\\]52;c;aGk=\\x07 \\x9b2J",  # Markdown escapes the bracket
        "show": '"Title \\e]52;c;aGk=\\a \\x9B2J"',  # the file as written: YAML escapes it
    }
    for args in (["list"], ["show", memory.id], ["history", memory.id], ["export"], ["context"]):
        r = run_cli_on_terminal(*args, "--root", store.root)
        assert r.code == 0, (args, r.err)
        assert raw_controls(r.out_bytes) == [], args
        assert shown[args[0]] in r.out, args


def non_utf8_store(root: Path) -> Path:
    """A store holding one file whose name is the bytes 0x9b 0x32 0x4a (8-bit CSI, "2J")."""
    MemoryStore(root).create(GLOBAL, "日本語のタイトル", "Text.")
    name = os.fsencode(root / "global") + b"/\x9b2J"
    with open(name, "wb") as f:
        f.write(b"not a memory\n")
    return root / "global" / os.fsdecode(b"\x9b2J")


def test_a_file_name_that_is_not_utf8_is_shown_escaped_whatever_the_encoding(tmp_path: Path) -> None:
    odd = non_utf8_store(tmp_path / "oda")
    shown = str(odd.parent) + "/\\x9b2J"
    for env in ({}, {"PYTHONIOENCODING": "utf-8"}, {"PYTHONIOENCODING": "ascii"}, {"LC_ALL": "C"}):
        r = run_cli("check", "--root", tmp_path / "oda", env=env)
        assert r.code == 1, (env, r.err)
        assert r.out.startswith(shown + ": "), (env, r.out)
        assert b"\x9b" not in r.out_bytes and "\x9b" not in r.out, env
        j = run_cli("check", "--root", tmp_path / "oda", "--json", env=env)
        assert j.code == 1 and j.json()["findings"][0]["path"] == str(odd), env


@pytest.mark.slow
def test_no_output_encoding_makes_a_command_fail(root: Path) -> None:
    non_utf8_store(root)
    for encoding in ("ascii", "latin-1", "utf-8"):
        env = {"PYTHONIOENCODING": encoding}
        for args in (["list"], ["check"], ["export"], ["context"], ["list", "--workspace", "日本"]):
            r = run_cli(*args, "--root", root, env=env)
            assert r.code in (0, 1, 2) and "Unexpected error" not in r.err, (encoding, args, r.err)
        listed = run_cli("list", "--root", root, env=env)
        assert listed.code == 0 and ("日本語のタイトル" in listed.out or "\\u65e5" in listed.out), encoding


def test_list_aligns_columns_by_display_width(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path / "oda")
    for title in ("Plain title", "日本語のタイトル", "Emoji 👍🏽 and café", "x"):
        store.create(GLOBAL, title, "Some text " * 20)
    r = run_cli("list", "--root", store.root)
    lines = r.out.splitlines()
    assert len(lines) == 4
    # The token column is right-aligned last: every line ends at the same display column (a
    # skin-tone modifier measured as the wide character terminals draw, as the app measures it).
    measure_modifiers_as_drawn()
    assert len({cell_len(line) for line in lines}) == 1, [cell_len(line) for line in lines]
