"""Reading a frontmatter block with the YAML parser: the long way, for any block at all.

Line numbers in its problems are the file's; the six known fields are checked here, every
other key is kept as written.
"""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import Any

import yaml

from store import messages as msg
from store.format.fields import (
    KNOWN,
    YAML_BOOL,
    YAML_NULL,
    Fields,
    FileProblem,
    Parsed,
    normalize_title,
)
from store.format.timestamps import parse_timestamp
from store.format.yaml_load import compose_and_construct

REQUIRED_WHEN_NOT_A_MAPPING = "title, enabled, source"
_BOOL_TAG = "tag:yaml.org,2002:bool"


def parse_yaml(lines: list[str]) -> Parsed | FileProblem:
    """The fields of frontmatter ``lines`` as YAML reads them, or the file's problem."""
    # One blank line stands for the opening ---, so YAML's line numbers are the file's.
    source = "\n" + "\n".join(lines) + ("\n" if lines else "")
    try:
        node, data = compose_and_construct(source)
    except yaml.MarkedYAMLError as exc:
        return _yaml_problem(exc)
    except (yaml.YAMLError, RecursionError, ValueError, TypeError, OverflowError) as exc:
        return FileProblem(msg.FILE_BAD_YAML.format(message=_oneline(str(exc)) or type(exc).__name__))
    if not isinstance(node, yaml.MappingNode) or not isinstance(data, dict):
        return FileProblem(msg.FILE_BAD_FIELDS.format(names=REQUIRED_WHEN_NOT_A_MAPPING))
    nodes, spans = _known_nodes(node)
    extra = {k: v for k, v in data.items() if k not in KNOWN}
    return _validate(partial(_read_field, nodes, data), spans, written=False, extra=extra)


def _known_nodes(node: yaml.MappingNode) -> tuple[dict[str, yaml.Node], dict[str, tuple[int, int]] | None]:
    """The value node of each known key, and the lines each key spans (None for a flow mapping)."""
    nodes: dict[str, yaml.Node] = {}
    spans: dict[str, tuple[int, int]] | None = {} if not node.flow_style else None
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            continue
        key = key_node.value
        if key in KNOWN:
            nodes[key] = value_node
        if spans is not None:
            first = key_node.start_mark.line - 1
            end = value_node.end_mark
            last = end.line - 2 if end.column == 0 and end.line - 1 > first else end.line - 1
            spans[str(key)] = (first, max(first, last))
    return nodes, spans


def _read_field(nodes: dict[str, yaml.Node], data: dict[Any, Any], key: str) -> Any:
    """A known field as YAML reads it: None when absent or null, the bool for ``enabled``, and
    ``_INVALID`` for what is not a scalar (or not a bool, or a ``source`` that is not text)."""
    value_node = nodes.get(key)
    if value_node is None:
        return None
    if not isinstance(value_node, yaml.ScalarNode):
        return _INVALID
    if value_node.tag == "tag:yaml.org,2002:null":
        return None
    if key == "enabled":
        as_bool = value_node.tag == _BOOL_TAG and value_node.value in YAML_BOOL
        return data.get("enabled") if as_bool else _INVALID
    if key == "source":
        value = data.get("source")
        return value if isinstance(value, str) else _INVALID
    return value_node.value


class _Invalid:
    pass


_INVALID = _Invalid()


def _validate(
    get: Any,
    spans: dict[str, tuple[int, int]] | None,
    *,
    written: bool,
    extra: dict[Any, Any] | None = None,
) -> Parsed | FileProblem:
    """Check the six fields. ``get(key)`` gives the written text (fast path), or for the YAML
    path: None when absent or null, the bool for enabled, and _INVALID for a non-scalar."""
    bad: list[str] = []

    def text_of(key: str) -> str | None | _Invalid:
        value = get(key)
        if written and value is not None and value in YAML_NULL:
            return None
        return value  # type: ignore[no-any-return]

    title_raw = text_of("title")
    title = normalize_title(title_raw) if isinstance(title_raw, str) else ""
    if not title:
        bad.append("title")
    enabled_raw = get("enabled")
    enabled = YAML_BOOL.get(enabled_raw) if written and isinstance(enabled_raw, str) else enabled_raw
    if not isinstance(enabled, bool):
        bad.append("enabled")
    source = text_of("source")
    if source not in ("user", "ai"):
        bad.append("source")
    session = text_of("sessionId")
    if isinstance(session, _Invalid):
        bad.append("sessionId")
        session = None
    moments: dict[str, datetime | None] = {}
    for key in ("created", "updated"):
        raw = text_of(key)
        moment = parse_timestamp(raw) if isinstance(raw, str) else None
        if isinstance(raw, _Invalid) or (isinstance(raw, str) and moment is None):
            bad.append(key)
        moments[key] = moment
    if bad:
        return FileProblem(msg.FILE_BAD_FIELDS.format(names=", ".join(bad)))
    fields = Fields(
        title=title,
        enabled=bool(enabled),
        source=str(source),
        session_id=session,
        created=moments["created"],
        updated=moments["updated"],
        extra=extra or {},
    )
    return fields, spans


def _yaml_problem(exc: yaml.MarkedYAMLError) -> FileProblem:
    mark = exc.problem_mark or exc.context_mark
    what = exc.problem or exc.context or _oneline(str(exc))
    if exc.context and exc.problem:
        what = f"{exc.context}: {exc.problem}"
    if mark is None:
        return FileProblem(msg.FILE_BAD_YAML.format(message=_oneline(what)))
    line = mark.line + 1
    where = f"line {line}, column {mark.column + 1}"
    return FileProblem(msg.FILE_BAD_YAML.format(message=f"{_oneline(what)} ({where})"), line)


def _oneline(text: str) -> str:
    return " ".join(text.split())
