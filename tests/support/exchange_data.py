"""Data for the import and dry-run tests, in the formats the tools themselves write (checked
against their source):

- server-memory (``@modelcontextprotocol/server-memory`` 0.6.3, ``dist/index.js``,
  ``KnowledgeGraphManager.saveGraph``): ``JSON.stringify`` of ``{type, name, entityType,
  observations}`` for each entity, then of ``{type, from, to, relationType}`` for each relation,
  joined by ``"\\n"`` with no newline at the end. ``SERVER_MEMORY_V1`` and ``_V2`` are the
  bytes that server wrote when run with ``create_entities`` and ``create_relations``, then
  ``add_observations`` and one more ``create_relations``.
- basic-memory (0.24.1, ``markdown/utils.schema_to_markdown`` and
  ``file_utils.dump_frontmatter``): frontmatter ``title``, ``type``, ``permalink`` and then
  the rest (``tags`` as a block list), by ``yaml.dump`` with the safe dumper and
  ``sort_keys=False``, a blank line, then the content as ``write_note`` was given it, with
  observations ``- [category] content #tag`` and relations ``- relation_type [[Target]]``.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping
from pathlib import Path

import yaml

from store import GLOBAL, MemoryStore
from tests.support.files import write_raw

SERVER_MEMORY_V1 = (
    '{"type":"entity","name":"Ada_Lovelace","entityType":"person","observations":'
    '["Wrote the first program","Works with Babbage"]}\n'
    '{"type":"entity","name":"billing-service","entityType":"service","observations":["Runs on Fridays"]}\n'
    '{"type":"entity","name":"Empty_Thing","entityType":"concept","observations":[]}\n'
    '{"type":"relation","from":"Ada_Lovelace","to":"billing-service","relationType":"works_on"}\n'
    '{"type":"relation","from":"Ada_Lovelace","to":"Charles_Babbage","relationType":"knows"}'
)
SERVER_MEMORY_V2 = (
    '{"type":"entity","name":"Ada_Lovelace","entityType":"person","observations":'
    '["Wrote the first program","Works with Babbage","Never deploys on Fridays"]}\n'
    '{"type":"entity","name":"billing-service","entityType":"service","observations":["Runs on Fridays"]}\n'
    '{"type":"entity","name":"Empty_Thing","entityType":"concept","observations":[]}\n'
    '{"type":"relation","from":"Ada_Lovelace","to":"billing-service","relationType":"works_on"}\n'
    '{"type":"relation","from":"Ada_Lovelace","to":"Charles_Babbage","relationType":"knows"}\n'
    '{"type":"relation","from":"Empty_Thing","to":"billing-service","relationType":"describes"}'
)


def basic_memory_note(path: Path, meta: Mapping[str, object], content: str) -> None:
    """A note as basic-memory's ``write_note`` writes it (see the module's docstring)."""
    front = yaml.dump(
        meta, sort_keys=False, allow_unicode=True, default_flow_style=False, Dumper=yaml.SafeDumper
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\n{front}---\n\n{content}", "utf-8")


def leftover_move(root: Path) -> str:
    """A store whose writer was killed in the middle of a move from ``proj`` to Global: the
    file is written in Global and the record is there; recovery would finish the move (the
    history moved, the file in ``proj`` taken away). No lock file and no parse index yet."""
    store = MemoryStore(root)
    store.create(GLOBAL, "Tea", "Green tea, no sugar.")
    moving = store.create("proj", "Runner", "Use pytest -q.")
    store.change("proj", moving.id, text="Use pytest -q, always.")
    doomed = store.create("proj", "Old", "An old note.")
    store.delete("proj", doomed.id)
    write_raw(root / "global" / f"{moving.id}.md", Path(moving.location).read_bytes())
    write_raw(
        root / ".move.json", json.dumps({"from": "proj", "id": moving.id, "to": None, "new_id": moving.id})
    )
    (root / ".lock").unlink()
    shutil.rmtree(root / "history" / ".index", ignore_errors=True)
    return moving.id
