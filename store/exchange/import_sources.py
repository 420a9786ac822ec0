"""Reading what is to be imported, by the store's file rules: only regular files, no link
followed inside a folder being imported, every read bounded, every walk linear.

A source is named by the person (a link named on the command line is where they chose to
point): a folder is basic-memory notes (every ``.md`` file in it and its subfolders, hidden
ones left out) and Cursor rules (every ``.mdc`` file); a ``.jsonl`` / ``.json`` file (or one
starting with ``{``) is server-memory's graph, a ``.mdc`` file a Cursor rule, any other file
Markdown. Bad input stops the whole import with one line (``BadSource``), so nothing is
half-imported from a source that could not be read.

A folder is walked by descriptors (``store.exchange.notes_folder``): each subfolder opened from
its parent's (``openat`` with ``O_NOFOLLOW``), each note read from its folder's, so the walk is
linear in the number of folders; past its depth or entry bound it stops
before reading more.

In ``CLAUDE.md`` (and the files it imports), Claude Code's ``@path`` imports are followed
inside the folder of the file named (``store.exchange.claude_imports``): at most
``MAX_IMPORT_DEPTH`` hops and ``MAX_IMPORTS`` files, never through a link or out of that
folder, each file once; the notes say what was followed and what was not.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from store.disk.safe_io import DIR_FLAGS, TooLarge, Unsafe, open_regular, read_fd, regular_file
from store.exchange.claude_imports import import_paths
from store.exchange.importers import (
    BadSource,
    Candidate,
    basic_memory_note,
    cursor_rule,
    markdown_lines,
    markdown_memories,
    outside_fences,
)
from store.exchange.notes_folder import walk_files
from store.exchange.server_memory import server_memory_entities

#: The most of one source file that is read (a server-memory graph of thousands of entities).
SOURCE_MAX_BYTES = 16 * 1024 * 1024
#: The most notes one folder may hold: past this it is not a notes folder (a home folder?).
MAX_NOTES = 20_000
#: Claude Code's own bound on import hops, and the most files one import follows in all.
MAX_IMPORT_DEPTH = 5
MAX_IMPORTS = 100
_GRAPH_SUFFIXES = (".jsonl", ".json")
_RULE_SUFFIX = ".mdc"
#: The files whose ``@path`` mentions are imports (Claude Code, and Gemini CLI's alike).
_IMPORTING_NAMES = frozenset({"claude.md", "claude.local.md", "gemini.md"})
_FOLLOWED_SUFFIXES = (".md", ".markdown", ".mdc", ".txt")


@dataclass(slots=True)
class Found:
    """The memories found in the sources, in order, and notes for the person."""

    candidates: list[Candidate] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: The files read so far, by (device, inode): a file reached twice is read once.
    read: set[tuple[int, int]] = field(default_factory=set)


def read_sources(sources: list[str]) -> Found:
    """Every memory in ``sources`` (paths as typed); ``BadSource`` for the first bad input."""
    found = Found()
    for source in sources:
        real = Path(os.path.realpath(source))
        try:
            mode = os.stat(real).st_mode
        except OSError as exc:
            raise BadSource(
                f"{source}: it could not be read: {exc.strerror or exc}; nothing was imported."
            ) from None
        if stat.S_ISDIR(mode):
            _read_notes(real, source, found)
        else:
            project = Path(os.path.realpath(os.path.dirname(os.path.abspath(source))))
            _read_file(real, source, found, project)
    return found


def _decoded(raw: bytes, shown: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadSource(f"{shown}: it is not UTF-8 text; nothing was imported.") from None


def _why(exc: OSError) -> str:
    """Why a file could not be read, as the end of a sentence."""
    if isinstance(exc, TooLarge):
        return f"it is larger than {SOURCE_MAX_BYTES // (1024 * 1024)} MiB"
    if isinstance(exc, Unsafe):
        return (
            "it is a link, and no link in a folder being imported is followed" if exc.is_link else exc.reason
        )
    return f"it could not be read: {exc.strerror or exc}"


def _refused(shown: str, exc: OSError) -> BadSource:
    """The one line for a source file that could not be read."""
    return BadSource(f"{shown}: {_why(exc)}; nothing was imported.")


def _read_file(real: Path, shown: str, found: Found, project: Path) -> None:
    try:
        with regular_file(real.parent, real) as (fd, st):
            raw = _read_bounded(fd, st, shown)
    except OSError as exc:
        raise _refused(shown, exc) from None
    if (st.st_dev, st.st_ino) in found.read:
        found.notes.append(
            f"{shown}: it was read already (named twice, or imported by another source); not imported twice."
        )
        return
    found.read.add((st.st_dev, st.st_ino))
    text = _decoded(raw, shown)
    suffix = real.suffix.lower()
    if suffix in _GRAPH_SUFFIXES or (suffix != _RULE_SUFFIX and text.lstrip("\ufeff \t\r\n").startswith("{")):
        _take_graph(text, shown, found)
    elif suffix == _RULE_SUFFIX:
        found.candidates.append(cursor_rule(text, shown, real.stem, f"cursor-rule {real}"))
    else:
        importing = (
            os.path.basename(shown).lower() in _IMPORTING_NAMES or real.name.lower() in _IMPORTING_NAMES
        )
        _take_markdown(text, shown, real, found, _Imports(project) if importing else None)


def _take_graph(text: str, shown: str, found: Found) -> None:
    graph = server_memory_entities(text, shown)
    found.candidates.extend(graph.entities)
    if graph.empty:
        names = ", ".join(graph.empty[:5]) + (
            f" and {len(graph.empty) - 5} more" if len(graph.empty) > 5 else ""
        )
        found.notes.append(
            f"{shown}: {_count(len(graph.empty), 'entity', 'entities')} with no observations and no "
            f"relations skipped (nothing to import): {names}."
        )
    if graph.unattached:
        found.notes.append(
            f"{shown}: {_count(graph.unattached, 'relation')} from an entity not in the file not imported "
            "(a relation is kept as a line of the entity it starts from)."
        )


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


@dataclass(slots=True)
class _Imports:
    """Following ``@path`` imports from one source named by the person, inside ``project``."""

    project: Path
    followed: int = 0


def _take_markdown(
    text: str, shown: str, real: Path, found: Found, imports: _Imports | None, depth: int = 0
) -> None:
    """A Markdown file's memories, then (``imports``) those of each file it imports."""
    found.candidates.extend(
        markdown_memories(text, shown, real.stem, f"markdown {real}", imports=imports is not None)
    )
    if imports is None:
        return
    lines = markdown_lines(text, shown)
    for path in import_paths(lines, outside_fences(lines)):
        _follow(path, shown, real, found, imports, depth + 1)


