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
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from . import history, safe_io
from .atomic import fsync_dir, write_temp
from .errors import CouldNotChange
from .history import NewVersion
from .limits import Limits
from .memory_fields import Document, FileProblem
from .memoryfile import parse_bytes
from .model import Version
from .swap import exchange, rename_new
from .timestamps import now_utc

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
    parts = safe_io.relative_parts(root, path)
    try:
        with safe_io.folder(root, path.parent) as dir_fd:
            fd, st = safe_io.open_regular(parts[-1], dir_fd, "/".join(parts))
            try:
                return safe_io.read_fd(fd, st.st_size, limit)
            finally:
                os.close(fd)
    except FileNotFoundError:
        return None
    except safe_io.Unsafe as exc:
        if exc.kind == "not_regular":
            return None
        raise


# The write protocol and its undo read as one: every step has its undo in the one except
# clause below, in the order the module docstring gives.
def commit(  # noqa: C901, PLR0912, PLR0915
    root: Path,
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
    os.replace(write_temp(path.parent, f".{path.name}.", data, suffix=PART, root=root), staged)
    written: Version | None = None
    swapped = False
    try:
        if version is not None:
            written = history.write_new_version(root, hdir, version)
        if seen is not None and _exchanged(staged, path):
            swapped = True
            replaced = read_limited(root, staged, limits.file_max_bytes)
            if replaced is None:  # a folder, a pipe or a link was put there: leave it be
                swapped = not _put_back(staged, path)
                raise CouldNotChange(f"{path.name} is no longer a regular file")
            if replaced != seen:
                theirs = parse_bytes(replaced, limits)
                if isinstance(theirs, FileProblem):  # put theirs back and refuse
                    swapped = not _put_back(staged, path)
                    raise _problem(theirs)
                keep_external(root, hdir, theirs, written or _version_of(root, hdir, data, limits))
        elif seen is not None and (now := read_limited(root, path, limits.file_max_bytes)) is not None:
            if now != seen:  # no kernel swap here: look again right before the rename
                theirs = parse_bytes(now, limits)
                if isinstance(theirs, FileProblem):
                    raise _problem(theirs)
                keep_external(root, hdir, theirs, written or _version_of(root, hdir, data, limits))
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
            history.remove_version(root, hdir, written.name)
        staged.unlink(missing_ok=True)
        raise
    staged.unlink(missing_ok=True)
    fsync_dir(path.parent)
    if written is not None:
        history.trim(root, hdir, limits.versions_kept)


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
    if any((v.title, v.text) == key for v in history.list_versions(root, hdir)):
        return
    added = history.write_version(
        root,
        hdir,
        moment=now_utc(),
        source="external",
        title=doc.fields.title,
        text=doc.text,
        memory_source=doc.fields.source,
    )
    if added is not None and newest is not None:
        history.make_newest(root, hdir, newest)
