"""The last steps of every change to a memory file: nothing a person wrote is lost.

Under the store-wide lock, in this order:

1. the new bytes are written whole to ``.<id>.md.<hash>.new`` beside the memory file (a
   ``.new`` name is only ever given to a complete file, so its hash tells it apart later);
2. the new version is written into history (an unwritable history stops the change here,
   before the memory file is touched: refused means not applied);
3. the ``.new`` file is swapped in. With ``renameat2(RENAME_EXCHANGE)`` the kernel hands back,
   under the ``.new`` name, exactly the file it replaced; if that is not what the store read
   (another program saved in between), its text is kept as an ``external`` version, ordered
   before the store's own. Elsewhere the file is read again right before a plain rename;
4. what was handed back is removed, and old versions are trimmed.

A writer killed between these steps leaves a ``.new`` file; ``recover`` (at the start of the
next change of that set) rolls the unapplied change back, or keeps what a swap handed back.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from . import history
from .atomic import fsync_dir, write_temp
from .errors import CouldNotChange
from .limits import Limits
from .memoryfile import Document, FileProblem, parse_bytes
from .model import Version
from .swap import exchange, rename_new
from .timestamps import now_utc

#: A ``write_atomic`` temp file older than this is a killed writer's (another program using the
#: same pattern renames its own far sooner).
STALE_AFTER = 60.0

#: The suffix of the store's own temp file before it is whole (only ever written under the lock).
PART = ".part"
_PART = re.compile(r"\.[0-9a-f]{8}\.md\.[0-9a-f]{8}\.part\Z")
_STAGED = re.compile(r"\.([0-9a-f]{8})\.md\.([0-9a-f]{16})\.new\Z")
_TEMP = re.compile(r"\.[^/]+\.[0-9a-f]{8}\.tmp\Z")


@dataclass(frozen=True, slots=True)
class NewVersion:
    """The version a change keeps of the text it writes."""

    moment: datetime
    source: str
    title: str
    text: str
    memory_source: str


def staged_path(path: Path, data: bytes) -> Path:
    """Where the complete new bytes of ``path`` wait to be swapped in."""
    return path.parent / f".{path.name}.{_digest(data)}.new"


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def read_limited(path: Path, limit: int) -> bytes | None:
    """A regular file's bytes, at most ``limit + 1`` of them; None when there is none."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        if os.path.islink(path):
            return None
        raise CouldNotChange(exc.strerror or str(exc)) from exc
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def commit(
    path: Path,
    data: bytes,
    *,
    seen: bytes | None,
    hdir: Path,
    version: NewVersion | None,
    limits: Limits,
) -> None:
    """Put ``data`` in place of ``path``, whose bytes the caller read as ``seen`` (None: the
    file must not exist yet), with ``version`` kept first. Refused means not applied."""
    staged = staged_path(path, data)
    os.replace(write_temp(path.parent, f".{path.name}.", data, suffix=PART), staged)
    written: Version | None = None
    swapped = False
    try:
        if version is not None:
            written = history.write_version(
                hdir,
                moment=version.moment,
                source=version.source,
                title=version.title,
                text=version.text,
                memory_source=version.memory_source,
            )
        if seen is not None and _exchanged(staged, path):
            swapped = True
            replaced = read_limited(staged, limits.file_max_bytes)
            if replaced is not None and replaced != seen:
                theirs = parse_bytes(replaced, limits)
                if isinstance(theirs, FileProblem):  # put theirs back and refuse
                    swapped = not _put_back(staged, path)
                    raise _problem(theirs)
                keep_external(hdir, theirs, written or _version_of(hdir, data, limits))
        elif seen is not None and (now := read_limited(path, limits.file_max_bytes)) is not None:
            if now != seen:  # no kernel swap here: look again right before the rename
                theirs = parse_bytes(now, limits)
                if isinstance(theirs, FileProblem):
                    raise _problem(theirs)
                keep_external(hdir, theirs, written or _version_of(hdir, data, limits))
            os.replace(staged, path)
        else:
            try:
                rename_new(staged, path)
            except FileExistsError:
                raise CouldNotChange(f'a file named "{path.name}" appeared meanwhile') from None
    except BaseException:
        if swapped and not _put_back(staged, path):
            raise  # what was replaced stays at the ``.new`` name, for ``recover``
        if written is not None:
            history.remove_version(hdir, written.name)
        staged.unlink(missing_ok=True)
        raise
    staged.unlink(missing_ok=True)
    fsync_dir(path.parent)
    if written is not None:
        history.trim(hdir, limits.versions_kept)


