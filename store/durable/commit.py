"""The last steps of every change to a memory file: nothing a person wrote is lost.

Under the store-wide lock, in this order:

1. the new bytes are written to ``.<id>.md.<random>.part`` beside the memory file, synced,
   and renamed to ``.<id>.md.<hash>.new`` (a ``.new`` name is only ever given to a complete
   file, so its hash tells the store's bytes from what a swap handed back);
2. the new version is written into history (an unwritable history stops the change here,
   before the memory file is touched: refused means not applied);
3. the ``.new`` file is swapped in. With ``renameat2(RENAME_EXCHANGE)`` the kernel hands back,
   under the ``.new`` name, exactly the file it replaced; if that is not what the store read
   (another program saved in between), its text is kept as an ``external`` version, ordered
   before the store's own. Elsewhere the file is read again right before a plain rename;
4. what was handed back is removed, and old versions are trimmed.

A writer killed between these steps leaves a ``.part`` or ``.new`` file; ``store.leftovers``
puts that right at the start of the next change (see there).

The memory's folder is opened once, without following a link, and every file of the commit is
created, renamed, swapped, read and removed relative to that descriptor: a folder swapped for a
link meanwhile is never written through.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

from store import messages as msg
from store.disk import safe_io
from store.disk.atomic import missing_folders, remove_empty_folders, write_temp_at
from store.disk.safe_io import fsync_quietly, read_at, unlink_quietly
from store.disk.swap import exchange_at, rename_new_at
from store.durable import history
from store.durable.history import NewVersion
from store.errors import CouldNotChange
from store.format.fields import Document, FileProblem
from store.format.parse import parse_bytes
from store.format.timestamps import now_utc
from store.limits import Limits
from store.model import Version

#: The suffix of the store's own temp file before it is whole (only ever written under the lock).
PART = ".part"


def staged_path(path: Path, data: bytes) -> Path:
    """Where the complete new bytes of ``path`` wait to be swapped in."""
    return path.parent / f".{path.name}.{digest(data)}.new"


def digest(data: bytes) -> str:
    """The part of a ``.new`` name that tells the store's complete bytes from anything else."""
    return hashlib.sha256(data).hexdigest()[:16]


def read_limited(root: Path, path: Path, limit: int) -> bytes | None:
    """A regular file's bytes under ``root``, at most ``limit + 1`` of them (one more than
    allowed tells a file over the limit); None when there is none or it is not a regular file.
    A link on the way is refused (``safe_io.Unsafe``), never followed."""
    try:
        return safe_io.read_head(root, path, limit)
    except FileNotFoundError:
        return None
    except safe_io.Unsafe as exc:
        if exc.kind == "not_regular":
            return None
        raise


def commit(
    root: Path,
    path: Path,
    data: bytes,
    *,
    seen: bytes | None,
    hdir: Path | None,
    version: NewVersion | None,
    limits: Limits,
) -> None:
    """Put ``data`` in place of ``path``, whose bytes the caller read as ``seen`` (None: the
    file must not exist yet), with ``version`` kept first. Refused means not applied.

    ``hdir`` None: a file with no history (not a memory's): another program's save found in
    its place is put back and the change refused, as nothing could keep it."""
    made = missing_folders(root, hdir / history.VERSIONS) if version is not None and hdir is not None else []
    with safe_io.folder(root, path.parent, create=True) as set_fd:
        change = _Commit(root, path, data, hdir, limits, set_fd)
        try:
            change.stage()
            if version is not None:
                change.write_version(version)
            change.swap_in(seen)
        except BaseException:
            change.take_back(made)
            raise
        change.settle()


