"""Where files live, which names count, what is ignored, privacy, settings and refresh."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from store import GLOBAL, MemoryStore, StoreError
from store.limits import Limits
from tests.support.files import memory_file, write_raw


def test_root_is_created_private_on_first_write(store: MemoryStore, root: Path) -> None:
    assert not root.exists()
    assert store.memories(GLOBAL) == [] and store.problems() == [] and store.workspaces() == []
    m = store.create("proj", "T", "x")
    assert stat.S_IMODE(os.stat(root).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(root / "workspaces" / "proj").st_mode) == 0o700
    assert stat.S_IMODE(os.stat(m.path).st_mode) == 0o600
    assert m.path == root / "workspaces" / "proj" / f"{m.id}.md"
    assert store.workspaces() == ["proj"]


def test_ids_are_eight_lowercase_hex(store: MemoryStore) -> None:
    m = store.create(GLOBAL, "T", "x")
    assert len(m.id) == 8 and set(m.id) <= set("0123456789abcdef")


def test_bad_names_are_ignored_with_a_reason(store: MemoryStore, root: Path) -> None:
    g = root / "global"
    for name in ("ABCDEF12.md", "0123456.md", "0123abcd.txt", "notes.md", "0123abcde.md"):
        write_raw(g / name, memory_file())
    (g / "abcdef12.md").mkdir()
    (g / ".md").mkdir()
    for silent in (".hidden.md", "0123abcd.md~", ".0123abcd.md.swp", "4913", ".0123abcd.md.1a2b3c4d.tmp"):
        write_raw(g / silent, memory_file())
    store.refresh()
    assert store.memories(GLOBAL) == []
    ignored = {i.path.name: i.reason for i in store.ignored()}
    assert set(ignored) == {
        "ABCDEF12.md",
        "0123456.md",
        "0123abcd.txt",
        "notes.md",
        "0123abcde.md",
        "abcdef12.md",
    }
    assert (
        ignored["ABCDEF12.md"] == "The file name is not a memory id (eight characters 0-9 and a-f) with .md."
    )
    assert ignored["abcdef12.md"] == "A folder inside a memory set is not a memory."


def test_bad_workspace_folders_are_ignored(store: MemoryStore, root: Path) -> None:
    bad = ("-x", "_x", ".x", "has space", "ünï")  # 256 bytes: no file system takes the name
    for key in bad:
        write_raw(root / "workspaces" / key / "0123abcd.md", memory_file())
    write_raw(root / "workspaces" / "good.key_1-2" / "0123abcd.md", memory_file())
    write_raw(root / "workspaces" / ("k" * 255) / "0123abcd.md", memory_file())
    store.refresh()
    assert store.workspaces() == ["good.key_1-2", "k" * 255]
    reasons = {i.path.name: i.reason for i in store.ignored()}
    # A dot first is a hidden folder: skipped without a word, like every dotfile.
    assert sorted(reasons) == sorted(set(bad) - {".x"})
    assert reasons["_x"] == (
        "The folder name is not a workspace key (letters, digits, dots, underscores and hyphens, "
        "beginning with a letter or digit, at most 255 characters)."
    )


def test_the_file_size_limit_is_exact(root: Path) -> None:
    """65,536 bytes is a memory; 65,537 is a problem (the default file_max_bytes)."""
    head = memory_file(extra="pad: ''\n")
    for size, is_memory in ((65536, True), (65537, False)):
        content = memory_file(extra="pad: '" + "p" * (size - len(head)) + "'\n")
        assert len(content.encode()) == size
        write_raw(root / "global" / "0123abcd.md", content)
        s = MemoryStore(root)
        if is_memory:
            assert [m.id for m in s.memories(GLOBAL)] == ["0123abcd"]
        else:
            assert [p.message for p in s.problems()] == ["The file is larger than 65536 bytes."]


def test_a_save_is_refused_one_byte_past_the_file_size_limit(root: Path) -> None:
    write_raw(
        root / "settings.yaml", "text_max_chars: 100000\nfile_max_bytes: 65536\nchat_max_tokens: 1000000\n"
    )
    s = MemoryStore(root)
    probe = s.create(GLOBAL, "T", "x")
    overhead = probe.path.stat().st_size - 1
    s.delete(GLOBAL, probe.id)
    made = s.create(GLOBAL, "T", "x" * (65536 - overhead))
    assert made.path.stat().st_size == 65536
    try:
        s.create(GLOBAL, "T", "x" * (65537 - overhead))
    except StoreError as exc:
        assert str(exc) == "The memory could not be changed: the file would be larger than 65536 bytes."
    else:
        raise AssertionError("a file of 65,537 bytes was saved")


def test_symlinks_leaving_the_root_are_never_followed(store: MemoryStore, root: Path, tmp_path: Path) -> None:
    outside = write_raw(tmp_path / "outside" / "secret.md", memory_file(title="Outside"))
    (root / "global").mkdir(parents=True)
    os.symlink(outside, root / "global" / "0123abcd.md")
    (root / "workspaces").mkdir()
    os.symlink(outside.parent, root / "workspaces" / "linked")
    inside = write_raw(root / "elsewhere.md", memory_file(title="Inside"))
    os.symlink(inside, root / "global" / "0000aaaa.md")
    store.refresh()
    # A link that stays inside the root is not followed either: it is listed, not read.
    assert store.memories(GLOBAL) == []
    assert store.workspaces() == []
    reasons = {i.path.name: i.reason for i in store.ignored()}
    assert (
        reasons["0123abcd.md"]
        == reasons["linked"]
        == "The link leads outside the memory folder, so it is not followed."
    )
    assert (
        reasons["0000aaaa.md"]
        == "The entry is a link; links are never followed, even inside the memory folder."
    )


def test_settings_bad_values_fall_back_and_are_reported(root: Path) -> None:
    write_raw(
        root / "settings.yaml",
        "title_max_chars: 9\ntext_max_chars: 100000\nfile_max_bytes: big\nchat_max_tokens: true\nversions_kept: 100\ncolour: red\n",
    )
    s = MemoryStore(root)
    assert s.limits == Limits(text_max_chars=100000, versions_kept=100)
    problems = s.settings_problems()
    assert problems == [
        "settings.yaml: title_max_chars is 9; it must be a whole number from 10 to 1000. The default 120 applies.",
        "settings.yaml: file_max_bytes is 'big'; it must be a whole number from 1024 to 10485760. The default 65536 applies.",
        "settings.yaml: chat_max_tokens is True; it must be a whole number from 500 to 1000000. The default 8000 applies.",
        "settings.yaml: unknown setting 'colour'; it is ignored.",
    ]


def test_every_limit_edge_is_accepted(root: Path) -> None:
    write_raw(
        root / "settings.yaml",
        "title_max_chars: 10\ntext_max_chars: 100\nfile_max_bytes: 1024\nchat_max_tokens: 500\nversions_kept: 2\n",
    )
    assert MemoryStore(root).settings_problems() == []
    write_raw(
        root / "settings.yaml",
        "title_max_chars: 1000\ntext_max_chars: 100000\nfile_max_bytes: 10485760\nchat_max_tokens: 1000000\nversions_kept: 100\n",
    )
    assert MemoryStore(root).limits == Limits(1000, 100000, 10485760, 1000000, 100)
    write_raw(
        root / "settings.yaml",
        "title_max_chars: 1001\ntext_max_chars: 99\nfile_max_bytes: 1023\nchat_max_tokens: 499\nversions_kept: 1\n",
    )
    s = MemoryStore(root)
    assert s.limits == Limits() and len(s.settings_problems()) == 5


def test_unreadable_settings_are_reported(root: Path) -> None:
    write_raw(root / "settings.yaml", "title_max_chars: [\n")
    s = MemoryStore(root)
    assert s.limits == Limits()
    [problem] = s.settings_problems()
    assert problem.startswith("settings.yaml is not valid YAML") and problem.endswith(
        "the default limits apply."
    )


def test_refresh_sees_outside_changes_and_reports_paths(store: MemoryStore, root: Path) -> None:
    m = store.create(GLOBAL, "T", "x")
    assert store.refresh([m.path]) == set()  # our own write does not echo
    m.path.write_text(memory_file(title="T", text="outside"))
    assert store.refresh([m.path]) == {m.path}
    assert store.get(GLOBAL, m.id).text == "outside"
    new = write_raw(root / "workspaces" / "fresh" / "0123abcd.md", memory_file(title="New"))
    assert new in store.refresh([new])
    assert store.workspaces() == ["fresh"]
    new.write_text("broken")
    store.refresh([new])
    assert [p.message for p in store.problems()] == ["The file does not start with a --- frontmatter block."]
    new.unlink()
    assert store.refresh([new]) == {new}
    assert store.problems() == []


def test_refresh_all_matches_the_disk(store: MemoryStore, root: Path) -> None:
    a = store.create(GLOBAL, "A", "a")
    other = MemoryStore(root)
    b = other.create("w", "B", "b")
    other.delete(GLOBAL, a.id)
    changed = store.refresh()
    assert a.path in changed and b.path in changed
    assert store.memories(GLOBAL) == [] and [m.id for m in store.memories("w")] == [b.id]


def test_settings_change_is_picked_up_by_refresh(store: MemoryStore, root: Path) -> None:
    write_raw(root / "global" / "0123abcd.md", memory_file(text="x" * 150))
    store.refresh()
    assert store.problems() == []
    write_raw(root / "settings.yaml", "text_max_chars: 100\n")
    store.refresh([root / "settings.yaml"])
    assert store.limits.text_max_chars == 100
    assert [p.id for p in store.problems()] == ["0123abcd"]


def test_problem_files_are_never_rewritten(store: MemoryStore, root: Path) -> None:
    raw = b"---\ntitle: [\n---\n"
    path = write_raw(root / "global" / "0123abcd.md", raw)
    store.create(GLOBAL, "Other", "x")
    store.refresh()
    assert path.read_bytes() == raw


def test_no_temp_file_is_left_behind(store: MemoryStore, root: Path) -> None:
    m = store.create(GLOBAL, "T", "x")
    store.change(GLOBAL, m.id, text="y")
    leftovers = [p for p in root.rglob("*") if p.name.endswith(".tmp")]
    assert leftovers == []
