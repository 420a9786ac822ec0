"""``oda-tui history ID``: versions newest first, with their source in words."""

from __future__ import annotations

from oda_tui.text.words import SOURCE_WORDS, source_words
from store import GLOBAL, MemoryStore
from tests.support.cli import Sample, run_cli, unknown_id


def test_history_lists_versions_newest_first_in_words(sample: Sample) -> None:
    store = MemoryStore(sample.root)
    store.change("proj", sample.proj, title="Test \x07runner", via="settings")
    names = [v.name for v in store.versions("proj", sample.proj)]
    r = run_cli("history", sample.proj, "--root", sample.root)
    assert r.code == 0 and r.err == ""
    lines = r.out.splitlines()
    assert [line.split()[0] for line in lines] == names
    assert "in Settings" in lines[0] and lines[0].endswith("Test \\x07runner")
    assert "from a chat" in lines[1] and lines[1].endswith("Test runner")
    assert "from a chat" in lines[2]

    doc = run_cli("history", sample.proj, "--root", sample.root, "--json").json()
    assert (doc["id"], doc["scope"], doc["label"]) == (sample.proj, "proj", "proj")
    assert [v["name"] for v in doc["versions"]] == names
    assert doc["versions"][0]["source"] == "settings"
    assert doc["versions"][0]["source_words"] == "in Settings"
    assert doc["versions"][1]["text"] == "Use pytest -q."


def test_history_of_a_deleted_memory_and_of_an_unknown_id(sample: Sample) -> None:
    MemoryStore(sample.root).delete(GLOBAL, sample.reply)
    r = run_cli("history", sample.reply, "--root", sample.root)
    assert r.code == 0 and "Reply language" in r.out
    r = run_cli("history", "abcdef12", "--root", sample.root)
    assert (r.code, r.out, r.err) == (2, "", unknown_id("abcdef12", f"in {sample.root}"))


def test_every_source_has_words() -> None:
    assert SOURCE_WORDS == {
        "chat": "from a chat",
        "settings": "in Settings",
        "restore": "restored",
        "undo": "undone",
        "external": "edited outside the app",
        "found": "found",
    }
    assert source_words("later") == "later"
