"""Memories to and from other tools' files.

``importers`` find memories in what other tools keep (pure parsers; ``server_memory`` for its
graph, ``claude_imports`` for ``@path`` imports), ``import_sources`` reads those files safely,
``splitting`` cuts one over the text limit (``--split``), ``create_check`` says whether each
would be saved or changed and ``importing`` does it, recording where each came from so a later
import changes it; ``export`` writes every memory as one Markdown document; ``sync_targets``
keeps the files other assistants read in step, between the marker lines of the
``managed_block`` (``sync_content`` says what the block holds, ``assistant_files`` which tool
reads which file, ``project_walk`` and ``target_writes`` reach and write the files).
"""

from store.exchange.export import export_markdown
from store.exchange.import_sources import read_sources
from store.exchange.importers import BadSource
from store.exchange.importing import DIGEST_KEY, ORIGIN_KEY, Outcome, Step, apply_import, counts, plan_import
from store.exchange.splitting import split_long
from store.exchange.sync_content import MemorySet, holds_words, workspace_of
from store.exchange.sync_targets import (
    SyncOptions,
    SyncReport,
    TargetPlan,
    blocks_hold,
    edited_line,
    known_targets,
    sync,
    sync_files,
)

__all__ = [
    "DIGEST_KEY",
    "ORIGIN_KEY",
    "BadSource",
    "MemorySet",
    "Outcome",
    "Step",
    "SyncOptions",
    "SyncReport",
    "TargetPlan",
    "apply_import",
    "blocks_hold",
    "counts",
    "edited_line",
    "export_markdown",
    "holds_words",
    "known_targets",
    "plan_import",
    "read_sources",
    "split_long",
    "sync",
    "sync_files",
    "workspace_of",
]