def _follow(path: str, shown: str, real: Path, found: Found, imports: _Imports, depth: int) -> None:
    """Read the file an ``@path`` in ``real`` (shown as ``shown``) names, when it may be."""
    label = f"{shown}: @{path}"
    target = Path(os.path.normpath(os.path.join(real.parent, os.path.expanduser(path))))
    try:
        inside = target.relative_to(imports.project)
    except ValueError:
        found.notes.append(f"{label} not followed: it is outside {imports.project}.")
        return
    if depth > MAX_IMPORT_DEPTH or imports.followed >= MAX_IMPORTS:
        found.notes.append(
            f"{label} not followed: past {MAX_IMPORT_DEPTH} imports deep or {MAX_IMPORTS} files in all."
        )
        return
    try:
        with _open_inside(imports.project, inside) as (fd, st):
            if not target.name.lower().endswith(_FOLLOWED_SUFFIXES):
                found.notes.append(f"{label} not followed: only Markdown and text files are imported.")
                return
            if (st.st_dev, st.st_ino) in found.read:
                found.notes.append(f"{label}: {inside} was read already.")
                return
            raw = _read_bounded(fd, st, str(inside))
    except FileNotFoundError:
        found.notes.append(f"{label} not followed: there is no such file.")
        return
    except OSError as exc:
        linked = isinstance(exc, Unsafe) and exc.is_link
        found.notes.append(
            f"{label} not followed: {'it is a link, and no link is followed' if linked else _why(exc)}."
        )
        return
    found.read.add((st.st_dev, st.st_ino))
    imports.followed += 1
    found.notes.append(f"{label}: followed, {inside} imported.")
    _take_markdown(_decoded(raw, str(inside)), str(inside), target, found, imports, depth)


