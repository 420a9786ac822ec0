"""Keeping the files other assistants read in step with what a chat receives.

Each target is a file in a project folder: ``AGENTS.md``, ``CLAUDE.md``,
``.github/copilot-instructions.md`` get a managed block (``store.managed_block``); a ``.mdc``
file (Cursor's rules) is owned whole. The store's file rules hold: only regular files, no link
followed out of the project folder (a link inside it, ``CLAUDE.md`` -> ``AGENTS.md``, is
written through), every read bounded, every write atomic. ``plan`` only reads; ``write`` writes
what a plan found out of step, and nothing when a file changed since it was read.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from store.disk.atomic import write_atomic
from store.disk.safe_io import TooLarge, Unsafe, read_regular
from store.exchange.managed_block import BlockPlan, BlockProblem, Status, marker_in, plan_block, plan_owned

#: The most of a target that is read: an instructions file is a few kilobytes.
TARGET_MAX_BYTES = 1024 * 1024
#: The files a sync with no target named keeps in step, when they already hold a block.
KNOWN_TARGETS = ("AGENTS.md", "CLAUDE.md", ".github/copilot-instructions.md", ".cursor/rules/oda-memory.mdc")
#: A new target's mode (an existing one keeps its own): readable as a checked-in file is.
NEW_FILE_MODE = 0o644


class TargetRefused(Exception):
    """A target that cannot be synced; ``str(err)`` is one line naming it."""


@dataclass(frozen=True, slots=True)
class TargetPlan:
    """One target: as named, where it really is, what it holds now and what sync makes it."""

    name: str
    path: Path
    old: bytes | None  # None: the file does not exist yet
    plan: BlockPlan
    mode: int

    @property
    def status(self) -> Status:
        """``in step``, ``added``, ``updated`` or ``edited`` (a hand edit, left as it is)."""
        return self.plan.status

    @property
    def new(self) -> bytes:
        """The file's bytes once synced."""
        return self.plan.text.encode("utf-8")

    @property
    def needs_write(self) -> bool:
        """True when syncing would change the file."""
        return self.status in ("added", "updated")


def owned(path: Path | str) -> bool:
    """True for a file the tool owns whole (Cursor's ``.mdc`` rules)."""
    return os.fspath(path).endswith(".mdc")


def resolve(project: Path, name: str) -> Path:
    """Where target ``name`` (relative to ``project``, or absolute within it) really is: a
    link is followed only while it stays in the project folder."""
    base = Path(os.path.realpath(project))
    given = Path(os.path.abspath(base / name))
    if not _inside(given, base):
        raise TargetRefused(f"{name}: it is outside the project folder {base}; nothing was written.")
    real = Path(os.path.realpath(given))
    if not _inside(real, base):
        raise TargetRefused(
            f"{name}: it leads to {real}, outside the project folder {base}; links out are never "
            "followed, and nothing was written."
        )
    return real


def _inside(path: Path, base: Path) -> bool:
    return path != base and path.is_relative_to(base)


def read_target(project: Path, name: str, path: Path) -> tuple[str | None, bytes | None, int]:
    """The target's text and bytes (None, None when it does not exist) and its mode."""
    base = Path(os.path.realpath(project))
    try:
        raw = read_regular(base, path, TARGET_MAX_BYTES)
        mode = stat.S_IMODE(os.lstat(path).st_mode)
    except FileNotFoundError:
        return None, None, NEW_FILE_MODE
    except TooLarge:
        raise TargetRefused(
            f"{name}: it is larger than {TARGET_MAX_BYTES // 1024} KiB, too large for an instructions "
            "file; nothing was written."
        ) from None
    except Unsafe as exc:
        raise TargetRefused(f"{name}: {exc.reason}; nothing was written.") from None
    except OSError as exc:
        raise TargetRefused(
            f"{name}: it could not be read: {exc.strerror or exc}; nothing was written."
        ) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise TargetRefused(
            f"{name}: it is not UTF-8 text, so it was left as it is; nothing was written."
        ) from None
    return text, raw, mode


