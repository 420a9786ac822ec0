"""A person's keymap.yaml remaps keys by binding id; a bad one is reported, not fatal."""

from __future__ import annotations

from pathlib import Path

import pytest

from oda_tui.app import OdaApp
from oda_tui.keymap import load_keymap
from tests.app_support import settle, started


def test_load_keymap_reads_ids_and_reports_bad_lines(tmp_path: Path) -> None:
    path = tmp_path / "keymap.yaml"
    path.write_text("memory.new: ctrl+n\nmemory.toggle: ' space , t '\nbad: [1]\n")
    loaded = load_keymap(path)
    assert loaded.keymap == {"memory.new": "ctrl+n", "memory.toggle": "space,t"}
    assert loaded.problems == ["keymap.yaml: 'bad' needs keys as text, like ctrl+n"]
    path.write_text("- a list\n")
    assert load_keymap(path).problems == [
        "keymap.yaml should map binding ids to keys, like memory.new: ctrl+n"
    ]
    assert load_keymap(tmp_path / "missing.yaml") == load_keymap(tmp_path / "missing.yaml")
    assert load_keymap(tmp_path / "missing.yaml").keymap == {}


async def test_a_remapped_key_runs_its_action(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "config"
    config.mkdir()
    (config / "keymap.yaml").write_text("memory.new: ctrl+n\n")
    monkeypatch.setenv("ODA_TUI_CONFIG", str(config))
    app = OdaApp(tmp_path / "oda", watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await started(pilot)
        await pilot.press("n")  # the old key no longer makes a memory
        await settle(pilot)
        assert not screen.editor.is_new
        await pilot.press("ctrl+n")
        await settle(pilot)
        assert screen.editor.is_new
        await pilot.press("escape")
        await settle(pilot)


async def test_a_bad_keymap_is_a_notice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "config"
    config.mkdir()
    (config / "keymap.yaml").write_text("memory.new: [\n")
    monkeypatch.setenv("ODA_TUI_CONFIG", str(config))
    app = OdaApp(tmp_path / "oda", watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await started(pilot)
        messages = [n.message for n in app._notifications]
        assert any(m.startswith("Keymap: keymap.yaml is not valid YAML") for m in messages)
