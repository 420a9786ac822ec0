"""Bad input corpus: every hostile file gets its problem or its ignored entry (or is a valid
memory where it is valid), no scan crashes, and none is ever rewritten — not by a full
refresh and not by store operations on the other memories."""

from __future__ import annotations

import errno
import os
import resource
from pathlib import Path
from typing import Any

import pytest

from store import GLOBAL, MemoryStore
from store import messages as msg

GOOD = "---\ntitle: {title}\nenabled: true\nsource: user\n---\n\n{text}\n"
ONE_GB = 1 << 30

# name -> (bytes, expected): "memory", a problem message (prefix), or "ignored:<reason>"
CORPUS: dict[str, tuple[bytes, str]] = {
    "00000001.md": (b"", msg.FILE_NO_FRONTMATTER),
    "00000002.md": (b"---", msg.FILE_NO_FRONTMATTER),
    "00000003.md": (
        b"---\ntitle: T\nenabled: true\nsource: user\n\nno closing line\n",
        msg.FILE_NO_FRONTMATTER,
    ),
    "00000004.md": (bytes(range(256)) * 4, msg.FILE_NOT_UTF8),
    "00000005.md": (b"---\ntitle: caf\xe9\nenabled: true\nsource: user\n---\nx\n", msg.FILE_NOT_UTF8),
    "00000006.md": (b"\xef\xbb\xbf" + GOOD.format(title="BOM", text="ok").encode(), "memory"),
    "00000007.md": (GOOD.format(title="CRLF", text="a\nb").replace("\n", "\r\n").encode(), "memory"),
    "00000009.md": (
        b"---\ntitle: !!python/object/apply:os.system ['touch /tmp/oda-pwned']\nenabled: true\nsource: user\n---\nx\n",
        "The frontmatter is not valid YAML",
    ),
    "0000000a.md": (
        (
            b"---\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
            b"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
            b"e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
            b"g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\ntitle: *g\nenabled: true\nsource: user\n---\nbomb\n"
        ),
        "The frontmatter is not valid YAML: its aliases expand it to more than",
    ),
    "0000000b.md": (
        (
            "---\ntitle: T\nenabled: true\nsource: user\nx: "
            + "{a: " * 3000
            + "1"
            + "}" * 3000
            + "\n---\nx\n"
        ).encode(),
        "The frontmatter is not valid YAML",
    ),
    "0000000c.md": (
        (
            "---\ntitle: Long frontmatter\nenabled: true\nsource: user\n"
            + "".join(f"k{i}: {i}\n" for i in range(10000))
            + "---\nx\n"
        ).encode(),
        "The file is larger than",
    ),
    "0000000d.md": (
        GOOD.format(title="bell \x07 here", text="x").encode(),
        "The frontmatter is not valid YAML",
    ),
    "0000000e.md": (GOOD.format(title="bidi \u202e\u2066 title", text="x").encode(), "memory"),
    "ABCDEF12.md": (GOOD.format(title="Upper", text="x").encode(), "ignored:" + msg.IGNORED_BAD_NAME),
    "0123456.md": (GOOD.format(title="Seven", text="x").encode(), "ignored:" + msg.IGNORED_BAD_NAME),
    "0000000f.md": (GOOD.format(title="Unreadable", text="x").encode(), "The file could not be read"),
}
SPARSE = "00000008.md"
UNREADABLE = "0000000f.md"


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "oda"
    folder = root / "global"
    folder.mkdir(parents=True)
    for name, (raw, _) in CORPUS.items():
        (folder / name).write_bytes(raw)
    with open(folder / SPARSE, "wb") as f:
        f.truncate(ONE_GB)  # sparse: takes no disk, and must never be read
    outside = tmp_path / "outside.md"
    outside.write_text(GOOD.format(title="Outside", text="secret"))
    (folder / "00000010.md").symlink_to(outside)
    (folder / ".md").mkdir()
    (folder / "abcdef12.md").mkdir()
    return root


def snapshot(root: Path) -> dict[str, bytes]:
    folder = root / "global"
    return {
        p.name: p.read_bytes()
        for p in folder.iterdir()
        if p.is_file() and not p.is_symlink() and p.name != SPARSE and p.name != "00000011.md"
    }


@pytest.fixture
def unreadable(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests run as root, so chmod 000 would not stop a read: os.open refuses this one file."""
    real_open = os.open

    def guarded(path: str | os.PathLike[str], flags: int, *args: Any, **kwargs: Any) -> int:
        if os.fspath(path).endswith(UNREADABLE):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded)


def test_every_bad_file_is_reported_and_never_rewritten(corpus: Path, unreadable: None) -> None:
    before = snapshot(corpus)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    store = MemoryStore(corpus)
    problems = {p.path.name: p.message for p in store.problems()}
    ignored = {i.path.name: i.reason for i in store.ignored()}
    memories = {m.path.name: m for m in store.memories(GLOBAL)}

    for name, (_, expected) in CORPUS.items():
        if expected == "memory":
            assert name in memories, (name, problems.get(name), ignored.get(name))
        elif expected.startswith("ignored:"):
            assert ignored.get(name) == expected.removeprefix("ignored:"), name
        else:
            assert problems.get(name, "").startswith(expected), (name, problems.get(name))
    assert problems[SPARSE] == msg.FILE_TOO_LARGE.format(n=store.limits.file_max_bytes)
    assert ignored["00000010.md"] == msg.IGNORED_LINK_OUTSIDE
    assert ignored["abcdef12.md"] == msg.IGNORED_FOLDER_IN_SET
    assert ".md" not in problems and ".md" not in memories  # a dot-name: skipped silently
    assert memories["0000000e.md"].title == "bidi \u202e\u2066 title"  # kept; the UI escapes it
    assert memories["00000007.md"].text == "a\nb"
    assert not Path("/tmp/oda-pwned").exists()
    # The 1 GB file was never read into memory.
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before < 200 * 1024

    # Store operations on other memories, and full refreshes, leave every bad file as it was.
    made = store.create(GLOBAL, "A good one", "Fine")
    store.change(GLOBAL, made.id, text="Changed")
    store.set_enabled(GLOBAL, made.id, False)
    store.refresh()
    store.delete(GLOBAL, made.id)
    store.restore_deleted(GLOBAL, made.id)
    store.refresh()
    MemoryStore(corpus).refresh()
    after = snapshot(corpus)
    assert {name: after.get(name) for name in before} == before
    assert (corpus / "global" / SPARSE).stat().st_size == ONE_GB


def test_the_corpus_scans_the_same_again_from_the_index(corpus: Path, unreadable: None) -> None:
    first = MemoryStore(corpus)
    seen = (first.memories(GLOBAL), first.problems(), first.ignored())
    if first._index_writer is not None:
        first._index_writer.join()
    again = MemoryStore(corpus)
    assert (again.memories(GLOBAL), again.problems(), again.ignored()) == seen