def plan(project: Path, name: str, chat_text: str, *, force: bool = False) -> TargetPlan:
    """What syncing target ``name`` to ``chat_text`` (exactly what a chat receives) comes to;
    nothing is written. ``TargetRefused`` for a file that cannot be synced."""
    path = resolve(project, name)
    text, raw, mode = read_target(project, name, path)
    try:
        if owned(path):
            block_plan = plan_owned(text, chat_text, force=force)
        else:
            block_plan = plan_block(text or "", chat_text, force=force)
    except BlockProblem as exc:
        raise TargetRefused(f"{name}: {exc}; nothing was written.") from None
    return TargetPlan(name, path, raw, block_plan, mode)


def write(project: Path, target: TargetPlan) -> None:
    """Write a planned target that is out of step, atomically, keeping its mode; refused when
    the file changed since it was planned (read it again and sync again)."""
    if not target.needs_write:
        return
    base = Path(os.path.realpath(project))
    _text, now, _mode = read_target(project, target.name, target.path)
    if now != target.old:
        raise TargetRefused(
            f"{target.name}: it changed while it was being synced; nothing was written to it."
        )
    try:
        write_atomic(target.path, target.new, root=base, mode=target.mode)
    except Unsafe as exc:
        raise TargetRefused(f"{target.name}: {exc.reason}; nothing was written to it.") from None
    except OSError as exc:
        raise TargetRefused(f"{target.name}: it could not be written: {exc.strerror or exc}.") from None


def known_targets(project: Path) -> list[str]:
    """The known assistant files in ``project`` that already hold a managed block (a sync with
    no target named keeps these in step)."""
    found = []
    for name in KNOWN_TARGETS:
        try:
            path = resolve(project, name)
            text, _raw, _mode = read_target(project, name, path)
        except TargetRefused:
            continue  # not a file sync could have written: left out, as a file with no block is
        if text is not None and marker_in(text):
            found.append(name)
    return found


@dataclass(slots=True)
class SyncReport:
    """What a sync of several targets found and did."""

    plans: list[TargetPlan]
    refusals: list[str]
    written: list[str]

    @property
    def edited(self) -> list[TargetPlan]:
        """The targets whose block was edited by hand since the last sync (left as they are)."""
        return [p for p in self.plans if p.status == "edited"]

    @property
    def out_of_step(self) -> list[TargetPlan]:
        """The targets that do not hold what a chat receives now."""
        return [p for p in self.plans if p.status != "in step"]


def edited_line(name: str) -> str:
    """The refusal of a target whose block was edited by hand."""
    return (
        f"{name}: its managed block was edited by hand since the last sync, so it was left as it is; "
        "move the edit into a memory, or sync again with --force to overwrite it."
    )


def sync(
    project: Path, names: list[str], chat_text: str, *, force: bool = False, check: bool = False
) -> SyncReport:
    """Keep ``names`` (targets in ``project``) in step with ``chat_text``, all or nothing:
    when any target is refused or was edited by hand (and not ``force``), nothing is written.
    With ``check`` nothing is written in any case (the report says what is out of step)."""
    report = SyncReport([], [], [])
    for name in names:
        try:
            report.plans.append(plan(project, name, chat_text, force=force))
        except TargetRefused as exc:
            report.refusals.append(str(exc))
    if check or report.refusals or report.edited:
        return report
    done: dict[Path, bool] = {}  # each file once, and whether it was written
    for target in report.plans:
        if target.path not in done:  # else a second name for it (a link inside the project)
            try:
                write(project, target)
            except TargetRefused as exc:
                report.refusals.append(str(exc))
                continue
            done[target.path] = target.needs_write
        if done[target.path]:
            report.written.append(target.name)
    return report
