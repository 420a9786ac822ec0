"""The only YAML loader the store uses: the safe one, in C when available."""

from __future__ import annotations

from typing import Any

import yaml

try:
    Loader: type = yaml.CSafeLoader
except AttributeError:  # PyYAML built without libyaml
    Loader = yaml.SafeLoader


def safe_load(text: str) -> Any:
    """Parse one YAML document with the safe loader (never one that builds Python objects)."""
    return yaml.load(text, Loader=Loader)  # noqa: S506 - Loader is CSafeLoader/SafeLoader


def compose_and_construct(text: str) -> tuple[Any, Any]:
    """The node graph (for written text and line spans) and the constructed value."""
    loader = Loader(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()
    return node, data
