"""Opening the store a command names, and finding scopes and ids in it."""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass

from store import GLOBAL, MemoryStore, Problem, Scope, StoreError, is_valid_id, is_valid_key, scope_label

from ..config.paths import ENV_VAR, resolve_root, root_problem
from .errors import BAD_KEY, CommandError
from .output import note

UNKNOWN_ID = 'No memory has the id "{id}" {where}; {listing} shows the ids.'
AMBIGUOUS = 'The id "{id}" is in more than one scope ({scopes}); choose one with --global or --workspace KEY.'


def open_store(args: argparse.Namespace, *, read_only: bool = False) -> MemoryStore:
    """The store at ``--root`` > ``$ODA_HOME`` > the platform folder (``read_only``: opened only
    to look, as a dry run does: nothing in it is written).

    A root that does not exist is an empty store (a fresh install); when it was named on purpose
    a one-line note says so, as a typo would otherwise look like an empty store.
    """
    root = resolve_root(args.root)
    if not root.exists():
        if args.root or os.environ.get(ENV_VAR):
            note(f"Note: the folder {root} does not exist, so it holds no memories.")
        return MemoryStore(root, read_only=read_only)
    problem = root_problem(root)
    if problem is not None:
        raise CommandError(problem)
    return MemoryStore(root, read_only=read_only)


def workspace_key(key: str) -> str:
    """A ``--workspace`` value, refused in one line when it is not a valid key."""
    if not is_valid_key(key):
        raise CommandError(BAD_KEY.format(key=key))
    return key


def chosen_scopes(store: MemoryStore, args: argparse.Namespace) -> list[Scope]:
    """The scopes ``--global`` / ``--workspace KEY`` / ``--all`` name; every scope by default."""
    if getattr(args, "global_", False):
        return [GLOBAL]
    workspace = getattr(args, "workspace", None)
    if workspace is not None:
        key = workspace_key(workspace)
        if key not in store.workspaces():
            note(f'Note: there is no workspace "{key}" in {store.root}.')
        return [key]
    return [GLOBAL, *store.workspaces()]


@dataclass(frozen=True)
class Found:
    """Where an id was found: its scope and, for a problem file, the problem."""

    scope: Scope
    problem: Problem | None = None


def unknown_id(store: MemoryStore, memory_id: str, scopes: list[Scope] | None = None) -> CommandError:
    """The refusal of an id that is not there, in words for a person at a shell: where it was
    looked for (``scopes``: the one scope named, else the whole store) and how to see the ids.
    (The store's own message speaks to a chat, which calls ``memory_list``.)"""
    if scopes == [GLOBAL]:
        where, listing = "in Global", "oda-tui list --global"
    elif scopes is not None and len(scopes) == 1:
        where, listing = f'in workspace "{scopes[0]}"', f"oda-tui list --workspace {scopes[0]}"
    else:
        where, listing = f"in {store.root}", "oda-tui list"
    return CommandError(UNKNOWN_ID.format(id=memory_id, where=where, listing=listing))


def find_id(
    store: MemoryStore,
    memory_id: str,
    scopes: list[Scope],
    *,
    narrowed: bool = False,
    with_history: bool = False,
) -> Found:
    """The one scope holding ``memory_id`` (a memory or a problem file; or, ``with_history``,
    any kept versions). An unknown id is refused naming where it was looked for (``narrowed``:
    the one scope asked for, else the whole store); an id in several scopes asks for
    ``--global`` or ``--workspace``.
    """
    if not is_valid_id(memory_id):
        raise unknown_id(store, memory_id, scopes if narrowed else None)
    problems = {(p.scope, p.id): p for p in store.problems()}
    found: list[Found] = []
    for scope in scopes:
        problem = problems.get((scope, memory_id))
        if problem is not None:
            found.append(Found(scope, problem))
        elif _has_memory(store, scope, memory_id) or (
            with_history and _has_versions(store, scope, memory_id)
        ):
            found.append(Found(scope))
    if not found:
        raise unknown_id(store, memory_id, scopes if narrowed else None)
    if len(found) > 1:
        names = ", ".join(scope_label(f.scope) if f.scope is None else f"workspace {f.scope}" for f in found)
        raise CommandError(AMBIGUOUS.format(id=memory_id, scopes=names))
    return found[0]


def _has_memory(store: MemoryStore, scope: Scope, memory_id: str) -> bool:
    try:
        store.get(scope, memory_id)
    except StoreError:
        return False
    return True


def _has_versions(store: MemoryStore, scope: Scope, memory_id: str) -> bool:
    try:
        return bool(store.versions(scope, memory_id))
    except StoreError:
        return False
