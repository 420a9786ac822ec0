"""A person's own keys: ``keymap.yaml`` in the config folder maps binding ids to keys.

    memory.new: ctrl+n
    memory.toggle: space,t

The ids are the ones the help screen (``?``) lists. Each line stands on its own: a line that
is not ``binding.id: keys``, an unknown id, a key no terminal sends (``ctlr+n``) or a key that
another action already has on the same screen is named, and the other lines still apply; the
action named keeps its default keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from store import FileRefused, parse_yaml_config, read_config_file

from ..keys.actions import ACTIONS
from ..keys.clashes import without_clashes
from ..keys.key_names import normal_key
from .paths import config_dir

KEYMAP_FILE = "keymap.yaml"
#: One line for each of about 75 binding ids, with room for comments.
KEYMAP_MAX_BYTES = 64 * 1024
_SHOWN_MAX = 60
_BY_ID = {action.id: action for action in ACTIONS}


@dataclass(frozen=True)
class KeymapLoad:
    """The keys to apply (binding id -> comma-separated keys), and what could not be used."""

    keymap: dict[str, str]
    problems: list[str]


def keymap_path() -> Path:
    """Where the person's keymap lives."""
    return config_dir() / KEYMAP_FILE


def load_keymap(path: Path | None = None) -> KeymapLoad:
    """Read the keymap; a missing file is an empty keymap, one that cannot be used as a file
    (not a regular file, too large, not UTF-8) is named and the default keys apply."""
    path = keymap_path() if path is None else path
    try:
        raw = read_config_file(path, KEYMAP_MAX_BYTES, follow_links=True)
        text = "" if raw is None else raw.decode("utf-8-sig")
    except FileRefused as exc:
        return KeymapLoad({}, [f"{exc}; the default keys apply."])
    except UnicodeDecodeError:
        return KeymapLoad({}, [f"{path} is not used: it is not UTF-8 text; the default keys apply."])
    return parse_keymap(text, path.name)


def _shown(value: Any) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= _SHOWN_MAX else text[: _SHOWN_MAX - 1] + "…"


def _defaults(binding_id: str) -> str:
    return _BY_ID[binding_id].keys.replace(",", ", ")


def _line_data(line: str, name: str) -> dict[Any, Any] | None:
    try:
        data = parse_yaml_config(name, line)
    except FileRefused:
        return None
    return data if isinstance(data, dict) and data else None


def parse_keymap(text: str, name: str = KEYMAP_FILE) -> KeymapLoad:
    """The keymap in ``text``, line by line (``name`` is how problems name the file)."""
    entries: dict[str, tuple[int, str]] = {}  # binding id -> (line number, normal keys)
    first_lines: dict[str, int] = {}
    problems: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        where = f"{name} line {number}"
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or stripped in ("---", "..."):
            continue
        data = _line_data(line, name)
        if data is None:
            problems.append(f"{where}: “{_shown(stripped)}” is not “binding.id: keys”, so it is not used.")
            continue
        for binding_id, value in data.items():
            problem = _entry(binding_id, value, number, entries, first_lines)
            if problem is not None:
                problems.append(f"{where}: {problem}")
    keymap = {binding_id: keys for binding_id, (_number, keys) in entries.items()}
    kept, clashes = without_clashes(keymap)
    for clash in clashes:
        for binding_id in clash.dropped:
            others = ", ".join(_owner(o) for o in clash.owners if o != binding_id)
            problems.append(
                f"{name} line {entries[binding_id][0]}: {clash.key} is already {others} on {clash.screen}, "
                f"so {binding_id} keeps {_defaults(binding_id)}."
            )
    return KeymapLoad(kept, problems)


def _owner(owner: str) -> str:
    action = _BY_ID.get(owner)
    return f"the key of {owner} ({action.label})" if action is not None else f"the key of “{owner}”"


def _entry(
    binding_id: Any, value: Any, number: int, entries: dict[str, tuple[int, str]], first_lines: dict[str, int]
) -> str | None:
    """Add one ``binding.id: keys`` pair to ``entries`` (``first_lines``: where each id was
    first given keys); the problem with it, if any."""
    if not isinstance(binding_id, str) or binding_id not in _BY_ID:
        return f"{_shown(binding_id)} is not a binding id (the help, ?, lists them)."
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        value = ",".join(value)
    if not isinstance(value, str) or not value.strip(" ,"):
        return f"{binding_id} needs keys as text, like ctrl+n, so it keeps {_defaults(binding_id)}."
    if binding_id in first_lines:
        entries.pop(binding_id, None)
        first = first_lines[binding_id]
        return f"{binding_id} is given keys twice (line {first} too), so it keeps {_defaults(binding_id)}."
    first_lines[binding_id] = number
    keys: list[str] = []
    for key in (k.strip() for k in value.split(",")):
        if not key:
            continue
        normal = normal_key(key)
        if normal is None:
            return (
                f"“{_shown(key)}” is not a key (keys are written like ctrl+n, f2, escape or a single "
                f"character), so {binding_id} keeps {_defaults(binding_id)}."
            )
        keys.append(normal)
    entries[binding_id] = (number, ",".join(dict.fromkeys(keys)))
    return None
