"""``oda-tui context``: exactly what a chat receives, byte for byte, and its estimate on stderr."""

from __future__ import annotations

from pathlib import Path

from store import MemoryStore
from tests.support.cli import Sample, run_cli


def test_context_is_the_chat_text_byte_for_byte(sample: Sample) -> None:
    store = MemoryStore(sample.root)
    store.create("proj", "Odd bytes", "tab\there\x1b[0m and é ≈ \u2028 end")
    chat = store.chat_memory("proj")
    r = run_cli("context", "--root", sample.root, "--workspace", "proj")
    assert r.code == 0
    assert r.out_bytes == chat.text.encode("utf-8")  # nothing escaped, nothing added
    assert r.err == f"≈ {chat.tokens:,} / 8,000 tokens\n"

    g = run_cli("context", "--root", sample.root)
    assert g.out_bytes == store.chat_memory(None).text.encode("utf-8")
    assert "Test runner" not in g.out


def test_context_json_and_the_limit_from_settings(sample: Sample) -> None:
    (sample.root / "settings.yaml").write_text("chat_max_tokens: 1200\n")
    doc = run_cli("context", "--root", sample.root, "--workspace", "proj", "--json").json()
    chat = MemoryStore(sample.root).chat_memory("proj")
    assert doc == {
        "root": str(sample.root),
        "workspace": "proj",
        "text": chat.text,
        "tokens": chat.tokens,
        "limit": 1200,
        "entries": [
            {"id": sample.reply, "scope": None, "title": "Reply language"},
            {"id": sample.proj, "scope": "proj", "title": "Test runner"},
        ],
    }


def test_context_of_an_empty_store_is_empty(tmp_path: Path) -> None:
    r = run_cli("context", home=tmp_path)  # the platform folder, not there yet: no note
    assert (r.code, r.out_bytes, r.err) == (0, b"", "≈ 0 / 8,000 tokens\n")


def test_context_of_a_workspace_that_does_not_exist_names_it_on_stderr(sample: Sample) -> None:
    store = MemoryStore(sample.root)
    note = f'Note: there is no workspace "nope" in {sample.root}; a chat there receives only Global.\n'
    r = run_cli("context", "--root", sample.root, "--workspace", "nope")
    assert (r.code, r.out_bytes) == (0, store.chat_memory("nope").text.encode("utf-8"))
    assert r.err == note + f"≈ {store.chat_memory('nope').tokens:,} / 8,000 tokens\n"
    j = run_cli("context", "--root", sample.root, "--workspace", "nope", "--json")
    assert j.code == 0 and j.json()["workspace"] == "nope" and j.err == note
    assert run_cli("context", "--root", sample.root, "--workspace", "proj").err.startswith("≈ ")
