"""Keeping the files other assistants read in step with the memories the person would share.

Each target is a file in the folder synced: a project folder, whose files (``AGENTS.md``,
``CLAUDE.md``, ``.github/copilot-instructions.md``…) get one workspace's memories, or the home
folder, whose user-level files (``~/.claude/CLAUDE.md``, ``~/.codex/AGENTS.md``…) get Global's.
What goes in is the block the memories make (``block_content``: headings kept below each
title, ``@`` imports quoted), between the markers of the ``managed_block``; a ``.mdc`` file
(Cursor's rules) is owned whole.

A sync reads every target first (``project_walk``: no link out of the folder followed, every
read bounded), refuses the whole sync when any target or memory is refused, then writes every
file that is out of step or none (``target_writes``); a target another program saved while it
was being written is put back and the sync redone.
"""

from __future__ import annotations

import os
import posixpath
import stat
from dataclasses import dataclass, field
from pathlib import Path

from store.checks.secrets import secret_kinds
from store.exchange import target_writes
from store.exchange.assistant_files import PROJECT_TARGETS, owned, readers, user_targets
from store.exchange.block_markdown import imports
from store.exchange.managed_block import (
    BlockPlan,
    BlockProblem,
    Status,
    block_end_byte,
    find_block,
    marker_in,
    plan_block,
    plan_owned,
    without_block,
)
from store.exchange.project_walk import Place, TargetRefused, Walker, read_entry
from store.exchange.sync_content import MemorySet, block_content, holds_words, workspace_of
from store.memory_store import MemoryStore
from store.messages import describe_kinds
from store.model import ChatEntry, Scope

#: Attempts at a sync whose targets other programs keep saving while it writes.
ATTEMPTS = 3
#: The imports of one file that are looked at (a file of instructions names a few).
MAX_IMPORTS = 64


@dataclass(frozen=True, slots=True)
class SyncOptions:
    """How a sync goes: ``force`` overwrites a hand edit or another set's block; ``check``
    writes nothing; ``allow_secrets`` lets secret-looking text through; ``held_back``: the
    memories (scope, id) left out (an agent's text the person has not reviewed); ``at_top``
    puts the block after the first heading."""

    force: bool = False
    check: bool = False
    allow_secrets: bool = False
    held_back: frozenset[tuple[Scope, str]] = frozenset()
    at_top: bool = False


@dataclass(frozen=True, slots=True)
class TargetPlan:
    """One target: as named, where it is (links followed), what it holds now and what sync
    makes it; ``plan`` None and ``once_in`` set: its memories are in another target only."""

    name: str
    path: str
    old: bytes | None  # None: the file does not exist yet
    plan: BlockPlan | None
    once_in: str | None = None

    @property
    def status(self) -> Status | str:
        """``in step``, ``added``, ``updated``, ``edited`` (a hand edit, left as it is), or
        ``left out`` (nothing of it to write: the memories are in ``once_in``)."""
        return "left out" if self.plan is None else self.plan.status

    @property
    def new(self) -> bytes:
        """The file's bytes once synced."""
        return (self.old or b"") if self.plan is None else self.plan.text.encode("utf-8")

    @property
    def needs_write(self) -> bool:
        """True when syncing would change the file."""
        return self.status in ("added", "updated")


@dataclass
class SyncReport:
    """What a sync found and did: each target's plan, the refusals (nothing was written when
    there is any), the names written, notes (what went where), warnings, and how many
    memories were held back."""

    memories: MemorySet
    plans: list[TargetPlan] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    held_back: int = 0

    @property
    def edited(self) -> list[TargetPlan]:
        """The targets whose block was edited by hand since the last sync (left as they are)."""
        return [p for p in self.plans if p.status == "edited"]

    @property
    def out_of_step(self) -> list[TargetPlan]:
        """The targets that do not hold what they would after a sync."""
        return [p for p in self.plans if p.status not in ("in step", "left out")]


def edited_line(name: str) -> str:
    """The refusal of a target whose block was edited by hand."""
    return (
        f"{name}: its managed block was edited by hand since the last sync, so it was left as it is; "
        "move the edit into a memory, or sync again with --force to overwrite it."
    )


# --- what goes in ------------------------------------------------------------------------------


