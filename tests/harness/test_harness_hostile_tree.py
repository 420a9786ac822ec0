"""A hostile tree: links out of the root at every level, pipes where files should be, sparse
gigabyte files and alias bombs. Nothing outside the root is read, written or deleted; no read
blocks or takes memory in proportion to a file's claimed size; no parse is exponential.

Every store call here runs in a worker thread joined with a generous timeout: a hang fails
the test instead of stalling the suite (no timing is asserted)."""

from __future__ import annotations

import json
import os
import shutil
import threading
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from store import GLOBAL, Limits, MemoryStore, StoreError
from store import messages as msg
from store.read.parse_index import index_path
from tests.support.files import memory_file, write_raw

HANG_GUARD = 120.0  # seconds: only a hang comes near it
ONE_GB = 1 << 30
COULD_NOT = "The memory could not be changed: "
LINK_REASON = "is a link, and links in the memory folder are never followed."

BOMB = "".join(
    f"{name}: &{name} [{', '.join([f'*{prev}'] * 9)}]\n"
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True)
)
BOMB = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + BOMB  # about 600 bytes


def run(call: Callable[[], Any]) -> Any:
    """Run ``call`` in a thread; fail (not hang) when it does not return."""
    result: dict[str, Any] = {}

    def target() -> None:
        try:
            result["value"] = call()
        except BaseException as exc:  # handed to the test thread
            result["error"] = exc

    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    worker.join(HANG_GUARD)
    assert not worker.is_alive(), "the store blocked"
    if "error" in result:
        raise result["error"]
    return result.get("value")


def tree(folder: Path) -> dict[str, bytes | str]:
    """Everything under ``folder``, links not followed: files by content, the rest by kind."""
    found: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        rel = str(path.relative_to(folder))
        if path.is_symlink():
            found[rel] = "link -> " + os.readlink(path)
        elif path.is_dir():
            found[rel] = "folder"
        else:
            found[rel] = path.read_bytes()
    return found


class Built:
    """A store with a global memory with versions, a workspace memory, a deleted memory,
    settings and a parse index; and an outside folder beside the root."""

    def __init__(self, tmp_path: Path) -> None:
        self.root = tmp_path / "oda"
        self.outside = tmp_path / "outside"
        self.outside.mkdir()
        s = MemoryStore(self.root)
        self.g = s.create(GLOBAL, "Global one", "g text").id
        s.change(GLOBAL, self.g, text="g text 2")
        s.change(GLOBAL, self.g, text="g text 3")
        self.w = s.create("proj", "Proj one", "p text").id
        self.d = s.create(GLOBAL, "Gone", "gone text").id
        s.delete(GLOBAL, self.d)
        write_raw(self.root / "settings.yaml", "versions_kept: 3\n")
        fresh = MemoryStore(self.root)
        fresh.memories(GLOBAL)
        if fresh._index_writer is not None:
            fresh._index_writer.join()
        assert index_path(self.root).is_file()

    def link_out(self, rel: str) -> None:
        """Move ``rel`` outside and leave a link to it in its place."""
        inside = self.root / rel
        away = self.outside / rel.replace("/", "_")
        shutil.move(inside, away)
        os.symlink(away, inside)


LEVELS = [
    "global",
    "workspaces",
    "workspaces/proj",
    "history",
    "history/global",
    "history/global/{g}",
    "history/global/{g}/versions",
    "history/global/{d}/deleted.md",
    "history/global/{d}/deleted.json",
    "history/workspaces",
    "history/.index",
    "history/.index/parse-index.bin",
    "settings.yaml",
]


def attempt(call: Callable[[], Any]) -> str | None:
    """None when the change was made, else the store's refusal."""
    try:
        run(call)
    except StoreError as exc:
        return str(exc)
    return None


