"""Tool calls read only what the kernel says changed, and still see every change saved before
the call: by another process a moment before, in place or by a rename, a file deleted, a set's
folder replaced, settings.yaml changed, Global made after the server started."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from oda_tui.mcp import tools
from oda_tui.mcp.chat_feed import ChatFeed
from oda_tui.mcp.session import ChatSession
from store import MemoryStore
from tests.support.files import memory_file, write_raw

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the feed reads Linux's inotify")


def memory_text(session: ChatSession) -> str:
    result = tools.call(session, "memory_read", {})
    assert not result.error and result.data is not None, result.text
    return str(result.data["text"])


def other_process(code: str, *args: str) -> None:
    """Run ``code`` in another Python process and wait for it to end (the change is saved)."""
    subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], check=True, env={**os.environ})


@linux_only
def test_the_feed_names_changed_files_and_asks_for_a_whole_look_when_folders_change(root: Path) -> None:
    write_raw(root / "global" / "aaaa0001.md", memory_file("One", "Text"))
    (root / "workspaces" / "proj").mkdir(parents=True)
    feed = ChatFeed(root, [None, "proj"])
    assert feed.changes() is None  # the first call: look whole while the watch is made
    assert feed.changes() == set()
    write_raw(root / "global" / "aaaa0001.md", memory_file("Two", "Text"))
    write_raw(root / "workspaces" / "proj" / "bbbb0001.md", memory_file("New", "Text"))
    write_raw(root / "workspaces" / "other" / "cccc0001.md", memory_file("Elsewhere", "Text"))
    assert feed.changes() == {root / "global" / "aaaa0001.md", root / "workspaces" / "proj" / "bbbb0001.md"}
    assert feed.changes() == set()
    shutil.rmtree(root / "workspaces" / "proj")
    assert feed.changes() is None
    write_raw(root / "settings.yaml", "chat_max_tokens: 9000\n")
    assert feed.changes() is None
    assert feed.changes() == set()
    feed.close()


def test_a_change_saved_by_another_process_just_before_a_call_is_seen(root: Path) -> None:
    write_raw(root / "global" / "aaaa0001.md", memory_file("Tea", "Green tea."))
    session = ChatSession(MemoryStore(root), "proj")
    assert "Green tea." in memory_text(session)
    # In place, as an editor writing over the file.
    other_process(
        "import sys, pathlib; p = pathlib.Path(sys.argv[1]); p.write_text(p.read_text().replace('Green', 'Black'))",
        str(root / "global" / "aaaa0001.md"),
    )
    assert "Black tea." in memory_text(session)
    # Through the store (a new file swapped in by a rename), in the chat's workspace made just now.
    other_process(
        "import sys; from store import MemoryStore; MemoryStore(sys.argv[1]).create('proj', 'Stack', 'Django.')",
        str(root),
    )
    assert "## Stack\n\nDjango." in memory_text(session)
    other_process("import sys, os; os.remove(sys.argv[1])", str(root / "global" / "aaaa0001.md"))
    assert "Tea" not in memory_text(session)
    session.close()


def test_replaced_folders_and_settings_are_seen(root: Path) -> None:
    root.mkdir()
    session = ChatSession(MemoryStore(root), "proj")
    assert memory_text(session) == ""  # no set's folder yet
    write_raw(root / "global" / "aaaa0001.md", memory_file("Tea", "Green tea."))
    assert "Green tea." in memory_text(session)
    write_raw(root / "workspaces" / "proj" / "bbbb0001.md", memory_file("Stack", "Django."))
    assert "Django." in memory_text(session)
    # The workspace's folder replaced by another one.
    os.rename(root / "workspaces" / "proj", root / "old-proj")
    write_raw(root / "new-proj" / "bbbb0002.md", memory_file("Stack", "Flask."))
    os.rename(root / "new-proj", root / "workspaces" / "proj")
    assert "Flask." in memory_text(session) and "Django." not in memory_text(session)
    # A new limit on a memory's text makes Tea's file a problem: it is no longer sent.
    write_raw(root / "settings.yaml", "text_max_chars: 100\n")
    write_raw(root / "global" / "aaaa0001.md", memory_file("Tea", "Green tea. " * 20))
    assert "Tea" not in memory_text(session)
    session.close()


@linux_only
def test_what_a_writer_killed_after_a_calls_look_left_is_put_right_by_that_call(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_raw(root / "global" / "aaaa0001.md", memory_file("Tea", "Green tea."))
    session = ChatSession(MemoryStore(root), None)
    first = tools.call(session, "memory_change", {"id": "aaaa0001", "old_text": "Green", "new_text": "Black"})
    assert not first.error, first.text  # the first change looks at the whole set
    part = root / "global" / ".aaaa0001.md.0badf00d.part"
    looked = session.refresh

    def look_then_a_writer_is_killed() -> None:
        looked()  # the call's look at the feed; another writer leaves half a file after it
        other_process("import sys; open(sys.argv[1], 'w').write('half a file')", str(part))

    monkeypatch.setattr(session, "refresh", look_then_a_writer_is_killed)
    second = tools.call(
        session, "memory_change", {"id": "aaaa0001", "old_text": "Black", "new_text": "White"}
    )
    assert not second.error, second.text
    assert not part.exists()
    assert not [p.name for p in (root / "global").iterdir() if p.name.startswith(".")]