def shared_entries(
    store: MemoryStore, memories: MemorySet, held_back: frozenset[tuple[Scope, str]]
) -> tuple[list[ChatEntry], int]:
    """The memories that go into the block (those a chat receives, of the set's scopes, in
    the chat's order), and how many of them were held back."""
    scopes: list[Scope] = [None] if memories.workspace is None else [memories.workspace]
    if memories.with_global:
        scopes = [None, *scopes]
    entries: list[ChatEntry] = []
    held = 0
    for scope in scopes:
        for memory in store.memories(scope):
            if not memory.enabled:
                continue
            if (scope, memory.id) in held_back:
                held += 1
                continue
            entries.append(ChatEntry(memory.id, scope, memory.title, memory.text))
    return entries, held


def secret_refusals(entries: list[ChatEntry]) -> list[str]:
    """One refusal per memory whose title or text looks like it holds a secret."""
    refusals = []
    for entry in entries:
        kinds = secret_kinds(entry.title, entry.text)
        if kinds:
            where = "Global" if entry.scope is None else f"workspace {entry.scope}"
            refusals.append(
                f'The memory "{entry.title}" ({where}, id {entry.id}) looks like it holds '
                f"{describe_kinds(kinds)}: sync writes nothing secret-looking into another program's "
                "files, so nothing was written. Change that memory, or sync with --allow-secrets "
                "to write it anyway."
            )
    return refusals


# --- reading the targets --------------------------------------------------------------------


@dataclass
class _Found:
    """A target as read: where it is, its bytes, text and stat (None: no file yet)."""

    name: str
    place: Place
    raw: bytes | None
    text: str | None
    st: os.stat_result | None
    names: list[str] = field(default_factory=list)  # every name given for this file


def _read(walker: Walker, name: str) -> _Found:
    place = walker.locate(name)
    found = None if place.missing else read_entry(place.fd, place.entry, name)
    if found is None:
        return _Found(name, place, None, None, None, [name])
    raw, st = found
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise TargetRefused(
            f"{name}: it is not UTF-8 text, so it was left as it is; nothing was written."
        ) from None
    return _Found(name, place, raw, text, st, [name])


def _check_set(found: _Found, memories: MemorySet, force: bool) -> None:
    """Refuse a block that holds another set's memories (unless ``force``)."""
    if found.text is None or force:
        return
    try:
        block = find_block(found.text)
    except BlockProblem:
        return  # refused with its reason when planned
    if block is None or block.holds is None:
        return
    if workspace_of(block.holds) != workspace_of(memories.holds):
        raise TargetRefused(
            f"{found.name}: its block holds the memories of {holds_words(block.holds)}, not those of "
            f"{memories.words}; sync those into it, or run again with --force to replace them; "
            "nothing was written."
        )


# --- writing each memory once ---------------------------------------------------------------


def _imported(walker: Walker, found: _Found, memories: MemorySet) -> list[tuple[str, str]]:
    """The files ``found`` imports (``@path``, as the tool reading it expands them): each
    import as written and the path it reaches inside the folder synced."""
    home = walker.base if memories.user_level else None
    if found.text is None or not any(_expands(n, home) for n in [found.place.path, *found.names]):
        return []
    try:
        outside = without_block(found.text)
    except BlockProblem:
        return []
    reached = []
    for path in imports(outside)[:MAX_IMPORTS]:
        relative = _import_path(walker, found, path, memories)
        if relative is None:
            continue
        try:
            reached.append((path, walker.locate(relative).path))
        except TargetRefused:
            continue
    return reached


def _expands(name: str, home: Path | None) -> bool:
    return any(r.imports for r in readers(name, home=home))


def _import_path(walker: Walker, found: _Found, path: str, memories: MemorySet) -> str | None:
    if path.startswith("~/"):
        return path[2:] if memories.user_level else None
    if os.path.isabs(path):
        try:
            return os.path.relpath(path, walker.base) if Path(path).is_relative_to(walker.base) else None
        except ValueError:
            return None
    joined = posixpath.normpath(posixpath.join(found.place.folder, path))
    return None if joined.startswith("..") else joined


