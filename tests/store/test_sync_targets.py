"""Syncing target files on disk: the store's file rules for the person's files. Idempotence,
every byte outside the block kept, all or nothing, no link gone through, modes, and a save
another program makes while sync runs never replaced."""

from __future__ import annotations

import errno
import os
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from store.disk import swap
from store.exchange import target_writes
from store.exchange.managed_block import BEGIN, END, find_block, render_block
from store.exchange.sync_targets import known_targets
from tests.support.faults import Faults
from tests.support.sync_project import CONTENT, FOUR, LATER, WEB, files, rename_save, sync_web


@pytest.fixture
def umask_027() -> Iterator[None]:
    """A umask that keeps new files and folders from other users (0027)."""
    old = os.umask(0o027)
    try:
        yield
    finally:
        os.umask(old)


def test_a_second_sync_writes_nothing_same_bytes_same_mtime(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").write_bytes(b"# Mine\r\n\r\nkeep\r\n")
    names = ["AGENTS.md", "CLAUDE.md", ".github/copilot-instructions.md", "docs/GEMINI.md"]
    first = sync_web(tmp_path, names)
    assert first.refusals == [] and first.written == names
    before = {n: os.stat(tmp_path / n) for n in names}
    contents = {n: (tmp_path / n).read_bytes() for n in names}
    again = sync_web(tmp_path, names)
    assert again.written == [] and [p.status for p in again.plans] == ["in step"] * 4
    for name in names:
        now = os.stat(tmp_path / name)
        assert (now.st_mtime_ns, now.st_ino) == (before[name].st_mtime_ns, before[name].st_ino)
        assert (tmp_path / name).read_bytes() == contents[name]
    assert contents["CLAUDE.md"].startswith(b"# Mine\r\n\r\nkeep\r\n\r\n" + BEGIN.encode())


def test_a_temp_name_an_earlier_sync_left_on_its_target_is_tidied_and_nothing_else(
    tmp_path: Path,
) -> None:
    # Without the kernel's rename a new file is linked in and its temp name removed; when that
    # removal failed, the temp name is a second name of the target: the next sync removes it.
    # A leftover holding other bytes (what a target held before) stays for the person.
    first = sync_web(tmp_path, ["AGENTS.md"])
    assert first.written == ["AGENTS.md"]
    os.link(tmp_path / "AGENTS.md", tmp_path / ".AGENTS.md.0badcafe.oda-sync")
    (tmp_path / ".AGENTS.md.00c0ffee.oda-sync").write_bytes(b"what it held before\n")
    again = sync_web(tmp_path, ["AGENTS.md"], LATER)
    assert again.written == ["AGENTS.md"]
    assert not (tmp_path / ".AGENTS.md.0badcafe.oda-sync").exists()
    assert (tmp_path / ".AGENTS.md.00c0ffee.oda-sync").read_bytes() == b"what it held before\n"


@pytest.mark.parametrize(
    "text",
    [
        # a note after the end marker, on its line
        "# Notes\n\n{block} keep this note\nafter\n",
        # a BOM before a block at the top of the file
        "\ufeff{block}\n# Notes\n",
        # the begin marker indented (and so the end marker)
        "# Notes\n\n  {block}\n",
        # CRLF, a note after the begin marker too
        "# Notes\r\n\r\n{crlf_block} (mine)\r\n",
    ],
)
def test_every_byte_on_the_marker_lines_is_kept_and_an_unchanged_sync_writes_nothing(
    tmp_path: Path, text: str
) -> None:
    block = render_block(CONTENT, "\n", WEB.holds)
    crlf = render_block(CONTENT, "\r\n", WEB.holds)
    if "  {block}" in text:
        block = block.replace(f"\n{END}", f"\n  {END}")
    marker_note = "{crlf_block} (mine)"
    if marker_note in text:  # a note after the begin marker's -->
        crlf = crlf.replace("-->\r\n", "--> (mine)\r\n", 1)
        text = text.replace(marker_note, "{crlf_block}")
    original = text.format(block=block, crlf_block=crlf).encode("utf-8")
    agents = tmp_path / "AGENTS.md"
    agents.write_bytes(original)
    before = os.stat(agents)
    report = sync_web(tmp_path, ["AGENTS.md"])
    assert [p.status for p in report.plans] == ["in step"] and report.written == []
    assert agents.read_bytes() == original
    assert os.stat(agents).st_mtime_ns == before.st_mtime_ns
    # A change of the memories rewrites the block's content and its marker, nothing else.
    changed = sync_web(tmp_path, ["AGENTS.md"], LATER)
    assert changed.written == ["AGENTS.md"]
    now = agents.read_bytes().decode("utf-8")
    eol = "\r\n" if "\r\n" in text else "\n"
    expected = original.decode("utf-8").replace(CONTENT.replace("\n", eol), LATER.replace("\n", eol))
    old_marker = render_block(CONTENT, eol, WEB.holds).split(eol)[0]
    new_marker = render_block(LATER, eol, WEB.holds).split(eol)[0]
    assert now == expected.replace(old_marker, new_marker)


@pytest.mark.usefixtures("umask_027")
def test_a_target_keeps_its_mode_and_new_files_and_folders_follow_the_umask(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").write_text("hello\n")
    os.chmod(tmp_path / "AGENTS.md", 0o604)
    report = sync_web(tmp_path, ["AGENTS.md", "CLAUDE.md", ".github/copilot-instructions.md"])
    assert report.refusals == []

    def mode(name: str) -> int:
        return stat.S_IMODE(os.stat(tmp_path / name).st_mode)

    assert mode("AGENTS.md") == 0o604
    assert mode("CLAUDE.md") == 0o640
    assert mode(".github/copilot-instructions.md") == 0o640
    assert mode(".github") == 0o750  # as mkdir makes any folder: 0777 less the umask


def test_a_read_only_target_is_refused_with_its_reason_and_not_replaced(tmp_path: Path) -> None:
    agents = tmp_path / "AGENTS.md"
    agents.write_text("# Read only\n")
    os.chmod(agents, 0o444)
    report = sync_web(tmp_path, ["AGENTS.md", "CLAUDE.md"])
    assert report.refusals == [
        "AGENTS.md: it is read-only (mode 0444), so it was left as it is; make it writable to sync it; "
        "nothing was written."
    ]
    assert agents.read_text() == "# Read only\n" and stat.S_IMODE(agents.stat().st_mode) == 0o444
    assert not (tmp_path / "CLAUDE.md").exists()


def test_a_link_loop_at_a_target_is_named_as_one(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").symlink_to("CLAUDE.md")
    (tmp_path / "CLAUDE.md").symlink_to("AGENTS.md")
    (tmp_path / "loop.md").symlink_to("loop.md")
    report = sync_web(tmp_path, ["AGENTS.md", "loop.md", "GEMINI.md"])
    assert report.refusals == [
        "AGENTS.md: it is a link loop (links that lead back to each other), so it was left as it is; "
        "nothing was written.",
        "loop.md: it is a link loop (links that lead back to each other), so it was left as it is; "
        "nothing was written.",
    ]
    assert not (tmp_path / "GEMINI.md").exists()


def test_an_edited_target_stops_the_whole_sync_until_forced(tmp_path: Path) -> None:
    sync_web(tmp_path, ["AGENTS.md", "CLAUDE.md"])
    claude = tmp_path / "CLAUDE.md"
    claude.write_text(claude.read_text().replace("Always use uv.", "Always use uv!"))
    agents = (tmp_path / "AGENTS.md").read_bytes()
    report = sync_web(tmp_path, ["AGENTS.md", "CLAUDE.md"], LATER)
    assert [p.name for p in report.edited] == ["CLAUDE.md"]
    assert report.written == []
    assert (tmp_path / "AGENTS.md").read_bytes() == agents  # all or nothing
    assert "uv!" in claude.read_text()
    forced = sync_web(tmp_path, ["AGENTS.md", "CLAUDE.md"], LATER, force=True)
    assert forced.written == ["AGENTS.md", "CLAUDE.md"]
    assert "uv!" not in claude.read_text()


def test_check_writes_nothing_and_says_what_is_out_of_step(tmp_path: Path) -> None:
    sync_web(tmp_path, ["AGENTS.md"])
    report = sync_web(tmp_path, ["AGENTS.md", "CLAUDE.md"], LATER, check=True)
    assert [(p.name, p.status) for p in report.out_of_step] == [
        ("AGENTS.md", "updated"),
        ("CLAUDE.md", "added"),
    ]
    assert not (tmp_path / "CLAUDE.md").exists()
    assert CONTENT.encode() in (tmp_path / "AGENTS.md").read_bytes()


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"caf\xe9\n", "not UTF-8"),
        (f"{BEGIN} -->\n{END}\n{BEGIN} -->\n{END}\n".encode(), "2 begin markers"),
    ],
)
def test_a_bad_target_is_refused_and_nothing_is_written(tmp_path: Path, content: bytes, words: str) -> None:
    (tmp_path / "CLAUDE.md").write_bytes(content)
    report = sync_web(tmp_path, ["AGENTS.md", "CLAUDE.md"])
    assert len(report.refusals) == 1 and words in report.refusals[0]
    assert report.refusals[0].startswith("CLAUDE.md: ")
    assert (tmp_path / "CLAUDE.md").read_bytes() == content
    assert not (tmp_path / "AGENTS.md").exists()


