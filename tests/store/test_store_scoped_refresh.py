"""``refresh_scopes``: the chat's sets brought up to date exactly as the full pass would, and
nothing of any other workspace looked at."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from store import GLOBAL, MemoryStore, Scope, StoreError
from store.disk import safe_io
from store.read import scan
from tests.support.files import memory_file, started_store, write_raw

CHAT: list[Scope] = [GLOBAL, "proj"]


def picture(s: MemoryStore) -> tuple[object, ...]:
    """All a reader of the store can see of it."""
    scopes = [GLOBAL, *s.workspaces()]
    return (
        s.workspaces(),
        tuple(s.memories(scope) for scope in scopes),
        tuple(s.problems()),
        tuple(s.ignored()),
        s.limits,
        tuple(s.settings_problems()),
        tuple(s.chat_tokens(w) for w in [None, *s.workspaces()]),
    )


@pytest.fixture
def filled(root: Path) -> Path:
    write_raw(root / "global" / "aaaa0001.md", memory_file("Global one", "Text"))
    write_raw(root / "global" / "aaaa0002.md", "no frontmatter\n")
    write_raw(root / "workspaces" / "proj" / "cccc0001.md", memory_file("In proj", "More", extra="zeta: 1\n"))
    write_raw(root / "workspaces" / "proj" / "cccc0002.md", memory_file("Second", "Words"))
    write_raw(root / "workspaces" / "other" / "bbbb0001.md", memory_file("Elsewhere", "Far"))
    write_raw(root / "workspaces" / "other" / "bbbb0002.md", memory_file("Elsewhere too", "Farther"))
    started_store(root)  # writes the parse index: the stores below start from it
    return root


def _edit_same_stat(path: Path, content: str) -> None:
    st = os.stat(path)
    path.write_bytes(content.encode())
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def _into_link(path: Path) -> None:
    target = path.parent / "elsewhere.txt"
    target.write_text(memory_file("Linked", "Through a link"))
    path.unlink()
    path.symlink_to(target)


def _into_fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def _workspace_into_link(root: Path) -> None:
    shutil.move(root / "workspaces" / "proj", root / "moved")
    (root / "workspaces" / "proj").symlink_to(root / "moved")


def _workspaces_into_link(root: Path) -> None:
    shutil.move(root / "workspaces", root / "moved")
    (root / "workspaces").symlink_to(root / "moved")


def _workspace_into_file(root: Path) -> None:
    shutil.rmtree(root / "workspaces" / "proj")
    write_raw(root / "workspaces" / "proj", "a file\n")


OUTSIDE_CHANGES: dict[str, Callable[[Path], object]] = {
    "a file changed": lambda r: write_raw(r / "global" / "aaaa0001.md", memory_file("Global two", "New")),
    "a file changed, same size and mtime": lambda r: _edit_same_stat(
        r / "workspaces" / "proj" / "cccc0001.md", memory_file("In prox", "More", extra="zeta: 1\n")
    ),
    "a file added": lambda r: write_raw(
        r / "workspaces" / "proj" / "cccc0003.md", memory_file("Added", "Hi")
    ),
    "a file removed": lambda r: (r / "global" / "aaaa0001.md").unlink(),
    "a file turned into a link": lambda r: _into_link(r / "workspaces" / "proj" / "cccc0002.md"),
    "a file turned into a FIFO": lambda r: _into_fifo(r / "global" / "aaaa0001.md"),
    "a file turned into a problem": lambda r: write_raw(
        r / "workspaces" / "proj" / "cccc0002.md", "---\nx\n"
    ),
    "a problem file fixed": lambda r: write_raw(r / "global" / "aaaa0002.md", memory_file("Fixed", "Now")),
    "a folder put in a set": lambda r: (r / "global" / "sub").mkdir(),
    "a badly named file": lambda r: write_raw(r / "workspaces" / "proj" / "notes.md", "hi\n"),
    "the workspace folder vanished": lambda r: shutil.rmtree(r / "workspaces" / "proj"),
    "the workspace folder turned into a link": _workspace_into_link,
    "the workspace folder turned into a file": _workspace_into_file,
    "the global folder vanished": lambda r: shutil.rmtree(r / "global"),
    "the workspaces folder vanished": lambda r: shutil.rmtree(r / "workspaces"),
    "the workspaces folder turned into a link": _workspaces_into_link,
    "settings.yaml lowered a limit": lambda r: write_raw(r / "settings.yaml", "title_max_chars: 10\n"),
    "settings.yaml with a bad line": lambda r: write_raw(r / "settings.yaml", "versions_kept: many\n"),
    "the history area's global folder a link": lambda r: (r / "history" / "global").symlink_to(
        r / "workspaces"
    ),
}


#: Changes after which only a pass over the whole store can be right (the limits decide what
#: is a problem in every set).
WHOLE_STORE = {"settings.yaml lowered a limit"}


@pytest.mark.parametrize("change", list(OUTSIDE_CHANGES))
def test_the_scoped_refresh_sees_each_outside_change_as_the_full_pass_does(
    filled: Path, change: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    scoped, full = started_store(filled), started_store(filled)
    assert picture(scoped) == picture(full)
    OUTSIDE_CHANGES[change](filled)
    looked = Looked(monkeypatch)
    got = scoped.refresh_scopes(CHAT)
    assert looked.saw(filled / "workspaces" / "other", ["bbbb0001.md"]) == (change in WHOLE_STORE)
    monkeypatch.undo()
    want = full.refresh()
    assert got == want
    assert want  # the change was one the store can see
    assert picture(scoped) == picture(full) == picture(started_store(filled))


def test_the_workspaces_folder_back_from_a_link_is_seen_as_the_full_pass_sees_it(filled: Path) -> None:
    scoped, full = started_store(filled), started_store(filled)
    _workspaces_into_link(filled)
    assert scoped.refresh_scopes(CHAT) == full.refresh()
    assert scoped.workspaces() == []
    (filled / "workspaces").unlink()
    shutil.move(filled / "moved", filled / "workspaces")
    assert scoped.refresh_scopes(CHAT) == full.refresh()
    assert picture(scoped) == picture(full) == picture(started_store(filled))
    assert scoped.workspaces() == ["other", "proj"]


def test_the_scoped_refresh_sees_a_workspace_folder_appear(filled: Path) -> None:
    scoped, full = started_store(filled), started_store(filled)
    write_raw(filled / "workspaces" / "fresh" / "dddd0001.md", memory_file("New set", "Hello"))
    got = scoped.refresh_scopes([GLOBAL, "fresh"])
    assert (
        got
        == full.refresh()
        == {filled / "workspaces" / "fresh", filled / "workspaces" / "fresh" / "dddd0001.md"}
    )
    assert picture(scoped) == picture(full)


def test_the_scoped_refresh_sees_the_global_folder_appear(root: Path) -> None:
    write_raw(root / "workspaces" / "proj" / "cccc0001.md", memory_file("In proj", "More"))
    scoped, full = started_store(root), started_store(root)
    write_raw(root / "global" / "aaaa0001.md", memory_file("Global", "Now there"))
    assert scoped.refresh_scopes(CHAT) == full.refresh() == {root / "global" / "aaaa0001.md"}
    assert picture(scoped) == picture(full)


def test_a_store_that_was_empty_is_read_as_the_full_pass_reads_it(root: Path) -> None:
    scoped, full = started_store(root), started_store(root)
    write_raw(root / "global" / "aaaa0001.md", memory_file("First", "One"))
    write_raw(root / "workspaces" / "proj" / "cccc0001.md", memory_file("Second", "Two"))
    assert scoped.refresh_scopes(CHAT) == full.refresh()
    assert picture(scoped) == picture(full)
    assert [m.title for m in scoped.memories("proj")] == ["Second"]


def test_the_stores_own_writes_are_not_reported(filled: Path) -> None:
    s = started_store(filled)
    s.create("proj", "Mine", "Written here")
    assert s.refresh_scopes(CHAT) == set()


def test_an_invalid_workspace_key_is_refused(filled: Path) -> None:
    with pytest.raises(StoreError):
        started_store(filled).refresh_scopes([GLOBAL, "../other"])


class Looked:
    """Every folder opened or listed, every file stat'ed or read, while it is in use."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.folders: list[str] = []
        self.names: list[str] = []
        real_open, real_list, real_read, real_stat = (
            safe_io.open_folder,
            scan.list_set,
            scan.read_file,
            os.stat,
        )

        def open_folder(root: Path, folder: Path | str, **kw: Any) -> int:
            self.folders.append(os.fspath(folder))
            return real_open(root, folder, **kw)

        def list_set(root: Path, scope: Scope, folder: Path, dir_fd: int) -> Any:
            self.folders.append(os.fspath(folder))
            return real_list(root, scope, folder, dir_fd)

        def read_file(path: Path | str, limits: Any, dir_fd: int | None = None) -> Any:
            self.names.append(os.path.basename(path))
            return real_read(path, limits, dir_fd)

        def stat(path: Any, *args: Any, **kw: Any) -> os.stat_result:
            if isinstance(path, str | Path):
                self.names.append(os.path.basename(path))
            return real_stat(path, *args, **kw)

        for where in ("store.disk.safe_io", "store.read.scan"):
            monkeypatch.setattr(f"{where}.open_folder", open_folder)
        for where in ("store.read.disk_sync", "store.read.refresh"):
            monkeypatch.setattr(f"{where}.list_set", list_set)
        for where in ("store.read.first_load", "store.read.refresh"):
            monkeypatch.setattr(f"{where}.read_file", read_file)
        monkeypatch.setattr(os, "stat", stat)

    def saw(self, folder: Path, names: list[str]) -> bool:
        """Whether ``folder`` (or anything in it) was opened or listed, or any of ``names``
        stat'ed or read."""
        return any(f == str(folder) or f.startswith(f"{folder}/") for f in self.folders) or any(
            n in names for n in self.names
        )


