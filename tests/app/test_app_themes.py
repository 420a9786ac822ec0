"""Themes: the bundled YAML files, a person's own, a bad file, and the choice kept across runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from oda_tui.config.theming import bundled_theme_dirs, load_themes, parse_theme, saved_theme
from tests.support.app import notices, run_app, wait_until, write_raw


def test_bundled_themes_are_valid() -> None:
    loaded = load_themes(bundled_theme_dirs())
    assert loaded.problems == []
    assert {"oda-dusk", "oda-paper"} <= {t.name for t in loaded.themes}


def test_bad_theme_files_are_named_and_skipped(tmp_path: Path) -> None:
    (tmp_path / "good.yaml").write_text("name: mine\nprimary: '#123456'\n")
    (tmp_path / "colour.yaml").write_text("name: bad\nprimary: not-a-colour\n")
    (tmp_path / "broken.yaml").write_text("name: [oops\n")
    (tmp_path / "extra.yaml").write_text("name: x\nprimary: red\nsparkle: true\n")
    loaded = load_themes([tmp_path])
    assert [t.name for t in loaded.themes] == ["mine"]
    assert any(p.startswith("colour.yaml: primary is not a colour") for p in loaded.problems)
    assert any(p.startswith("broken.yaml: it is not valid YAML") for p in loaded.problems)
    assert "extra.yaml: unknown setting(s) sparkle" in loaded.problems
    with pytest.raises(ValueError, match="needs a primary colour"):
        parse_theme({"name": "x"}, "t.yaml")


async def test_theme_choice_survives_a_restart(root: Path, config_folder: Path) -> None:
    write_raw(config_folder / "themes" / "mine.yaml", "name: my-own\nprimary: '#884488'\ndark: true\n")
    write_raw(config_folder / "themes" / "bad.yaml", "primary: red\n")
    async with run_app(root, size=(80, 24)) as (app, pilot, _):
        assert {"oda-dusk", "oda-paper", "my-own"} <= set(app.available_themes)
        assert "Theme skipped: bad.yaml: the theme needs a name" in notices(app)
        app.theme = "oda-paper"
        await wait_until(pilot, lambda: saved_theme().name == "oda-paper", "the theme to be remembered")
    async with run_app(root, size=(80, 24)) as (again, _, _):
        assert again.theme == "oda-paper"