def test_links_are_followed_only_inside_the_project(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    outside = tmp_path / "elsewhere.md"
    outside.write_text("not yours\n")
    (project / "CLAUDE.md").symlink_to(outside)
    refused = sync_web(project, ["CLAUDE.md"])
    assert refused.refusals == [
        f"CLAUDE.md: it leads to {outside}, outside the folder {project}; links out of it are never "
        "followed; nothing was written."
    ]
    assert "outside the folder" in sync_web(project, ["../elsewhere.md"]).refusals[0]
    assert outside.read_text() == "not yours\n"
    (project / "CLAUDE.md").unlink()
    # langfuse keeps CLAUDE.md -> AGENTS.md -> .agents/AGENTS.md: one file, three names
    (project / ".agents").mkdir()
    (project / "AGENTS.md").symlink_to(".agents/AGENTS.md")
    (project / "CLAUDE.md").symlink_to("AGENTS.md")
    report = sync_web(project, ["AGENTS.md", "CLAUDE.md"])
    assert report.refusals == [] and report.written == ["AGENTS.md", "CLAUDE.md"]
    assert (project / "CLAUDE.md").is_symlink() and (project / "AGENTS.md").is_symlink()
    assert (project / ".agents/AGENTS.md").read_text() == render_block(CONTENT, "\n", WEB.holds) + "\n"
    assert [p.status for p in sync_web(project, ["AGENTS.md", "CLAUDE.md"]).plans] == ["in step"] * 2


def test_a_folder_a_fifo_and_a_huge_file_are_refused(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").mkdir()
    os.mkfifo(tmp_path / "CLAUDE.md")
    with open(tmp_path / "big.md", "wb") as f:
        f.truncate(1024**3)  # a sparse gigabyte: refused without reading it
    report = sync_web(tmp_path, ["AGENTS.md", "CLAUDE.md", "big.md"])
    assert len(report.refusals) == 3
    assert "not a regular file" in report.refusals[0]
    assert "not a regular file" in report.refusals[1]
    assert "larger than 1024 KiB" in report.refusals[2]
    assert os.stat(tmp_path / "big.md").st_size == 1024**3


def test_known_targets_are_the_files_already_holding_a_block(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").write_text("# no block\n")
    assert known_targets(tmp_path) == []
    sync_web(tmp_path, ["CLAUDE.md", ".cursor/rules/oda-memory.mdc"])
    assert known_targets(tmp_path) == ["CLAUDE.md", ".cursor/rules/oda-memory.mdc"]


# --- another program saving while sync runs ---------------------------------------------------


def test_an_editors_rename_save_between_read_and_swap_is_never_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    agents = tmp_path / "AGENTS.md"
    agents.write_text("# Mine\n\nfirst line\n")
    saves: list[str] = []

    def editor_saves_once(name: str) -> None:
        if name == "AGENTS.md" and not saves:
            now = agents.read_text()
            saves.append(now.replace("first line", "first line\nsaved meanwhile"))
            rename_save(agents, saves[-1])

    monkeypatch.setattr(target_writes, "before_swap", editor_saves_once)
    report = sync_web(tmp_path, ["AGENTS.md", "CLAUDE.md"])
    assert report.refusals == [] and report.written == ["AGENTS.md", "CLAUDE.md"]
    text = agents.read_text()
    assert text.startswith("# Mine\n\nfirst line\nsaved meanwhile\n\n" + BEGIN)  # redone over their save
    assert sorted(p.name for p in tmp_path.iterdir()) == ["AGENTS.md", "CLAUDE.md"]


def test_an_editor_saving_at_every_attempt_makes_the_sync_refuse_and_keeps_every_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    agents = tmp_path / "AGENTS.md"
    agents.write_text("v0\n")
    saves = [0]

    def editor_saves(name: str) -> None:
        if name == "AGENTS.md":
            saves[0] += 1
            rename_save(agents, f"v{saves[0]}\n")

    monkeypatch.setattr(target_writes, "before_swap", editor_saves)
    report = sync_web(tmp_path, ["CLAUDE.md", "AGENTS.md"])
    assert report.written == []
    assert report.refusals == [
        "AGENTS.md: it was saved by another program while it was being synced, 3 times; nothing was "
        "written. Run the sync again."
    ]
    assert agents.read_text() == "v3\n"  # the editor's last save, as it left it
    assert files(tmp_path) == {"AGENTS.md": b"v3\n"}  # CLAUDE.md put back (it was new), no temp


def test_a_rename_save_without_a_kernel_swap_is_seen_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    swap.force_fallback(True)
    try:
        test_an_editors_rename_save_between_read_and_swap_is_never_replaced(tmp_path, monkeypatch)
    finally:
        swap.force_fallback(False)


def test_an_editor_saving_in_a_loop_never_goes_back(tmp_path: Path, stress: int) -> None:
    """A timed loop (``--stress`` only): an editor saves AGENTS.md from its buffer as fast as it
    can (rename-save, each save numbered) while sync runs again and again: the number in the
    file never goes back, and the editor's last save is in the file at the end."""
    if stress == 1:
        pytest.skip("a timed loop: it runs under pytest --stress")
    agents = tmp_path / "AGENTS.md"
    agents.write_text("save 0\n\nmy notes\n")
    saved = [0]
    stop = threading.Event()

    def editor() -> None:
        while not stop.is_set():
            saved[0] += 1
            rename_save(agents, f"save {saved[0]}\n\nmy notes\n")

    def number_now() -> int:
        return int(agents.read_text().split("\n", 1)[0].removeprefix("save "))

    thread = threading.Thread(target=editor, daemon=True)
    thread.start()
    seen, runs, deadline = 0, 0, time.monotonic() + 2 * stress
    try:
        while time.monotonic() < deadline:
            sync_web(tmp_path, ["AGENTS.md"], [CONTENT, LATER][runs % 2])
            runs += 1
            now = number_now()
            assert now >= seen, f"a save went missing: the file went back from save {seen} to save {now}"
            seen = now
    finally:
        stop.set()
        thread.join()
    assert number_now() == saved[0]
    leftovers = [p for p in tmp_path.iterdir() if p.name.endswith(target_writes.SUFFIX)]
    assert all(p.read_text().startswith("save ") for p in leftovers)  # only ever a save, kept
    assert runs > 10


# --- all or nothing ---------------------------------------------------------------------------


def test_an_unwritable_folder_writes_no_target_and_leaves_no_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``.github/`` refuses new files with EACCES, as a folder without write permission does
    (made so by hand: the suite may run as root, for whom permissions do not refuse)."""
    (tmp_path / "AGENTS.md").write_text("# Mine\n")
    (tmp_path / ".github").mkdir()
    before = files(tmp_path)
    real_open = os.open

    def unwritable_github(path: str, flags: int, mode: int = 0o777, *, dir_fd: int | None = None) -> int:
        if (
            flags & os.O_CREAT
            and dir_fd is not None
            and os.path.samestat(os.fstat(dir_fd), os.stat(tmp_path / ".github"))
        ):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
        return real_open(path, flags, mode, dir_fd=dir_fd)

    monkeypatch.setattr(os, "open", unwritable_github)
    report = sync_web(tmp_path, FOUR)
    assert report.written == []
    assert report.refusals == [
        ".github/copilot-instructions.md: it could not be written: Permission denied; nothing was written."
    ]
    assert files(tmp_path) == before  # AGENTS.md as it was; no .cursor/rules/ made and left


def test_a_failing_swap_puts_back_the_targets_swapped_before_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("AGENTS.md", "CLAUDE.md", "GEMINI.md"):
        (tmp_path / name).write_text(f"# {name}\n")
    before = files(tmp_path)
    faults = Faults()
    faults.install(monkeypatch)
    with faults.armed_at(None):
        clean = sync_web(tmp_path, ["AGENTS.md", "CLAUDE.md", "GEMINI.md"])
    swaps = [at for at, call in enumerate(faults.calls, start=1) if call == "renameat2"]
    assert clean.written == ["AGENTS.md", "CLAUDE.md", "GEMINI.md"] and len(swaps) == 3
    for name in ("AGENTS.md", "CLAUDE.md", "GEMINI.md"):
        (tmp_path / name).write_text(f"# {name}\n")
    with faults.armed_at(swaps[2], errno.ENOSPC):  # the third target's swap fails
        report = sync_web(tmp_path, ["AGENTS.md", "CLAUDE.md", "GEMINI.md"])
    assert report.written == []
    assert report.refusals == [
        "GEMINI.md: it could not be written: No space left on device; nothing was written."
    ]
    assert files(tmp_path) == before  # the first two put back, no temp file left


def test_a_full_disk_writes_every_target_or_none(tmp_path_factory: pytest.TempPathFactory) -> None:
    import subprocess

    disk = tmp_path_factory.mktemp("small-disk")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(disk)],
        capture_output=True,
        text=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"a small tmpfs cannot be mounted here: {mounted.stderr.strip() or mounted.returncode}")
    try:
        project = disk / "project"
        project.mkdir()
        (project / "AGENTS.md").write_text("# Mine\n")
        content = CONTENT + "## Long\n\n" + "all work and no play\n" * 600  # about 12 KB a target
        outcomes: set[str] = set()
        for room in range(0, 80 * 1024, 4096):
            before = files(project)
            filler = disk / "filler"
            fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                st = os.statvfs(disk)
                free = st.f_bavail * st.f_frsize
                if free > room:
                    os.posix_fallocate(fd, 0, free - room)
            finally:
                os.close(fd)
            try:
                report = sync_web(project, FOUR[:3] + ["docs/GEMINI.md"], content + f"room {room}\n")
            finally:
                filler.unlink()
            after = files(project)
            if report.refusals:
                outcomes.add("refused")
                assert after == before, f"refused with {room} bytes left, yet the project changed"
            else:
                outcomes.add("written")
                assert report.written == FOUR[:3] + ["docs/GEMINI.md"]
                assert all(f"room {room}\n".encode() in after[n] for n in report.written)
                assert not [n for n in after if n.endswith(target_writes.SUFFIX)]
        assert outcomes == {"refused", "written"}  # the disk was full, then it was not
    finally:
        subprocess.run(["umount", str(disk)], check=True)


# --- no link through a swapped folder -------------------------------------------------------


def test_a_rules_folder_swapped_for_a_link_mid_sync_is_never_gone_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    (project / ".cursor/rules").mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()

    def swap_rules_for_a_link(name: str) -> None:
        rules = project / ".cursor/rules"
        if not rules.is_symlink():
            rules.rename(project / ".cursor/rules-moved")
            rules.symlink_to(outside)

    monkeypatch.setattr(target_writes, "before_swap", swap_rules_for_a_link)
    report = sync_web(project, [".cursor/rules/oda-memory.mdc", "CLAUDE.md"])
    assert list(outside.iterdir()) == []  # nothing was created outside the project
    assert report.written == []
    assert report.refusals == [
        f".cursor/rules/oda-memory.mdc: it leads to {outside}, outside the folder {project}; links out "
        "of it are never followed; nothing was written."
    ]
    assert files(project) == {
        ".cursor": "folder",
        ".cursor/rules": f"-> {outside}",
        ".cursor/rules-moved": "folder",
    }


def test_a_block_is_found_again_after_a_sync(tmp_path: Path) -> None:
    sync_web(tmp_path, ["AGENTS.md"])
    text = (tmp_path / "AGENTS.md").read_text()
    block = find_block(text)
    assert block is not None and block.content(text) == CONTENT and block.holds == "workspace:web"