def test_a_change_in_another_workspace_is_not_looked_at(
    filled: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = started_store(filled)
    other = filled / "workspaces" / "other"
    write_raw(other / "bbbb0001.md", memory_file("Changed elsewhere", "Far"))
    (other / "bbbb0002.md").unlink()
    write_raw(other / "bbbb0003.md", memory_file("Added elsewhere", "Far"))
    write_raw(filled / "workspaces" / "proj" / "cccc0003.md", memory_file("Added here", "Near"))
    names = ["bbbb0001.md", "bbbb0002.md", "bbbb0003.md"]

    looked = Looked(monkeypatch)
    assert s.refresh_scopes(CHAT) == {filled / "workspaces" / "proj" / "cccc0003.md"}
    assert looked.names  # the counting sees the chat's own files
    assert looked.saw(filled / "workspaces" / "proj", ["cccc0001.md", "cccc0002.md", "cccc0003.md"])
    assert not looked.saw(other, names)
    assert [m.title for m in s.memories("other")] == ["Elsewhere", "Elsewhere too"]

    # The full pass, counted the same way, does look there: the counting would have seen it.
    looked = Looked(monkeypatch)
    assert other / "bbbb0002.md" in s.refresh()
    assert looked.saw(other, names)
    assert [m.title for m in s.memories("other")] == ["Changed elsewhere", "Added elsewhere"]