@pytest.mark.parametrize("level", LEVELS)
def test_a_link_out_is_never_followed_for_reading_or_writing(tmp_path: Path, level: str) -> None:
    built = Built(tmp_path)
    rel = level.format(g=built.g, d=built.d)
    built.link_out(rel)
    outside_before = tree(built.outside)
    s = MemoryStore(built.root)

    # Reading: nothing from outside is shown.
    run(s.refresh)
    globals_ = run(lambda: s.memories(GLOBAL))
    versions = run(lambda: s.versions(GLOBAL, built.g))
    deleted = run(lambda: s.deleted(GLOBAL))
    if rel == "global":
        assert globals_ == []
    if rel.startswith("workspaces"):
        assert s.workspaces() == []
    on_the_way = {"history", "history/global"}
    if rel in on_the_way | {f"history/global/{built.g}", f"history/global/{built.g}/versions"}:
        assert versions == []
    if rel in on_the_way | {f"history/global/{built.d}/deleted.md", f"history/global/{built.d}/deleted.json"}:
        assert deleted == []
    if rel == "settings.yaml":
        assert s.limits == Limits()  # not the outside file's versions_kept: 3
        assert any("is a link" in p for p in s.settings_problems())
    else:
        reasons = {str(i.path.relative_to(built.root)): i.reason for i in s.ignored()}
        assert reasons.get(rel) == msg.IGNORED_LINK_OUTSIDE, reasons

    # Writing: every change either stays inside or is refused, in the spec's words.
    refusals = {
        "create global": attempt(lambda: s.create(GLOBAL, "New", "new text")),
        "create proj": attempt(lambda: s.create("proj", "New", "new text")),
        "change": attempt(lambda: s.change(GLOBAL, built.g, text="changed 1")),
        "change again": attempt(lambda: s.change(GLOBAL, built.g, text="changed 2")),
        "restore deleted": attempt(lambda: s.restore_deleted(GLOBAL, built.d)),
        "toggle": attempt(lambda: s.set_enabled(GLOBAL, built.g, False)),
        "move": attempt(lambda: s.move(GLOBAL, built.g, "proj")),
        "delete": attempt(lambda: s.delete("proj", built.w)),
        "purge": attempt(lambda: s.purge_deleted(GLOBAL, built.d)),
    }
    unknown = {msg.UNKNOWN_ID.format(id=built.g), msg.UNKNOWN_ID.format(id=built.w)}
    for what, refusal in refusals.items():
        assert refusal is None or refusal.startswith(COULD_NOT) or refusal in unknown, (what, refusal)
    expected = {
        "global": "create global",
        "workspaces": "create proj",
        "workspaces/proj": "create proj",
        "history": "change",
        "history/global": "change",
        f"history/global/{built.g}": "change",
        f"history/global/{built.g}/versions": "change",
        f"history/global/{built.d}/deleted.md": "restore deleted",
        f"history/global/{built.d}/deleted.json": "restore deleted",
        "history/workspaces": "create proj",
    }.get(rel)
    if expected is not None:
        assert refusals[expected] == f"{COULD_NOT}{rel} {LINK_REASON}", refusals

    # Nothing outside was written, changed or deleted (trimming versions included).
    assert tree(built.outside) == outside_before


def test_a_link_that_stays_inside_the_root_is_not_followed_either(root: Path) -> None:
    s = MemoryStore(root)
    real = s.create(GLOBAL, "Real", "real text")
    os.symlink(real.path, root / "global" / "0000aaaa.md")
    (root / "workspaces").mkdir(exist_ok=True)
    os.symlink(root / "global", root / "workspaces" / "alias")
    s.refresh()
    assert [m.id for m in s.memories(GLOBAL)] == [real.id]
    assert s.workspaces() == []
    reasons = {i.path.name: i.reason for i in s.ignored()}
    assert reasons["0000aaaa.md"] == reasons["alias"] == msg.IGNORED_LINK
    refusal = attempt(lambda: s.create("alias", "T", "x"))
    assert refusal == f"{COULD_NOT}workspaces/alias {LINK_REASON}"


def test_a_dangling_link_and_a_pipe_named_like_a_memory_are_listed(root: Path) -> None:
    folder = root / "global"
    folder.mkdir(parents=True)
    os.symlink(root / "nowhere.md", folder / "0000aaaa.md")
    os.mkfifo(folder / "0000bbbb.md")
    s = MemoryStore(root)
    reasons = run(lambda: {i.path.name: i.reason for i in s.ignored()})
    assert reasons == {"0000aaaa.md": msg.IGNORED_LINK, "0000bbbb.md": msg.IGNORED_NOT_REGULAR}
    # A file that turns into a pipe is listed once it is looked at again.
    write_raw(folder / "0000cccc.md", memory_file())
    run(s.refresh)
    os.unlink(folder / "0000cccc.md")
    os.mkfifo(folder / "0000cccc.md")
    assert run(lambda: s.refresh([folder / "0000cccc.md"])) == {folder / "0000cccc.md"}
    assert {i.path.name: i.reason for i in s.ignored()}["0000cccc.md"] == msg.IGNORED_NOT_REGULAR


