"""The one reader for the files the app, the CLI and the MCP server keep beside the memories:
a person's keymap, themes and settings, and the app's own state (review marks, drafts).

They follow the store's rules for what it reads: only a regular file is opened (a pipe, a
socket or a device never is, so nothing waits and nothing grows without end), it is opened
non-blocking, every read is bounded by what the file can hold, YAML goes through the store's
strict loader (no alias bomb, no key written twice) and JSON is depth-limited. A file that
breaks a rule raises ``FileRefused``, which names it and says why, so the caller can say so
and use its defaults.

Links: a state file (``follow_links=False``) is the app's own, written by the app, so a link
there is refused like a link in the memory folder. A config file (``follow_links=True``) is
the person's, and dotfile managers put links there (often to a folder elsewhere, such as a Nix
store): a link is followed, and what it leads to must be a regular file within the bound.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
from pathlib import Path
from typing import Any

from store.disk.safe_io import FILE_FLAGS, close_quietly, read_fd

#: How deep JSON may nest: the app's own files need five levels.
JSON_MAX_DEPTH = 32

_FOLLOW_FLAGS = FILE_FLAGS & ~getattr(os, "O_NOFOLLOW", 0)
# A JSON string, or an unterminated one to the end of the file. Every match that starts at a
# quote succeeds (atomic groups, possessive loop: nothing is tried again), so the quotes inside
# an unterminated string never start a scan of their own: linear, where a pattern that can fail
# there is tried again from each quote (quadratic: 80 KB of \" pairs took minutes).
_JSON_STRING = re.compile(rb'"(?>[^"\\]+|\\.)*+(?:"|\\?\Z)', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_BRACKET_RUN = re.compile(rb"[\[{]+|[\]}]+")


class FileRefused(ValueError):
    """A config or state file that is not used: ``path`` and ``reason`` (``str()`` reads
    "<path> is not used: <reason>"). ``error``: the disk's error when the file is there but
    could not be read now (EIO, EACCES), so a writer knows not to replace it; None when what
    it holds (or what it is) is refused."""

    def __init__(self, path: Path | str, reason: str, error: OSError | None = None) -> None:
        super().__init__(f"{os.fspath(path)} is not used: {reason}")
        self.path = Path(path)
        self.reason = reason
        self.error = error


def _unreadable(path: Path | str, exc: OSError) -> FileRefused:
    return FileRefused(path, f"it cannot be read ({exc.strerror or exc})", exc)


def _kind_refusal(mode: int, *, follow_links: bool) -> str | None:
    if stat.S_ISLNK(mode) and not follow_links:
        return "it is a link, and links are not followed here"
    if not stat.S_ISREG(mode):
        return "it is not a regular file (a pipe, socket or device)"
    return None


def _too_large(max_bytes: int) -> str:
    return f"it is larger than {max_bytes} bytes"


def read_config_file(path: Path | str, max_bytes: int, *, follow_links: bool) -> bytes | None:
    """The bytes of a config or state file, at most ``max_bytes``; None when it does not exist.

    A device is never opened: the entry is looked at first, then opened non-blocking and
    checked again on the open file (a swap in between is caught there).
    """
    if not _entry_is_readable(path, max_bytes, follow_links=follow_links):
        return None
    try:
        fd = os.open(path, _FOLLOW_FLAGS if follow_links else FILE_FLAGS)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if not follow_links and exc.errno in (errno.ELOOP, errno.EMLINK):  # swapped for a link
            raise FileRefused(path, "it is a link, and links are not followed here") from None
        raise _unreadable(path, exc) from None
    try:
        raw = _read_open(path, fd, max_bytes)
    finally:
        close_quietly(fd)
    if len(raw) > max_bytes:
        raise FileRefused(path, _too_large(max_bytes))
    return raw


def _entry_is_readable(path: Path | str, max_bytes: int, *, follow_links: bool) -> bool:
    """False when there is no such file; ``FileRefused`` when the entry is not one to open."""
    try:
        st = os.stat(path) if follow_links else os.lstat(path)
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise _unreadable(path, exc) from None
    refusal = _kind_refusal(st.st_mode, follow_links=follow_links)
    if refusal is None and st.st_size > max_bytes:
        refusal = _too_large(max_bytes)
    if refusal is not None:
        raise FileRefused(path, refusal)
    return True


def _read_open(path: Path | str, fd: int, max_bytes: int) -> bytes:
    """What the open file holds (at most ``max_bytes + 1`` bytes), checked again on the file."""
    try:
        st = os.fstat(fd)
        refusal = _kind_refusal(st.st_mode, follow_links=True)
        if refusal is not None:
            raise FileRefused(path, refusal)
        return read_fd(fd, st.st_size, max_bytes)
    except OSError as exc:
        raise _unreadable(path, exc) from None


def _text(path: Path | str, raw: bytes) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise FileRefused(path, "it is not UTF-8 text") from None


def parse_yaml_config(path: Path | str, text: str) -> Any:
    """YAML text of a config file through the store's strict loader; ``FileRefused`` when it
    is not valid YAML (a key twice, an alias bomb, nesting too deep)."""
    import yaml  # only a config file that is there needs the YAML library

    from store.format.yaml_load import safe_load

    try:
        return safe_load(text)
    except yaml.YAMLError as exc:
        raise FileRefused(path, f"it is not valid YAML ({' '.join(str(exc).split())})") from None


def load_yaml_config(path: Path | str, max_bytes: int, *, follow_links: bool) -> Any:
    """The YAML data of a config file (None when it is missing or empty); ``FileRefused``."""
    raw = read_config_file(path, max_bytes, follow_links=follow_links)
    if raw is None:
        return None
    return parse_yaml_config(path, _text(path, raw))


def json_too_deep(raw: bytes, limit: int = JSON_MAX_DEPTH) -> bool:
    """True when the JSON in ``raw`` nests arrays and objects more than ``limit`` deep (counted
    outside strings, without parsing, so a deep file costs no recursion). Linear in the
    input: strings are taken out in one pass, then the brackets counted in another."""
    skeleton = _JSON_STRING.sub(b"", raw).translate(None, _NOT_BRACKETS)
    depth = 0
    for run in _BRACKET_RUN.finditer(skeleton):
        if run.group()[0] in b"[{":
            depth += len(run.group())
            if depth > limit:
                return True
        else:
            depth -= len(run.group())
    return False


def parse_json_config(path: Path | str, raw: bytes, *, max_depth: int = JSON_MAX_DEPTH) -> Any:
    """The JSON data in ``raw``; ``FileRefused`` when it is not UTF-8 JSON or nests too deep."""
    text = _text(path, raw)
    if json_too_deep(raw, max_depth):
        raise FileRefused(path, f"it nests more than {max_depth} levels deep")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise FileRefused(path, f"it is not valid JSON ({exc})") from None


def load_json_config(path: Path | str, max_bytes: int, *, follow_links: bool) -> Any:
    """The JSON data of a config or state file (None when it is missing); ``FileRefused``."""
    raw = read_config_file(path, max_bytes, follow_links=follow_links)
    if raw is None:
        return None
    return parse_json_config(path, raw)