def _once(walker: Walker, targets: list[_Found], memories: MemorySet) -> dict[str, tuple[str, str]]:
    """The targets that get no memories of their own, by path: each with the target that
    holds them for it and why (another tool already reads them there)."""
    by_path = {t.place.path: t for t in targets}
    once: dict[str, tuple[str, str]] = {}
    for target in targets:
        for written, path in _imported(walker, target, memories):
            holder = by_path.get(path)
            if holder is not None and holder is not target and path not in once:
                once[target.place.path] = (holder.name, f"{target.name} imports {holder.name} (@{written})")
                break
    agents = by_path.get("AGENTS.md")
    if agents is not None and not memories.user_level and "AGENTS.md" not in once:
        for target in targets:
            if target.place.path.startswith(".cursor/rules/") and owned(target.place.path):
                once.setdefault(
                    target.place.path, (agents.name, f"Cursor reads {agents.name} as well as {target.name}")
                )
    return once


# --- planning ---------------------------------------------------------------------------------


def _plan(found: _Found, content: str, memories: MemorySet, options: SyncOptions) -> BlockPlan:
    holds = memories.holds
    if owned(found.place.path):
        return plan_owned(found.text, content, holds=holds, force=options.force)
    return plan_block(found.text or "", content, holds=holds, force=options.force, at_top=options.at_top)


def _plan_once(
    found: _Found, holder: str, why: str, memories: MemorySet, options: SyncOptions
) -> tuple[BlockPlan | None, str]:
    """A target whose memories are in ``holder``: an empty block where it has one, else
    nothing written."""
    has_block = found.text is not None and marker_in(found.text)
    plan = _plan(found, "", memories, options) if has_block else None
    rest = "its block is left empty." if plan is not None else f"{found.name} is not written."
    return plan, f"{why}, so the memories are written once, into {holder}; {rest}"


def _limit_warnings(found: _Found, plan: BlockPlan, home: Path | None, at_top: bool) -> list[str]:
    """A warning for each tool that reads the file and stops before the block's end."""
    end = block_end_byte(plan.text)
    if end is None:
        return []
    warnings = []
    seen: set[str] = set()
    for name in [found.place.path, *found.names]:
        for reader in readers(name, home=home):
            if reader.limit is None or end <= reader.limit or reader.tool in seen:
                continue
            seen.add(reader.tool)
            hint = "" if at_top else " Sync with --at top to put the block after the file's first heading."
            warnings.append(
                f"{found.name}: the block ends {end:,} bytes into the file, past the "
                f"{reader.limit // 1024} KiB {reader.tool} reads by default ({reader.setting}); "
                f"{reader.tool} would not see the memories past that point.{hint}"
            )
    return warnings


def _read_only(found: _Found) -> str | None:
    if found.st is None or found.st.st_mode & stat.S_IWUSR:
        return None
    return (
        f"{found.name}: it is read-only (mode {stat.S_IMODE(found.st.st_mode):04o}), so it was left as it "
        "is; make it writable to sync it; nothing was written."
    )


def _gather(
    walker: Walker, names: list[str], memories: MemorySet, options: SyncOptions, report: SyncReport
) -> list[_Found]:
    """Every target read (a file named twice, through a link, once), or refusals."""
    targets: list[_Found] = []
    by_path: dict[str, _Found] = {}
    for name in names:
        try:
            found = _read(walker, name)
            _check_set(found, memories, options.force)
        except TargetRefused as exc:
            report.refusals.append(str(exc))
            continue
        same = by_path.get(found.place.path)
        if same is not None:
            same.names.append(name)
            continue
        by_path[found.place.path] = found
        targets.append(found)
    return targets


def plan_all(
    walker: Walker, names: list[str], content: str, memories: MemorySet, options: SyncOptions
) -> tuple[SyncReport, list[target_writes.Write]]:
    """Read and plan every target; the writes a sync would make (none when refused)."""
    report = SyncReport(memories)
    targets = _gather(walker, names, memories, options, report)
    once = _once(walker, targets, memories)
    writes: list[target_writes.Write] = []
    for found in targets:
        holder = once.get(found.place.path)
        try:
            if holder is None:
                planned = _plan(found, content, memories, options)
                plan: BlockPlan | None = planned
                home = walker.base if memories.user_level else None
                report.warnings += _limit_warnings(found, planned, home, options.at_top)
            else:
                plan, note = _plan_once(found, *holder, memories, options)
                report.notes.append(note)
        except BlockProblem as exc:
            report.refusals.append(f"{found.name}: {exc}; nothing was written.")
            continue
        for name in found.names:
            report.plans.append(
                TargetPlan(name, found.place.path, found.raw, plan, None if holder is None else holder[0])
            )
        target = report.plans[-1]
        if target.needs_write:
            refusal = _read_only(found)
            if refusal is not None:
                report.refusals.append(refusal)
                continue
            st = found.st
            writes.append(
                target_writes.Write(
                    found.place,
                    found.raw,
                    target.new,
                    None if st is None else stat.S_IMODE(st.st_mode),
                    None if st is None else (st.st_uid, st.st_gid),
                )
            )
    return report, writes


