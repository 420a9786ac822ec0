"""Reading what is to be imported, by the store's file rules: only regular files, no link
followed inside a folder being imported, every read bounded.

A source is named by the person (a link named on the command line is where they chose to
point): a folder is basic-memory notes (every ``.md`` file in it and its subfolders, hidden
ones left out), a ``.jsonl`` / ``.json`` file (or one starting with ``{``) is server-memory's
graph, any other file is Markdown. Bad input stops the whole import with one line
(``BadSource``), so nothing is half-imported from a source that could not be read.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from store.disk.safe_io import TooLarge, Unsafe, folder, read_regular
from store.exchange.importers import (
    BadSource,
    Candidate,
    basic_memory_note,
    markdown_memories,
    server_memory_entities,
)

#: The most of one source file that is read (a server-memory graph of thousands of entities).
SOURCE_MAX_BYTES = 16 * 1024 * 1024
#: The most notes one folder may hold: past this it is not a notes folder (a home folder?).
MAX_NOTES = 20_000
_GRAPH_SUFFIXES = (".jsonl", ".json")


@dataclass(slots=True)
class Found:
    """The memories found in the sources, in order, and notes for the person."""

    candidates: list[Candidate] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


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
            _read_file(real, source, found)
    return found


def _read_text(root: Path, path: Path, shown: str) -> str:
    try:
        raw = read_regular(root, path, SOURCE_MAX_BYTES)
    except TooLarge:
        limit = SOURCE_MAX_BYTES // (1024 * 1024)
        raise BadSource(f"{shown}: it is larger than {limit} MiB; nothing was imported.") from None
    except Unsafe as exc:
        raise BadSource(f"{shown}: {exc.reason}; nothing was imported.") from None
    except OSError as exc:
        raise BadSource(
            f"{shown}: it could not be read: {exc.strerror or exc}; nothing was imported."
        ) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadSource(f"{shown}: it is not UTF-8 text; nothing was imported.") from None


def _read_file(real: Path, shown: str, found: Found) -> None:
    text = _read_text(real.parent, real, shown)
    if real.suffix.lower() in _GRAPH_SUFFIXES or text.lstrip("\ufeff \t\r\n").startswith("{"):
        graph = server_memory_entities(text, shown)
        found.candidates.extend(graph.entities)
        if graph.relations:
            found.notes.append(
                f"{shown}: {graph.relations} relation{'s' if graph.relations != 1 else ''} not imported "
                "(a memory has no links; the entities' observations are)."
            )
        return
    found.candidates.extend(markdown_memories(text, shown, real.stem))


def _read_notes(root: Path, shown: str, found: Found) -> None:
    """Every note under the folder ``root``, in name order, no link followed."""
    notes: list[tuple[Path, str]] = []
    pending: list[tuple[Path, str]] = [(root, shown.rstrip("/") or shown)]
    while pending:
        here, label = pending.pop()
        try:
            with folder(root, here) as fd:
                entries = sorted(os.listdir(fd))
                kinds = [
                    (name, os.lstat(name, dir_fd=fd).st_mode) for name in entries if not name.startswith(".")
                ]
        except Unsafe as exc:
            raise BadSource(f"{shown}: {exc.reason}; nothing was imported.") from None
        except OSError as exc:
            raise BadSource(
                f"{label}: it could not be read: {exc.strerror or exc}; nothing was imported."
            ) from None
        for name, mode in reversed(kinds):
            path, where = here / name, f"{label}/{name}"
            if stat.S_ISLNK(mode):
                raise BadSource(
                    f"{where}: it is a link, and no link in a folder being imported is followed; "
                    "nothing was imported."
                )
            if stat.S_ISDIR(mode):
                pending.append((path, where))
            elif name.lower().endswith(".md"):
                notes.append((path, where))
                if len(notes) > MAX_NOTES:
                    raise BadSource(f"{shown}: it holds more than {MAX_NOTES} notes; nothing was imported.")
    for path, where in sorted(notes, key=lambda n: n[1]):
        found.candidates.append(basic_memory_note(_read_text(root, path, where), where, path.stem))
