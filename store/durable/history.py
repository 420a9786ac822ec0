"""The history area: each memory's kept versions and its deletion record.

Layout, under ``<root>/history/<global | workspaces/KEY>/<id>/``:

- ``versions/<YYYYMMDDTHHMMSSmmmZ>-<source>[-N].md`` — one kept version, a memory file itself;
- ``deleted.md`` — the file's exact bytes when it was deleted;
- ``deleted.json`` — when, its title, whether it was a problem file, and where the deletion came
  from (``via``, a version source such as ``chat``; present = deleted).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import json
import os
import re
import secrets
import stat
from collections.abc import Generator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from store.disk.atomic import remove_durably, write_temp_at
from store.disk.safe_io import (
    DELETION_META_MAX_BYTES,
    TooLarge,
    Unsafe,
    entry_reason,
    folder,
    fsync_quietly,
    list_names,
    read_at,
    read_regular,
    relative_parts,
    remove_file,
    remove_tree,
    unlink_quietly,
)
from store.disk.swap import rename_new_at
from store.format.fields import Document, Fields
from store.format.parse import parse_bytes
from store.format.render import render_new
from store.format.timestamps import format_moment, parse_moment, parse_timestamp
from store.limits import Limits
from store.model import Version

VERSIONS = "versions"
DELETED_BYTES = "deleted.md"
DELETED_META = "deleted.json"
#: The end of the name a purged history is renamed to before it is removed.
PURGED = ".purged"
SOURCES = ("chat", "settings", "restore", "undo", "external", "found")
_NAME = re.compile(r"(\d{8}T\d{9}Z)-([a-z]+)(?:-(\d+))?\.md\Z")
# Versions are read with generous limits: a version stays readable after limits are lowered.
# A version or a deletion record is a memory file: never read past the largest file any
# setting allows, plus room for the frontmatter.
READ_LIMITS = Limits(
    title_max_chars=10**6, text_max_chars=10**7, file_max_bytes=10485760 + 65536, versions_kept=100
)


@dataclass(frozen=True, slots=True)
class NewVersion:
    """The version a change keeps of the text it writes."""

    moment: datetime
    source: str
    title: str
    text: str
    memory_source: str
    #: ``text_key`` of the title and text a chat's change replaced (kept in its version).
    replaced: str | None = None


#: The frontmatter key of a chat's version naming the text that change replaced.
REPLACED_KEY = "replaced"
#: What a chat's version says it replaced when the chat created the memory.
NOTHING_REPLACED = "nothing"


def text_key(title: str, text: str) -> str:
    """A short fingerprint of a title and text (what a chat's version says it replaced)."""
    return hashlib.sha256(json.dumps([title, text]).encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class DeletionRecord:
    """What ``deleted.json`` says, with the bytes kept beside it (none for a problem file:
    those are moved back as they are, never read, however large)."""

    title: str
    deleted_at: datetime
    problem: bool
    raw: bytes
    via: str = "settings"  # where the deletion came from (older records: the app's)
    #: Why the record, or the bytes it keeps, cannot be read (EIO, EACCES): it is there, it
    #: can be purged, but nothing can be restored from it until it can be read.
    unreadable: str | None = None


def version_name_parts(file_name: str) -> tuple[str, str, int] | None:
    """A version file's moment (as its name writes it), source and number (1 when the name has
    none), or None when ``file_name`` is not a version's."""
    m = _NAME.match(file_name)
    return None if m is None else (m.group(1), m.group(2), int(m.group(3) or 1))


def _sort_key(name: str) -> tuple[str, int, str]:
    """Moment, then number: a total order (the number is unique within a moment)."""
    m = _NAME.match(name)
    assert m is not None
    return m.group(1), int(m.group(3) or 1), m.group(2)


def version_names(root: Path, hdir: Path) -> list[str]:
    """The file names of a memory's versions, oldest first (none when the folder, or one on
    the way to it, is a link or not a folder). A folder that cannot be read (EIO, EACCES)
    raises: a change never takes that for a memory without versions."""
    try:
        names = [n for n in list_names(root, hdir / VERSIONS) if _NAME.match(n)]
    except Unsafe:
        return []
    return sorted(names, key=_sort_key)


def read_version(root: Path, hdir: Path, file_name: str) -> Version | None:
    """One version, or None when its file is gone, too large or not a regular file; a file
    that cannot be read (EIO, EACCES) raises, so no change decides on a history read in part."""
    m = _NAME.match(file_name)
    if m is None:
        return None
    try:
        raw = read_regular(root, hdir / VERSIONS / file_name, READ_LIMITS.file_max_bytes)
    except (FileNotFoundError, Unsafe, TooLarge):
        return None
    parsed = _parsed_version(raw)
    moment = parse_moment(m.group(1))
    if parsed is None or moment is None:
        return None
    title, text, replaced = parsed
    return Version(
        name=file_name[:-3], moment=moment, source=m.group(2), title=title, text=text, replaced=replaced
    )


@functools.lru_cache(maxsize=256)
def _parsed_version(raw: bytes) -> tuple[str, str, str | None] | None:
    """A version file's (title, text, what it replaced), or None when it is not a memory file.
    Kept by its bytes (so a file read again with other bytes is parsed again): every change
    reads each version of its memory again (``trim``), and parsing YAML is most of that cost."""
    doc = parse_bytes(raw, READ_LIMITS)
    if not isinstance(doc, Document):
        return None
    replaced = doc.fields.extra.get(REPLACED_KEY)
    return doc.fields.title, doc.text, replaced if isinstance(replaced, str) else None


#: Each version read, by its folder and name, with the identity of its file when it was read
#: (inode, size, modified and changed times): a change looks at every kept version of its
#: memory, and only a version file that is new or was touched since is read again.
_SEEN: dict[tuple[str, str], tuple[tuple[int, int, int, int], Version | None]] = {}
_SEEN_MAX = 20_000


def _versions_newest_first(root: Path, hdir: Path) -> Generator[Version, None, None]:
    """The readable versions, newest first, each read only when its file is not as it was
    when last read; the versions folder is opened once, never through a link."""
    try:
        with folder(root, hdir / VERSIONS) as fd:
            for name in reversed(_sorted_names(fd)):
                version = _version_at(fd, str(hdir), name)
                if version is not None:
                    yield version
    except (FileNotFoundError, Unsafe):
        return


def _version_at(fd: int, hdir: str, name: str) -> Version | None:
    """``read_version`` of ``name`` in the open versions folder ``fd``, from what was read
    before when the file is the same one, unchanged."""
    try:
        st = os.stat(name, dir_fd=fd, follow_symlinks=False)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None  # a link or something else: never read, as read_regular refuses it
    identity = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    seen = _SEEN.get((hdir, name))
    if seen is not None and seen[0] == identity:
        return seen[1]
    limit = READ_LIMITS.file_max_bytes
    raw = None if st.st_size > limit else read_at(fd, name, limit)
    version = None if raw is None or len(raw) > limit else _version_of(name, raw)
    if len(_SEEN) >= _SEEN_MAX:
        _SEEN.clear()
    _SEEN[(hdir, name)] = (identity, version)
    return version


def _version_of(file_name: str, raw: bytes) -> Version | None:
    m = _NAME.match(file_name)
    parsed = _parsed_version(raw)
    moment = None if m is None else parse_moment(m.group(1))
    if m is None or parsed is None or moment is None:
        return None
    title, text, replaced = parsed
    return Version(
        name=file_name[:-3], moment=moment, source=m.group(2), title=title, text=text, replaced=replaced
    )


def newest_version(root: Path, hdir: Path) -> Version | None:
    """The newest readable version, reading no more files than needed."""
    with contextlib.closing(_versions_newest_first(root, hdir)) as versions:
        return next(versions, None)


def memory_source(root: Path, hdir: Path, version: Version) -> str:
    """Who saved the memory a version was kept of ("user" or "ai"; "user" when it is gone)."""
    try:
        raw = read_regular(root, hdir / VERSIONS / f"{version.name}.md", READ_LIMITS.file_max_bytes)
    except (FileNotFoundError, Unsafe, TooLarge):
        return "user"
    doc = parse_bytes(raw, READ_LIMITS)
    return doc.fields.source if isinstance(doc, Document) else "user"


def list_versions(root: Path, hdir: Path) -> list[Version]:
    """Every readable version, newest first."""
    return list(_versions_newest_first(root, hdir))


def _next_name(names: list[str], moment: datetime, source: str) -> tuple[str, datetime]:
    """The name a new version gets: never before the newest one (a clock that stepped back, or
    a version stamped in the future), numbered the largest number of its moment + 1."""
    if names:
        newest = parse_moment(_NAME.match(names[-1]).group(1))  # type: ignore[union-attr]
        if newest is not None and moment < newest:
            moment = newest
    stamp = format_moment(moment)
    numbers = [_sort_key(n)[1] for n in names if n.startswith(stamp)]
    number = max(numbers) + 1 if numbers else 1
    return f"{stamp}-{source}" + (f"-{number}" if number > 1 else ""), moment


def _sorted_names(versions_fd: int) -> list[str]:
    return sorted((n for n in os.listdir(versions_fd) if _NAME.match(n)), key=_sort_key)


def place(
    src_fd: int, src: str, versions_fd: int, moment: datetime, source: str, names: list[str] | None = None
) -> tuple[str, datetime]:
    """Rename the file ``src`` of the folder ``src_fd`` into the open versions folder
    ``versions_fd`` as the newest version, never over another one. ``names``: the folder's
    version names, sorted, as the caller just listed them under the lock."""
    for _attempt in range(100):
        names = _sorted_names(versions_fd) if names is None else names
        name, at = _next_name(names, moment, source)
        try:
            rename_new_at(src_fd, src, versions_fd, f"{name}.md")
        except FileExistsError:
            names = None  # taken since the listing (nothing else writes here under the lock): again
            continue
        return name, at
    raise FileExistsError(errno.EEXIST, "no free version name", VERSIONS)


def write_version(
    root: Path,
    hdir: Path,
    *,
    moment: datetime,
    source: str,
    title: str,
    text: str,
    memory_source: str,
    replaced: str | None = None,
) -> Version | None:
    """Keep (title, text) as the newest version; None when it already is the newest.

    Nothing is dropped here (see ``trim``): a write that is not applied in the end can take its
    version back with ``remove_version`` and leave history as it was. The versions folder is
    opened once (made when missing, no link followed), and the version is written and renamed
    relative to it.
    """
    fields = Fields(title=title, enabled=True, source=memory_source)
    if replaced is not None:
        fields.extra[REPLACED_KEY] = replaced
    with folder(root, hdir / VERSIONS, create=True) as versions_fd:
        names = _sorted_names(versions_fd)  # listed once: the newest and the new name from it
        newest = next(filter(None, (_version_at(versions_fd, str(hdir), n) for n in reversed(names))), None)
        if newest is not None and (newest.title, newest.text) == (title, text):
            return None
        tmp = write_temp_at(versions_fd, ".version.", render_new(fields, text).encode("utf-8"))
        try:
            name, moment = place(versions_fd, tmp, versions_fd, moment, source, names)
        except BaseException:
            unlink_quietly(tmp, versions_fd)
            raise
        fsync_quietly(versions_fd)
    return Version(name=name, moment=moment, source=source, title=title, text=text, replaced=replaced)


def write_new_version(root: Path, hdir: Path, version: NewVersion) -> Version | None:
    """``write_version`` for the version a change keeps (see there)."""
    return write_version(
        root,
        hdir,
        moment=version.moment,
        source=version.source,
        title=version.title,
        text=version.text,
        memory_source=version.memory_source,
        replaced=version.replaced,
    )


def make_newest(root: Path, hdir: Path, version: Version) -> Version:
    """Rename a version so it sorts after every other one (its text and source stay)."""
    with folder(root, hdir / VERSIONS) as versions_fd:
        name, moment = place(versions_fd, f"{version.name}.md", versions_fd, version.moment, version.source)
        fsync_quietly(versions_fd)
    return Version(
        name=name,
        moment=moment,
        source=version.source,
        title=version.title,
        text=version.text,
        replaced=version.replaced,
    )


def remove_version(root: Path, hdir: Path, name: str) -> None:
    """Drop one version (a write that was not applied takes its version back)."""
    remove_durably(hdir / VERSIONS / f"{name}.md", root=root)


def trim(root: Path, hdir: Path, keep: int) -> None:
    """Keep each (title, text) once, as its newest version, and only the ``keep`` newest.

    Never raises: it runs after a change is in place, and a version it cannot drop now is
    dropped by the next trim."""
    seen: set[tuple[str, str]] = set()
    kept = 0
    try:
        versions = list_versions(root, hdir)
    except OSError:
        return
    for version in versions:
        key = (version.title, version.text)
        if key in seen or kept >= keep:
            try:
                # Not synced: a drop lost to a crash leaves a version the next trim drops.
                remove_file(root, hdir / VERSIONS / f"{version.name}.md", durable=False)
            except OSError:
                pass
            continue
        seen.add(key)
        kept += 1


def add_version(
    root: Path,
    hdir: Path,
    *,
    moment: datetime,
    source: str,
    title: str,
    text: str,
    memory_source: str,
    keep: int,
) -> Version | None:
    """Keep (title, text) as the newest version, then ``trim``; None when it already is."""
    version = write_version(
        root, hdir, moment=moment, source=source, title=title, text=text, memory_source=memory_source
    )
    if version is not None:
        trim(root, hdir, keep)
    return version


def read_deletion(root: Path, hdir: Path) -> DeletionRecord | None:
    """The deletion record of a memory, or None when it is not deleted (or its record is not
    one: not JSON, or larger than any memory file can be). A record that is there but cannot
    be read (EIO, EACCES) comes back with ``unreadable`` set, never as "not deleted". Raises
    ``safe_io.Unsafe`` when it, or a folder on the way, is a link or not what it should be:
    nothing is read through it."""
    try:
        meta = json.loads(read_regular(root, hdir / DELETED_META, DELETION_META_MAX_BYTES).decode("utf-8"))
    except (FileNotFoundError, TooLarge, ValueError, RecursionError):
        return None
    except Unsafe:
        raise
    except OSError as exc:
        return _unreadable(root, hdir, DELETED_META, exc, "", problem=True)
    if not isinstance(meta, dict):
        return None
    moment = parse_timestamp(str(meta.get("deleted_at", "")))
    if moment is None:
        return None
    title = str(meta.get("title", ""))
    problem = meta.get("problem") is True  # only the JSON true: "false" is not true
    via = meta["via"] if meta.get("via") in SOURCES else "settings"  # older records: the app's
    try:
        if problem:  # moved back as it is, never read: it only has to be there
            raw = b""
            _regular_there(root, hdir / DELETED_BYTES)
        else:
            raw = read_regular(root, hdir / DELETED_BYTES, READ_LIMITS.file_max_bytes)
    except (FileNotFoundError, TooLarge):
        return None
    except Unsafe:
        raise
    except OSError as exc:
        return _unreadable(root, hdir, DELETED_BYTES, exc, title, problem=problem, moment=moment, via=via)
    via = meta["via"] if meta.get("via") in SOURCES else "settings"
    return DeletionRecord(title=title, deleted_at=moment, problem=problem, raw=raw, via=via)


def _unreadable(
    root: Path,
    hdir: Path,
    name: str,
    exc: OSError,
    title: str,
    *,
    problem: bool,
    moment: datetime | None = None,
    via: str = "settings",
) -> DeletionRecord:
    shown = "/".join(relative_parts(root, hdir / name))
    if moment is None:
        try:
            moment = datetime.fromtimestamp(os.lstat(hdir / name).st_mtime, UTC)
        except OSError:
            moment = datetime.fromtimestamp(0, UTC)
    reason = f"{shown} could not be read ({exc.strerror or exc})"
    return DeletionRecord(
        title=title, deleted_at=moment, problem=problem, raw=b"", unreadable=reason, via=via
    )


def _regular_there(root: Path, path: Path) -> None:
    """``path`` is there and a regular file (its ``lstat``: it need not be readable)."""
    shown = "/".join(relative_parts(root, path))
    with folder(root, path.parent) as dir_fd:
        mode = os.lstat(path.name, dir_fd=dir_fd).st_mode
    reason = entry_reason(mode, shown, want_dir=False)
    if reason is not None:
        raise Unsafe(reason, shown, kind="link" if stat.S_ISLNK(mode) else "not_regular")


def clear_deletion(root: Path, hdir: Path) -> None:
    """Forget the deletion record (the memory is back)."""
    remove_durably(hdir / DELETED_META, root=root)
    remove_durably(hdir / DELETED_BYTES, root=root)


def purge(root: Path, hdir: Path) -> None:
    """Remove a memory's whole history: the one irreversible action (nothing through a link).

    The folder is first renamed aside in one step, so a purge is either done or not: what
    cannot be removed of it then (``.<id>.<random>.purged``) goes at the next store's first
    change (``store.leftovers``)."""
    shown = "/".join(relative_parts(root, hdir))
    aside = f".{hdir.name}.{secrets.token_hex(4)}{PURGED}"
    with folder(root, hdir.parent) as dir_fd:
        try:
            mode = os.lstat(hdir.name, dir_fd=dir_fd).st_mode
        except FileNotFoundError:
            return
        reason = entry_reason(mode, shown, want_dir=True)
        if reason is not None:
            raise Unsafe(reason, shown, kind="link" if stat.S_ISLNK(mode) else "not_folder")
        os.rename(hdir.name, aside, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        fsync_quietly(dir_fd)
    try:
        remove_tree(root, hdir.parent / aside)
    except OSError:
        pass  # aside already: gone from every list