def _exchanged(staged: Path, path: Path) -> bool:
    try:
        return exchange(staged, path)
    except FileNotFoundError:
        return False  # the file went meanwhile: the caller looks and creates it again


def _put_back(staged: Path, path: Path) -> bool:
    """Undo a swap: what was replaced is current again, the new bytes back at ``staged``."""
    try:
        return exchange(staged, path)
    except OSError:
        return False


def _version_of(hdir: Path, data: bytes, limits: Limits) -> Version | None:
    """The newest version when it holds the text of ``data`` (a change that kept no version of
    its own, such as turning a memory on, writes the text history already has)."""
    mine = parse_bytes(data, limits)
    newest = history.newest_version(hdir)
    if isinstance(mine, Document) and newest is not None:
        if (newest.title, newest.text) == (mine.fields.title, mine.text):
            return newest
    return None


def _problem(found: FileProblem) -> CouldNotChange:
    return CouldNotChange(f"its file has a problem: {found.message.rstrip('.')}")


def keep_external(hdir: Path, doc: Document, newest: Version | None) -> None:
    """Keep ``doc``'s text as an ``external`` version, ordered before ``newest`` (the version of
    what is current), unless history has that text already."""
    key = (doc.fields.title, doc.text)
    if any((v.title, v.text) == key for v in history.list_versions(hdir)):
        return
    added = history.write_version(
        hdir,
        moment=now_utc(),
        source="external",
        title=doc.fields.title,
        text=doc.text,
        memory_source=doc.fields.source,
    )
    if added is not None and newest is not None:
        history.make_newest(hdir, newest)


def recover(folder: Path, hdir_for: Callable[[str], Path], limits: Limits) -> None:
    """Finish what killed writers left in one set's folder (under the lock): roll back a change
    that was not applied, keep what a swap handed back, drop stale temp files."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    now = time.time()
    for name in names:
        if not name.startswith("."):
            continue
        staged = _STAGED.match(name)
        if staged is not None:
            memory_id, digest = staged.groups()
            _recover_staged(folder / name, digest, folder / f"{memory_id}.md", hdir_for(memory_id), limits)
        elif _PART.match(name):
            (folder / name).unlink(missing_ok=True)  # under the lock: its writer is gone
        elif _TEMP.match(name):
            _drop_if_stale(folder / name, now)


def clean_history(hdir: Path) -> None:
    """Drop temp files a killed writer left in a memory's history (under the lock: all stale)."""
    for folder in (hdir, hdir / history.VERSIONS):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            if name.startswith(".") and name.endswith(".tmp"):
                (folder / name).unlink(missing_ok=True)


def _drop_if_stale(path: Path, now: float) -> None:
    try:
        if now - os.lstat(path).st_mtime > STALE_AFTER:
            path.unlink(missing_ok=True)
    except OSError:
        pass


def _recover_staged(staged: Path, digest: str, path: Path, hdir: Path, limits: Limits) -> None:
    raw = read_limited(staged, history.READ_LIMITS.file_max_bytes)
    if raw is None:
        staged.unlink(missing_ok=True)
        return
    now = read_limited(path, limits.file_max_bytes)
    current = None if now is None else parse_bytes(now, limits)
    current_key = (current.fields.title, current.text) if isinstance(current, Document) else None
    doc = parse_bytes(raw, history.READ_LIMITS)
    if _digest(raw) == digest:
        # The store's own change, never swapped in: take back its version.
        newest = history.newest_version(hdir)
        if (
            isinstance(doc, Document)
            and newest is not None
            and (newest.title, newest.text) == (doc.fields.title, doc.text)
            and current_key != (doc.fields.title, doc.text)
        ):
            history.remove_version(hdir, newest.name)
    elif isinstance(doc, Document):
        # What a swap handed back: keep it unless it is current or kept already.
        if current_key != (doc.fields.title, doc.text):
            newest = history.newest_version(hdir)
            ours = newest if newest is not None and (newest.title, newest.text) == current_key else None
            keep_external(hdir, doc, ours)
    else:
        history.place(hdir, staged, now_utc(), "external")  # kept as it is, never read as text
        return
    staged.unlink(missing_ok=True)
    fsync_dir(staged.parent)