@contextmanager
def _open_inside(project: Path, inside: Path) -> Iterator[tuple[int, os.stat_result]]:
    """The regular file ``project``/``inside`` open for reading, with its stat; every folder on
    the way opened from its parent's descriptor without following a link."""
    parts = inside.parts
    if not parts:
        raise IsADirectoryError(errno.EISDIR, "it is a folder")
    fd = os.open(project, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        for part in parts[:-1]:
            child = _open_folder_at(fd, part)
            os.close(fd)
            fd = child
        file_fd, st = open_regular(parts[-1], fd, str(inside))
    finally:
        os.close(fd)
    try:
        yield file_fd, st
    finally:
        os.close(file_fd)


def _read_bounded(fd: int, st: os.stat_result, shown: str) -> bytes:
    """An open regular file's bytes, ``TooLarge`` past ``SOURCE_MAX_BYTES`` (nothing kept)."""
    if st.st_size > SOURCE_MAX_BYTES:
        raise TooLarge(SOURCE_MAX_BYTES, shown)
    raw = read_fd(fd, st.st_size, SOURCE_MAX_BYTES)
    if len(raw) > SOURCE_MAX_BYTES:
        raise TooLarge(SOURCE_MAX_BYTES, shown)
    return raw


def _open_folder_at(fd: int, name: str) -> int:
    """The folder ``name`` inside the open folder ``fd``, never through a link."""
    try:
        return os.open(name, DIR_FLAGS, dir_fd=fd)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
            try:
                mode = os.lstat(name, dir_fd=fd).st_mode
            except OSError:
                raise exc from None
            kind = "link" if stat.S_ISLNK(mode) else "not_folder"
            raise Unsafe(f"{name} is not a folder", name, kind=kind) from None
        raise


def _read_notes(root: Path, shown: str, found: Found) -> None:
    """Every note and rule under the folder ``root``, in name order, no link followed."""
    label = shown.rstrip("/") or shown
    notes: list[tuple[str, Candidate]] = []

    def take(fd: int, name: str, parts: tuple[str, ...], where: str) -> None:
        if len(notes) >= MAX_NOTES:
            raise BadSource(f"{label}: it holds more than {MAX_NOTES} notes; nothing was imported.")
        stem = name.rsplit(".", 1)[0]
        # A note sorts by its path without the extension, so "Deploy Checklist" comes before
        # "Deploy Checklist (copy)": the original is the one kept when both say the same.
        notes.append(("\0".join((*parts, stem, name)), _take_note(root, fd, name, parts, where)))

    walk_files(root, label, lambda name: name.lower().endswith((".md", _RULE_SUFFIX)), take)
    found.candidates.extend(candidate for _order, candidate in sorted(notes, key=lambda n: n[0]))


def _take_note(root: Path, fd: int, name: str, parts: tuple[str, ...], where: str) -> Candidate:
    """The memory of one note or rule in the open folder ``fd``."""
    try:
        file_fd, st = open_regular(name, fd, where)
        try:
            raw = _read_bounded(file_fd, st, where)
        finally:
            os.close(file_fd)
    except OSError as exc:
        raise _refused(where, exc) from None
    text = _decoded(raw, where)
    stem = name.rsplit(".", 1)[0]
    relative = "/".join((*parts, stem))
    if name.lower().endswith(_RULE_SUFFIX):
        return cursor_rule(text, where, stem, f"cursor-rule {root}/{relative}.mdc")
    return basic_memory_note(text, where, stem, f"basic-memory {relative}")