def sync_files(
    base: Path, names: list[str], content: str, memories: MemorySet, options: SyncOptions = SyncOptions()
) -> SyncReport:
    """Keep ``names`` (targets in the folder ``base``) in step with ``content`` (a block's
    content, see ``block_content``), all or nothing: when any target is refused, or was edited
    by hand (and not ``force``), nothing is written. With ``check`` nothing is written in any
    case (the report says what is out of step)."""
    for attempt in range(ATTEMPTS):
        try:
            walker = Walker(base)
        except TargetRefused as exc:
            return SyncReport(memories, refusals=[str(exc)])
        with walker:
            report, writes = plan_all(walker, names, content, memories, options)
            if options.check or report.refusals or report.edited:
                return report
            try:
                report.warnings += target_writes.write_files(walker, writes)
            except target_writes.Raced as exc:
                if attempt + 1 < ATTEMPTS:
                    continue  # everything was put back: read it all again
                report.refusals.append(f"{exc}, {ATTEMPTS} times; nothing was written. Run the sync again.")
                return report
            except TargetRefused as exc:
                report.refusals.append(f"{exc}; nothing was written.")
                return report
        written = {w.place.path for w in writes}
        report.written = [p.name for p in report.plans if p.path in written]
        return report
    raise AssertionError("unreachable")  # pragma: no cover


def sync(
    store: MemoryStore,
    base: Path,
    names: list[str],
    memories: MemorySet,
    options: SyncOptions = SyncOptions(),
) -> SyncReport:
    """Keep ``names`` (targets in the folder ``base``) in step with the memories of
    ``memories`` the person would share: refused when one of them looks like it holds a
    secret (unless ``allow_secrets``), those in ``held_back`` left out (counted)."""
    entries, held = shared_entries(store, memories, options.held_back)
    refusals = [] if options.allow_secrets else secret_refusals(entries)
    try:
        content = block_content(entries)
    except BlockProblem as exc:
        refusals.append(f"{exc}; nothing was written.")
        content = ""
    if refusals:
        return SyncReport(memories, refusals=refusals, held_back=held)
    report = sync_files(base, names, content, memories, options)
    report.held_back = held
    if memories.with_global:
        report.notes.insert(
            0,
            "Global memories are written into these project files too (--with-global): whoever reads "
            "the project reads them.",
        )
    return report


def known_targets(base: Path, *, home: Path | None = None) -> list[str]:
    """The known assistant files in ``base`` that already hold a managed block (a sync with no
    target named keeps these in step); with ``home``, ``base`` is the home folder and these are
    the user-level files."""
    names = user_targets(home) if home is not None else PROJECT_TARGETS
    return [name for name, text in _texts(base, names).items() if text is not None and marker_in(text)]


def blocks_hold(base: Path, names: list[str] | tuple[str, ...]) -> dict[str, str | None]:
    """The set of memories each target's block names (``workspace:web``…; None: no block, or
    none named)."""
    held: dict[str, str | None] = {}
    for name, text in _texts(base, names).items():
        block = None
        if text is not None:
            try:
                block = find_block(text)
            except BlockProblem:
                block = None
        held[name] = None if block is None else block.holds
    return held


def _texts(base: Path, names: list[str] | tuple[str, ...]) -> dict[str, str | None]:
    """Each target's text (None: missing, or not one sync could have written)."""
    texts: dict[str, str | None] = {}
    try:
        walker = Walker(base)
    except TargetRefused:
        return dict.fromkeys(names)
    with walker:
        for name in names:
            try:
                texts[name] = _read(walker, name).text
            except TargetRefused:
                texts[name] = None
    return texts
