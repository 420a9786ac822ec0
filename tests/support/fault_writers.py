"""The app's own writers held to the fault harness (``tests.support.fault_harness.check_writer``):
its state files (drafts, the Problems screen's file drafts, review marks, the crash log) and
settings.json.

Each ``Writer`` builds its tree (a store root ``oda`` where it needs one, the state folder
``state``, the config folder ``config``) and makes one write in it. Refused means an
``OSError`` reaches the caller (who says so); the writers that report nothing when they fail
(the theme, the crash log, forgetting a draft, reading drafts back) are ``quiet``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from oda_tui.config.paths import CONFIG_ENV, STATE_ENV
from oda_tui.config.theming import save_theme
from oda_tui.own_files import drafts, file_drafts, review_marks
from oda_tui.own_files.crash_log import write_crash_log
from store import MemoryStore
from store.disk.layout import history_dir
from tests.support.fault_harness import Writer

ROOT = "oda"
STATE = "state"
CONFIG = "config"
MEMORY = "0123abcd"
#: The memory a chat created and changed in the review's store.
CHANGED = "a0000001"


def is_os_error(exc: BaseException) -> bool:
    """The app's writers refuse by raising ``OSError`` (the caller says the file was not written)."""
    return isinstance(exc, OSError)


@contextmanager
def _env(name: str, value: Path) -> Iterator[None]:
    was = os.environ.get(name)
    os.environ[name] = str(value)
    try:
        yield
    finally:
        if was is None:
            del os.environ[name]
        else:
            os.environ[name] = was


def _draft(tree: Path, text: str) -> drafts.KeptDraft:
    return drafts.KeptDraft(
        root=drafts.store_key(tree / ROOT),
        scope=None,
        memory_id=MEMORY,
        title="Reply language",
        text=text,
        enabled=True,
        base_hash=drafts.content_hash("Reply language", "Reply in English.", True),
        base_updated=None,
        kept_at="2026-01-02T03:04:05+00:00",
    )


def _build_drafts(tree: Path) -> None:
    folder = tree / STATE / drafts.FOLDER
    folder.mkdir(parents=True, mode=0o700)
    drafts.keep(_draft(tree, "An older draft of the same memory."), folder)
    other = drafts.KeptDraft(
        root=drafts.store_key(tree / ROOT), scope="web", memory_id=None, title="New", text="typed",
        enabled=True, kept_at="2026-01-01T00:00:00+00:00",
    )  # fmt: skip
    drafts.keep(other, folder)
    broken = drafts.draft_path(tree / ROOT, "web", "fedcba98", folder)
    broken.write_bytes(b'{"kind": "oda-tui-draft", "format": 1, "root": ')


def _keep_draft(tree: Path) -> object:
    return drafts.keep(
        _draft(tree, "Reply in short bullet points,\nin English."), tree / STATE / drafts.FOLDER
    )


def _read_drafts(tree: Path) -> object:
    return drafts.kept_drafts(tree / ROOT, tree / STATE / drafts.FOLDER)


def _forget_draft(tree: Path) -> None:
    drafts.forget(drafts.draft_path(tree / ROOT, None, MEMORY, tree / STATE / drafts.FOLDER))


def _build_file_drafts(tree: Path) -> None:
    folder = tree / STATE / drafts.FOLDER / file_drafts.FOLDER
    folder.mkdir(parents=True, mode=0o700)
    older = file_drafts.new_file_draft(tree / ROOT, "global/0badf11e.md", "an older draft\n", b"broken\n")
    file_drafts.keep_file_draft(older, folder)


def _keep_file_draft(tree: Path) -> object:
    draft = file_drafts.FileDraft(
        drafts.store_key(tree / ROOT),
        "global/0badf11e.md",
        "---\ntitle: [fixed\n",
        "0" * 64,
        "2026-01-02T03:04:05+00:00",
    )
    return file_drafts.keep_file_draft(draft, tree / STATE / drafts.FOLDER / file_drafts.FOLDER)


def _build_review(tree: Path) -> None:
    s = MemoryStore(tree / ROOT, hold_index=True)
    made = s.create(None, "Alpha", "one", via="chat")
    s.change(None, made.id, text="two", via="chat")
    s.memory_path(None, made.id).rename(s.memory_path(None, CHANGED))
    history_dir(s.root, None, made.id).rename(history_dir(s.root, None, CHANGED))
    (tree / STATE).mkdir(mode=0o700)
    marks = {
        "format": 1,
        "stores": {str(tree / ROOT): {"workspaces": {"ws": {MEMORY: "20260101T000000000Z-chat"}}}},
    }
    (tree / STATE / review_marks.MARKS_FILE).write_text(json.dumps(marks))


def _mark_version(tree: Path) -> object:
    s = MemoryStore(tree / ROOT)
    return review_marks.mark_reviewed(
        s, None, "89abcdef", version="20260102T030405000Z-chat", path=tree / STATE / review_marks.MARKS_FILE
    )


def _mark_newest(tree: Path) -> object:
    s = MemoryStore(tree / ROOT)
    return review_marks.mark_reviewed(s, None, CHANGED, path=tree / STATE / review_marks.MARKS_FILE)


def _carry_mark(tree: Path) -> object:
    s = MemoryStore(tree / ROOT)
    return review_marks.carry_mark(
        s, "ws", MEMORY, None, "fedcba98", path=tree / STATE / review_marks.MARKS_FILE
    )


def _build_settings(tree: Path) -> None:
    (tree / CONFIG).mkdir(mode=0o700)
    (tree / CONFIG / "settings.json").write_text(json.dumps({"theme": "oda-dark", "other": [1, 2]}) + "\n")


def _save_theme(tree: Path) -> None:
    with _env(CONFIG_ENV, tree / CONFIG):
        save_theme("oda-light")


def _build_state(tree: Path) -> None:
    (tree / STATE).mkdir(mode=0o700)
    (tree / STATE / "crash.log").write_text("the last crash\n")


def _crash_log(tree: Path) -> object:
    with _env(STATE_ENV, tree / STATE):
        return write_crash_log(RuntimeError("a bug"))


WRITERS = [
    Writer("keep_draft", _build_drafts, _keep_draft, refused=is_os_error),
    Writer("read_drafts", _build_drafts, _read_drafts, refused=is_os_error, quiet=True),
    Writer("forget_draft", _build_drafts, _forget_draft, quiet=True),
    Writer("keep_problems_file_draft", _build_file_drafts, _keep_file_draft, refused=is_os_error),
    Writer("mark_reviewed", _build_review, _mark_version, refused=is_os_error),
    Writer("mark_newest_reviewed", _build_review, _mark_newest, refused=is_os_error, quiet=True),
    Writer("carry_mark", _build_review, _carry_mark, refused=is_os_error),
    Writer("save_theme", _build_settings, _save_theme, quiet=True),
    Writer("crash_log", _build_state, _crash_log, quiet=True),
]
