"""A person's own keys: ``keymap.yaml`` in the config folder maps binding ids to keys.

    memory.new: ctrl+n
    memory.toggle: space,t

The ids are the ones the help screen (``?``) lists. A bad file or line is reported, never fatal.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from ..keys.actions import ACTION_IDS
from .theming import config_dir

KEYMAP_FILE = "keymap.yaml"


@dataclass(frozen=True)
class KeymapLoad:
    """The keys to apply (binding id -> comma-separated keys), and what could not be used."""

    keymap: dict[str, str]
    problems: list[str]


def keymap_path() -> Path:
    """Where the person's keymap lives."""
    return config_dir() / KEYMAP_FILE


def load_keymap(path: Path | None = None) -> KeymapLoad:
    """Read the keymap; a missing file is an empty keymap."""
    path = keymap_path() if path is None else path
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return KeymapLoad({}, [])
    except (OSError, UnicodeDecodeError) as exc:
        return KeymapLoad({}, [f"{path.name} could not be read: {exc}"])
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        return KeymapLoad({}, [f"{path.name} is not valid YAML: {' '.join(str(exc).split())}"])
    if data is None:
        return KeymapLoad({}, [])
    if not isinstance(data, dict):
        return KeymapLoad({}, [f"{path.name} should map binding ids to keys, like memory.new: ctrl+n"])
    keymap: dict[str, str] = {}
    problems: list[str] = []
    for binding_id, keys in data.items():
        if not isinstance(binding_id, str) or not isinstance(keys, str) or not keys.strip():
            problems.append(f"{path.name}: {binding_id!r} needs keys as text, like ctrl+n")
            continue
        if binding_id not in ACTION_IDS:
            problems.append(f"{path.name}: {binding_id} is not a binding id (the help, ?, lists them)")
            continue
        keymap[binding_id] = ",".join(k.strip() for k in keys.split(",") if k.strip())
    return KeymapLoad(keymap, problems)
