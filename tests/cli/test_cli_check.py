"""``oda-tui check``: every problem, ignored file and settings problem; exit 1 when any."""

from __future__ import annotations

from pathlib import Path

from store import MemoryStore
from tests.support.cli import Sample, run_cli
from tests.support.files import write_raw


def test_check_of_a_clean_store_exits_0(sample: Sample) -> None:
    r = run_cli("check", "--root", sample.root)
    assert (r.code, r.out, r.err) == (0, "", "")
    assert run_cli("check", "--root", sample.root, "--json").json() == {
        "root": str(sample.root),
        "ok": True,
        "findings": [],
    }


def test_check_lists_each_finding_one_a_line_and_exits_1(sample: Sample) -> None:
    bad = write_raw(sample.root / "global" / "0000000a.md", "no frontmatter\n")
    odd = write_raw(sample.root / "workspaces" / "proj" / "notes\x1b.txt", "x")
    (sample.root / "settings.yaml").write_text("title_max_chars: 5\n")
    r = run_cli("check", "--root", sample.root)
    assert r.code == 1
    shown_odd = str(odd).replace("\x1b", "\\x1b")  # a control character in a name is shown escaped
    assert r.out.splitlines() == [
        f"{bad}: The file does not start with a --- frontmatter block.",
        f"{shown_odd}: The file name is not a memory id (eight characters 0-9 and a-f) with .md.",
        f"{sample.root / 'settings.yaml'}: title_max_chars is 5; it must be a whole number from 10 to 1000. "
        "The default 120 applies.",
    ]
    doc = run_cli("check", "--root", sample.root, "--json").json()
    assert doc["ok"] is False
    assert [f["kind"] for f in doc["findings"]] == ["problem", "ignored", "settings"]
    assert doc["findings"][1]["path"] == str(odd)


def test_check_lists_a_secret_looking_memory(sample: Sample) -> None:
    kept = MemoryStore(sample.root).create(None, "Login", "password: hunter2hunter2", allow_secret=True)
    r = run_cli("check", "--root", sample.root)
    assert r.code == 1
    assert r.out.splitlines() == [
        f"{kept.path}: This memory looks like it contains a password; it is sent to the model with every message."
    ]
    [finding] = run_cli("check", "--root", sample.root, "--json").json()["findings"]
    assert (finding["kind"], finding["path"]) == ("secret", str(kept.path))


def test_check_review_counts_what_the_agent_saved(tmp_path: Path) -> None:
    from oda_tui.own_files.review_marks import mark_reviewed
    from store import GLOBAL, MemoryStore

    root, state = tmp_path / "oda", tmp_path / "state"
    store = MemoryStore(root)
    first = store.create(GLOBAL, "Prefers uv", "Use uv.", source="ai", via="chat")
    second = store.create("proj", "Stack", "Django.", source="ai", via="chat")
    store.create(GLOBAL, "Mine", "Written by me.")
    env = {"ODA_TUI_STATE": str(state)}
    # Without --review, waiting reviews are not findings.
    assert (
        run_cli("check", "--root", root, env=env).code,
        run_cli("check", "--root", root, env=env).out,
    ) == (0, "")
    r = run_cli("check", "--root", root, "--review", env=env)
    assert (r.code, r.out, r.err) == (
        1,
        "2 memories the agent saved or changed are waiting for review.\n",
        "",
    )
    doc = run_cli("check", "--root", root, "--review", "--json", env=env).json()
    assert doc["ok"] is False and doc["review"] == 2
    assert [(f["kind"], f["path"]) for f in doc["findings"]] == [
        ("review", str(first.path)),
        ("review", str(second.path)),
    ]
    mark_reviewed(store, GLOBAL, first.id, path=state / "review.json")
    r = run_cli("check", "--root", root, "--review", env=env)
    assert (r.code, r.out) == (1, "1 memory the agent saved or changed is waiting for review.\n")
    mark_reviewed(store, "proj", second.id, path=state / "review.json")
    r = run_cli("check", "--root", root, "--review", env=env)
    assert (r.code, r.out) == (0, "")
    assert run_cli("check", "--root", root, "--review", "--json", env=env).json()["review"] == 0


def test_check_lists_a_key_written_twice_and_enabled_yes_as_problems(sample: Sample) -> None:
    twice = write_raw(
        sample.root / "global" / "0000000b.md",
        "---\ntitle: First\ntitle: Second\nenabled: true\nsource: user\n---\n\nText.\n",
    )
    yes = write_raw(
        sample.root / "workspaces" / "proj" / "0000000c.md",
        "---\ntitle: Yes\nenabled: yes\nsource: user\n---\n\nText.\n",
    )
    r = run_cli("check", "--root", sample.root)
    assert r.code == 1, r.out
    problems = {str(p.path): p.message for p in MemoryStore(sample.root).problems()}
    assert r.out.splitlines() == [f"{twice}: {problems[str(twice)]}", f"{yes}: {problems[str(yes)]}"]
    doc = run_cli("check", "--root", sample.root, "--json").json()
    assert [(f["kind"], f["path"]) for f in doc["findings"]] == [
        ("problem", str(twice)),
        ("problem", str(yes)),
    ]