@contextmanager
def unblocking(path: Path) -> Iterator[None]:
    """If a reader ever blocks on the pipe ``path``, open its write end afterwards so the
    stuck thread ends (the test has failed by then)."""
    try:
        yield
    finally:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            os.close(fd)
        except OSError:
            pass


PIPE_SITES = [
    "settings.yaml",
    "history/.index/parse-index.bin",
    "history/global/{g}/versions/{version}",
    "history/global/{d}/deleted.json",
    "history/global/{d}/deleted.md",
    "global/{g}.md",
]


@pytest.mark.parametrize("site", PIPE_SITES)
def test_a_pipe_at_any_read_site_never_blocks(tmp_path: Path, site: str) -> None:
    built = Built(tmp_path)
    versions = sorted((built.root / "history" / "global" / built.g / "versions").iterdir())
    path = built.root / site.format(g=built.g, d=built.d, version=versions[0].name)
    path.unlink()
    os.mkfifo(path)
    with unblocking(path):
        s = MemoryStore(built.root)
        run(lambda: s.memories(GLOBAL))
        run(lambda: s.versions(GLOBAL, built.g))
        deleted = run(lambda: s.deleted(GLOBAL))
        run(lambda: s.refresh())
        assert run(lambda: s.limits) is not None
    if "deleted" in site:
        assert deleted == []
        assert {i.path for i in s.ignored()} >= {path}
    if site == "settings.yaml":
        assert any("not a regular file" in p for p in s.settings_problems())
    if site.startswith("global/"):
        assert {i.path: i.reason for i in s.ignored()}[path] == msg.IGNORED_NOT_REGULAR


SPARSE_SITES = [*PIPE_SITES, "history/global/{d}/deleted.md"]


@pytest.mark.parametrize("site", sorted(set(SPARSE_SITES)))
def test_a_sparse_gigabyte_file_costs_no_memory(tmp_path: Path, site: str) -> None:
    built = Built(tmp_path)
    versions = sorted((built.root / "history" / "global" / built.g / "versions").iterdir())
    path = built.root / site.format(g=built.g, d=built.d, version=versions[-1].name)
    with open(path, "r+b") as f:
        f.truncate(ONE_GB)  # sparse: no disk, and never to be read
    tracemalloc.start()
    try:
        s = MemoryStore(built.root)
        run(lambda: s.memories(GLOBAL))
        run(lambda: s.versions(GLOBAL, built.g))
        run(lambda: s.deleted(GLOBAL))
        run(lambda: s.refresh())
        run(lambda: s.limits)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 32 * 2**20, peak
    if site == "settings.yaml":
        assert s.limits == Limits()
        assert any("larger than 16384 bytes" in p for p in s.settings_problems())
    if site.startswith("global/"):
        [problem] = s.problems()
        assert problem.message == "The file is larger than 65536 bytes."


def test_an_alias_bomb_in_frontmatter_is_a_problem_and_prints_nothing_huge(root: Path) -> None:
    assert len(BOMB) < 600  # a few hundred bytes that would expand to 387 million values
    write_raw(root / "global" / "0000aaaa.md", memory_file(extra=BOMB + "x: *i\n"))
    s = MemoryStore(root)
    [problem] = run(s.problems)
    assert problem.message.startswith(
        "The frontmatter is not valid YAML: its aliases expand it to more than"
    ), problem.message
    # Changed on disk and refreshed: no deep compare of what it would expand to.
    write_raw(root / "global" / "0000aaaa.md", memory_file(title="U", extra=BOMB))
    run(s.refresh)
    assert [p.id for p in s.problems()] == ["0000aaaa"]


