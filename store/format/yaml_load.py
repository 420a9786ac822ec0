"""The only YAML loader the store uses: the safe one, in C when available, made strict.

Strict in two ways a memory file or settings.yaml needs:

- a mapping with the same key twice is an error (YAML requires unique keys; taking the last
  one silently would hide a mistake);
- a document whose aliases would make it much larger than it is written is an error (an
  "alias bomb" of a few hundred bytes would otherwise build, compare and print gigabytes),
  and so is one where an alias refers to the collection that holds it.
"""

from __future__ import annotations

from typing import Any

import yaml

try:
    _Base: type = yaml.CSafeLoader
except AttributeError:  # PyYAML built without libyaml
    _Base = yaml.SafeLoader

#: How much aliases may add to a document beyond what is written: values and characters.
EXPANSION_ALLOWANCE = 10_000
_MERGE_TAG = "tag:yaml.org,2002:merge"


class TooLargeWhenExpanded(yaml.YAMLError):
    """A document whose aliases expand it past what it may hold (or into itself)."""


def _shown(key: Any) -> str:
    text = repr(key)
    return text if len(text) <= 60 else text[:57] + "..."


class Loader(_Base):  # type: ignore[misc]
    """The safe loader, refusing a mapping that repeats a key."""

    def construct_mapping(self, node: yaml.Node, deep: bool = False) -> dict[Any, Any]:
        if isinstance(node, yaml.MappingNode):
            seen: set[tuple[type, Any]] = set()
            for key_node, _value in node.value:
                if key_node.tag == _MERGE_TAG:
                    continue  # a merge brings keys in on purpose; its own keys win
                key = self.construct_object(key_node, deep=True)
                try:
                    marker = (type(key), key)
                    duplicate = marker in seen
                except TypeError:
                    continue  # an unhashable key: the base constructor says so
                if duplicate:
                    raise yaml.constructor.ConstructorError(
                        "while constructing a mapping",
                        node.start_mark,
                        f"found duplicate key {_shown(key)}",
                        key_node.start_mark,
                    )
                seen.add(marker)
        return super().construct_mapping(node, deep=deep)  # type: ignore[no-any-return]


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def expanded_size(root: yaml.Node, cap: int) -> int | None:
    """The size of the document once every alias is expanded: one per value plus the length
    of each scalar, counted without expanding anything (each node once); ``cap + 1`` as soon
    as it passes ``cap``, None when an alias refers to a collection that holds it."""
    done: dict[int, int] = {}
    active: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, children_counted = stack.pop()
        key = id(node)
        if children_counted:
            active.discard(key)
            total = 1 + (len(node.value) if isinstance(node, yaml.ScalarNode) else 0)
            for child in _children(node):
                total += done[id(child)]
                if total > cap:
                    return cap + 1
            done[key] = total
            continue
        if key in done:
            continue
        active.add(key)
        stack.append((node, True))
        for child in _children(node):
            child_key = id(child)
            if child_key in active:
                return None  # a cycle: it would never end
            if child_key not in done:
                stack.append((child, False))
    return done[id(root)]


def compose_and_construct(text: str) -> tuple[Any, Any]:
    """The node graph (for written text and line spans) and the constructed value.

    Raises a ``yaml.YAMLError`` for invalid YAML, a repeated key, or aliases that would
    expand the document past twice its written length plus ``EXPANSION_ALLOWANCE``.
    """
    loader = Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, None
        cap = 2 * len(text) + EXPANSION_ALLOWANCE
        size = expanded_size(node, cap)
        if size is None:
            raise TooLargeWhenExpanded("an alias refers to the value that holds it")
        if size > cap:
            raise TooLargeWhenExpanded(f"its aliases expand it to more than {cap} characters")
        data = loader.construct_document(node)
    finally:
        loader.dispose()
    return node, data


def safe_load(text: str) -> Any:
    """Parse one YAML document with the strict safe loader (never one that builds Python
    objects)."""
    return compose_and_construct(text)[1]
