"""Another program's edits, kept as versions the moment the app sees them.

A change would keep an outside edit as a version anyway, but only if one comes: a file edited
outside and then removed outside would lose that edit. So each memory file the watch reports
changed gets its text kept (once per text: the store writes nothing when history has it).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from store import GLOBAL, Memory, MemoryStore, Scope, StoreError, is_valid_id, is_valid_key


def memory_of(root: Path, path: Path) -> tuple[Scope, str] | None:
    """The scope and id of the memory file at ``path``, or None when it is not one."""
    if path.suffix != ".md" or not is_valid_id(path.stem):
        return None
    folder = path.parent
    if folder == root / "global":
        return GLOBAL, path.stem
    if folder.parent == root / "workspaces" and is_valid_key(folder.name):
        return folder.name, path.stem
    return None


def keep_outside_edits(store: MemoryStore, changed: Iterable[Path]) -> int:
    """Keep the text of each memory in ``changed`` as an ``external`` version where history
    does not hold it yet; how many versions were kept. Call it under the session's lock."""
    kept = 0
    for path in changed:
        found = memory_of(store.root, Path(path))
        if found is None or not isinstance(store.find(*found), Memory):
            continue  # removed, or a problem file: nothing to keep (problem files are never rewritten)
        try:
            kept += store.keep_outside_edit(*found)
        except StoreError:  # gone or broken between the refresh and now
            continue
    return kept