@dataclass
class _Commit:
    """One commit under way: the steps in the module docstring's order, and what they have done
    so far, so that a failure takes back exactly that. Every file is named in ``set_fd``, the
    memory's folder as it was opened."""

    root: Path
    path: Path
    data: bytes
    hdir: Path | None  # None: no history, so another program's save is never replaced
    limits: Limits
    set_fd: int
    #: The version this commit wrote into history (None: none yet, or none to write).
    written: Version | None = None
    #: The kernel swapped the files and they have not been put back: the memory file holds
    #: the new bytes, what it replaced waits at ``staged``.
    swapped: bool = False
    name: str = field(init=False)
    staged: str = field(init=False)

    def __post_init__(self) -> None:
        self.name = self.path.name
        self.staged = staged_path(self.path, self.data).name

    def stage(self) -> None:
        """Step 1: the complete new bytes at the ``.new`` name."""
        part = write_temp_at(self.set_fd, f".{self.name}.", self.data, suffix=PART)
        try:
            os.replace(part, self.staged, src_dir_fd=self.set_fd, dst_dir_fd=self.set_fd)
        except BaseException:
            unlink_quietly(part, self.set_fd)
            raise

    def write_version(self, version: NewVersion) -> None:
        """Step 2: the new version in history, before the memory file is touched."""
        assert self.hdir is not None, "a version needs a history folder"
        self.written = history.write_new_version(self.root, self.hdir, version)

    def swap_in(self, seen: bytes | None) -> None:
        """Step 3: the staged bytes become the memory file (``seen``: what the caller read)."""
        if seen is not None and self._exchanged():
            self.swapped = True
            self._keep_swapped_out(seen)
        elif seen is not None and (now := self._read(self.name)) is not None:
            self._replace(seen, now)
        else:
            try:
                rename_new_at(self.set_fd, self.staged, self.set_fd, self.name)
            except FileExistsError:
                raise CouldNotChange(f'a file named "{self.name}" appeared meanwhile') from None

    def _read(self, name: str) -> bytes | None:
        """A regular file of the memory's folder, at most one byte over the file limit."""
        return read_at(self.set_fd, name, self.limits.file_max_bytes)

    def _exchanged(self) -> bool:
        try:
            return exchange_at(self.set_fd, self.staged, self.set_fd, self.name)
        except FileNotFoundError:
            return False  # the file went meanwhile: the caller looks and creates it again

    def _keep_swapped_out(self, seen: bytes) -> None:
        """What the kernel handed back is kept as an ``external`` version when another program
        saved it; anything but a well-formed memory file is put back, and the change refused."""
        replaced = self._read(self.staged)
        if replaced is None:  # a folder, a pipe or a link was put there: leave it be
            self._put_back_and_refuse(CouldNotChange(f"{self.name} is no longer a regular file"))
        if replaced != seen:
            if self.hdir is None:
                self._put_back_and_refuse(CouldNotChange(msg.SAVED_BY_ANOTHER))
            theirs = parse_bytes(replaced, self.limits)
            if isinstance(theirs, FileProblem):  # put theirs back and refuse
                self._put_back_and_refuse(_problem(theirs))
            self._keep_external(theirs)

    def _put_back_and_refuse(self, refusal: CouldNotChange) -> NoReturn:
        # Still swapped when putting back fails: the undo tries once more, then leaves it.
        self.swapped = not self._put_back()
        raise refusal

    def _put_back(self) -> bool:
        """Undo a swap: what was replaced is current again, the new bytes back at ``staged``."""
        try:
            return exchange_at(self.set_fd, self.staged, self.set_fd, self.name)
        except OSError:
            return False

    def _replace(self, seen: bytes, now: bytes) -> None:
        """Without a kernel swap: look again right before a plain rename."""
        if now != seen:
            if self.hdir is None:
                raise CouldNotChange(msg.SAVED_BY_ANOTHER)
            theirs = parse_bytes(now, self.limits)
            if isinstance(theirs, FileProblem):
                raise _problem(theirs)
            self._keep_external(theirs)
        os.replace(self.staged, self.name, src_dir_fd=self.set_fd, dst_dir_fd=self.set_fd)

    def _keep_external(self, theirs: Document) -> None:
        assert self.hdir is not None
        newest = self.written or _version_of(self.root, self.hdir, self.data, self.limits)
        keep_external(self.root, self.hdir, theirs, newest)

    def take_back(self, made: list[Path]) -> None:
        """Undo the steps taken, newest first; ``made``: the history folders the commit made."""
        if self.swapped and not self._put_back():
            return  # what was replaced stays at the ``.new`` name, for ``recover``
        if self.written is not None and self.hdir is not None:
            history.remove_version(self.root, self.hdir, self.written.name)
        unlink_quietly(self.staged, self.set_fd)
        remove_empty_folders(self.root, made)

    def settle(self) -> None:
        """Step 4: the change is in place, and nothing from here on may refuse it."""
        # What a swap handed back, if it cannot be removed now: the next change keeps or
        # drops it (``store.leftovers``).
        unlink_quietly(self.staged, self.set_fd)
        fsync_quietly(self.set_fd)
        if self.written is not None and self.hdir is not None:
            history.trim(self.root, self.hdir, self.limits.versions_kept)


def _version_of(root: Path, hdir: Path, data: bytes, limits: Limits) -> Version | None:
    """The newest version when it holds the text of ``data`` (a change that kept no version of
    its own, such as turning a memory on, writes the text history already has)."""
    mine = parse_bytes(data, limits)
    newest = history.newest_version(root, hdir)
    if isinstance(mine, Document) and newest is not None:
        if (newest.title, newest.text) == (mine.fields.title, mine.text):
            return newest
    return None


def _problem(found: FileProblem) -> CouldNotChange:
    return CouldNotChange(f"its file has a problem: {found.message.rstrip('.')}")


def keep_external(root: Path, hdir: Path, doc: Document, newest: Version | None) -> None:
    """Keep ``doc``'s text as an ``external`` version, ordered before ``newest`` (the version of
    what is current), unless history has that text already."""
    key = (doc.fields.title, doc.text)
    if not any((v.title, v.text) == key for v in history.list_versions(root, hdir)):
        history.write_version(
            root,
            hdir,
            moment=now_utc(),
            source="external",
            title=doc.fields.title,
            text=doc.text,
            memory_source=doc.fields.source,
        )
    # Also when theirs was kept already: a keep stopped by a fault between the two steps is
    # taken up again by the next change.
    if newest is not None and history.version_names(root, hdir)[-1:] != [f"{newest.name}.md"]:
        history.make_newest(root, hdir, newest)