def test_an_alias_that_holds_itself_is_a_problem(root: Path) -> None:
    write_raw(root / "global" / "0000aaaa.md", memory_file(extra="x: &a [1, *a]\n"))
    [problem] = run(MemoryStore(root).problems)
    assert problem.message == (
        "The frontmatter is not valid YAML: an alias refers to the value that holds it"
    )


def test_an_alias_bomb_in_settings_is_a_settings_problem(root: Path) -> None:
    write_raw(root / "settings.yaml", BOMB + "versions_kept: *i\n")
    s = MemoryStore(root)
    assert run(lambda: s.limits) == Limits()
    [problem] = s.settings_problems()
    assert problem.startswith("settings.yaml is not valid YAML (its aliases expand it to more than")


def test_a_huge_settings_value_is_quoted_cut(root: Path) -> None:
    write_raw(root / "settings.yaml", "versions_kept: [" + ", ".join(["x" * 50] * 200) + "]\n")
    [problem] = MemoryStore(root).settings_problems()
    assert problem == (
        "settings.yaml: versions_kept is a list; it must be a whole number from 2 to 100. "
        "The default 10 applies."
    )


def test_an_alias_bomb_never_reaches_the_json_output(root: Path) -> None:
    import subprocess
    import sys

    write_raw(root / "global" / "0000aaaa.md", memory_file(extra=BOMB + "x: *i\n"))
    write_raw(root / "global" / "0000bbbb.md", memory_file(extra="y: &a [1, 2]\nz: [*a, *a]\n"))
    done = subprocess.run(
        [sys.executable, "-m", "oda_tui", "list", "--global", "--json", "--root", str(root)],
        capture_output=True,
        timeout=HANG_GUARD,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert len(done.stdout) < 10_000
    [memory] = json.loads(done.stdout)["memories"]
    assert memory["id"] == "0000bbbb" and memory["extra"] == {"y": [1, 2], "z": [[1, 2], [1, 2]]}


def test_a_folder_or_file_swapped_for_a_link_while_reading_is_never_gone_through(
    tmp_path: Path, stress: int
) -> None:
    """Another program keeps swapping ``global/`` and one memory file for links out of the
    root while the store reads: no text from outside is ever seen."""
    root = tmp_path / "oda"
    s = MemoryStore(root)
    inside = s.create(GLOBAL, "Inside", "inside text")
    outside = tmp_path / "outside"
    write_raw(outside / f"{inside.id}.md", memory_file(title="Outside", text="outside text"))
    write_raw(outside / "0000ffff.md", memory_file(title="Outside", text="outside text"))
    outside_file = write_raw(tmp_path / "outside.md", memory_file(title="Outside", text="outside text"))
    folder, real, file = root / "global", root / "global.real", inside.path
    stop = threading.Event()
    swaps = [0]

    def swapper() -> None:
        while not stop.is_set():
            os.rename(folder, real)
            os.symlink(outside, folder)
            os.unlink(folder)
            os.rename(real, folder)
            os.rename(file, file.with_suffix(".bak"))
            os.symlink(outside_file, file)
            os.unlink(file)
            os.rename(file.with_suffix(".bak"), file)
            swaps[0] += 1

    worker = threading.Thread(target=swapper, daemon=True)
    worker.start()
    seen: set[str] = set()
    reads = 0
    try:
        # Wait for evidence that both sides really interleaved, not for a time: enough reads and
        # swaps, and at least one read that met the real folder (a busy machine may need more
        # reads for that; the cap only guards against a hang).
        while reads < 300 * stress or swaps[0] < 100 * stress or "Inside" not in seen:
            assert worker.is_alive()
            assert reads < 200_000 * stress, "no read ever met the real folder"
            fresh = MemoryStore(root) if reads % 10 == 0 else s
            try:
                fresh.refresh([file]) if reads % 2 else fresh.refresh()
                seen |= {m.title for m in fresh.memories(GLOBAL)} | {m.text for m in fresh.memories(GLOBAL)}
            except OSError:
                pass  # a folder missing for an instant is the other program's doing
            reads += 1
    finally:
        stop.set()
        worker.join(HANG_GUARD)
    assert "Outside" not in seen and "outside text" not in seen
    assert "Inside" in seen
