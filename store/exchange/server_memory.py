"""server-memory's knowledge graph (``@modelcontextprotocol/server-memory``) as memories.

The file is JSON Lines, as its ``saveGraph`` writes it: one object a line, entities first,
``{"type":"entity","name":…,"entityType":…,"observations":[…]}``, then relations,
``{"type":"relation","from":…,"to":…,"relationType":…}``, joined by newlines. An entity's
name is unique in a graph (``createEntities`` skips a name it has), so it is what the entity
is at every import.

Each entity is one memory: its name the title; its observations, one a line, then its type
and each relation it starts, as lines (``Type: person``, ``works_on: billing-service``). An
entity with no observations and no relations has nothing to say: it is skipped with a note.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from store.exchange.importers import BadSource, Candidate

#: The start of every server-memory entity's key (``importedFrom``).
KEY_PREFIX = "server-memory entity "


@dataclass(slots=True)
class Graph:
    """What a server-memory file holds: one candidate per entity with something to say, the
    entities skipped for having nothing, and the relations whose entity is not in the file."""

    entities: list[Candidate] = field(default_factory=list)
    empty: list[str] = field(default_factory=list)
    relations: int = 0
    unattached: int = 0


@dataclass(slots=True)
class _Entity:
    name: str
    kind: str | None
    observations: list[str]
    line: int
    relations: list[str] = field(default_factory=list)


def server_memory_entities(text: str, name: str) -> Graph:
    """The entities of server-memory's JSONL (blank lines skipped); ``BadSource`` for a line
    that is not JSON, not an entity or relation, or whose fields are not what it writes."""
    entities, relations = _read_lines(text, name)
    graph = Graph(relations=len(relations))
    for start, relation_type, end in relations:
        owner = entities.get(start)
        if owner is None:
            graph.unattached += 1
        else:
            owner.relations.append(f"{relation_type}: {end}")
    for entity in entities.values():
        if not entity.observations and not entity.relations:
            graph.empty.append(entity.name)
            continue
        facts = ([f"Type: {entity.kind}"] if entity.kind else []) + entity.relations
        text_of = "\n\n".join(part for part in ("\n".join(entity.observations), "\n".join(facts)) if part)
        origin = f"{name}, line {entity.line}"
        graph.entities.append(Candidate(entity.name, text_of, origin, KEY_PREFIX + entity.name))
    return graph


def _read_lines(text: str, name: str) -> tuple[dict[str, _Entity], list[tuple[str, str, str]]]:
    """The entities by name, in file order, and the relations (from, type, to)."""
    entities: dict[str, _Entity] = {}
    relations: list[tuple[str, str, str]] = []
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            raise BadSource(f"{name}: line {number} is not JSON; nothing was imported.") from None
        kind = record.get("type") if isinstance(record, dict) else None
        if kind == "relation":
            relations.append(_relation(record, name, number))
            continue
        if kind != "entity" or not isinstance(record.get("name"), str):
            raise BadSource(
                f"{name}: line {number} is not a server-memory entity or relation; nothing was imported."
            )
        entity = _entity(record, name, number)
        known = entities.setdefault(entity.name, entity)
        if known is not entity:  # a name twice (edited by hand): one memory, nothing of either lost
            have = set(known.observations)
            known.observations += [o for o in entity.observations if o not in have]
    return entities, relations


def _entity(record: dict[str, object], name: str, number: int) -> _Entity:
    observations = record.get("observations", [])
    if not isinstance(observations, list) or not all(isinstance(o, str) for o in observations):
        raise BadSource(
            f"{name}: line {number}: its observations are not a list of text; nothing was imported."
        )
    kind = record.get("entityType")
    if kind is not None and not isinstance(kind, str):
        raise BadSource(f"{name}: line {number}: its entityType is not text; nothing was imported.")
    entity_name = record["name"]
    assert isinstance(entity_name, str)
    return _Entity(
        entity_name, kind.strip() if kind else None, [o for o in observations if o.strip()], number
    )


def _relation(record: dict[str, object], name: str, number: int) -> tuple[str, str, str]:
    values = [record.get(key) for key in ("from", "relationType", "to")]
    if not all(isinstance(v, str) and v for v in values):
        raise BadSource(
            f"{name}: line {number}: a relation needs from, to and relationType as text; nothing was imported."
        )
    start, relation_type, end = (str(v) for v in values)
    return start, relation_type, end
