"""Themes as YAML data files: the app's own (``themes/``) and the person's (config folder).

Each file is validated before it becomes a Textual ``Theme``; a bad file is reported by name
and skipped. The chosen theme is remembered in ``settings.json`` in the config folder.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from textual.color import Color, ColorParseError
from textual.theme import Theme

from store import FileRefused, load_json_config, load_yaml_config, write_atomic

from .paths import config_dir

SETTINGS_FILE = "settings.json"
#: settings.json holds the chosen theme's name.
SETTINGS_MAX_BYTES = 16 * 1024
#: A theme file: a dozen colours and Textual's hundred-odd variables, with room for comments.
THEME_MAX_BYTES = 64 * 1024
COLOR_FIELDS = (
    "primary",
    "secondary",
    "accent",
    "foreground",
    "background",
    "surface",
    "panel",
    "boost",
    "warning",
    "error",
    "success",
)
ALLOWED = {f.name for f in fields(Theme)} - {"ansi"}


@dataclass(frozen=True)
class ThemeLoad:
    """The themes found, and one message for each file that could not be used."""

    themes: list[Theme]
    problems: list[str]


def bundled_theme_dirs() -> list[Path]:
    """Where the app's own themes are: inside the installed package, or the source checkout."""
    package = Path(__file__).resolve().parent.parent  # oda_tui/
    return [d for d in (package / "themes", package.parent / "themes") if d.is_dir()]


def user_theme_dir() -> Path:
    """Where a person puts their own theme files."""
    return config_dir() / "themes"


def parse_theme(data: Any, source: str) -> Theme:
    """A Theme from a file's YAML data; ValueError with a clear message when it is not one."""
    if not isinstance(data, dict):
        raise ValueError(f"{source}: a theme file holds key: value settings")
    unknown = sorted(str(k) for k in data if k not in ALLOWED)
    if unknown:
        raise ValueError(f"{source}: unknown setting(s) {', '.join(unknown)}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"{source}: the theme needs a name")
    if "primary" not in data:
        raise ValueError(f"{source}: the theme needs a primary colour")
    for key in COLOR_FIELDS:
        if key in data:
            try:
                Color.parse(str(data[key]))
            except ColorParseError:
                raise ValueError(f"{source}: {key} is not a colour: {data[key]!r}") from None
    if "dark" in data and not isinstance(data["dark"], bool):
        raise ValueError(f"{source}: dark must be true or false")
    variables = data.get("variables", {})
    if not isinstance(variables, dict):
        raise ValueError(f"{source}: variables must be key: value settings")
    values: dict[str, Any] = {k: (str(v) if k in COLOR_FIELDS else v) for k, v in data.items()}
    values["variables"] = {str(k): str(v) for k, v in variables.items()}
    return Theme(**values)


def load_themes(dirs: list[Path] | None = None) -> ThemeLoad:
    """Every valid theme in the bundled folders and the person's folder, later ones winning."""
    dirs = dirs if dirs is not None else [*bundled_theme_dirs(), user_theme_dir()]
    themes: dict[str, Theme] = {}
    problems: list[str] = []
    for folder in dirs:
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.y*ml")):
            try:
                data = load_yaml_config(path, THEME_MAX_BYTES, follow_links=True)
                theme = parse_theme(data, path.name)
            except FileRefused as exc:
                problems.append(f"{path.name}: {exc.reason}")
                continue
            except ValueError as exc:
                problems.append(str(exc))
                continue
            themes[theme.name] = theme
    return ThemeLoad(list(themes.values()), problems)


@dataclass(frozen=True)
class SavedTheme:
    """The theme chosen last time (None: none), and why ``settings.json`` was not used."""

    name: str | None
    problem: str | None = None


def _settings() -> dict[str, Any]:
    """What ``settings.json`` holds ({} when it is missing); ``FileRefused`` when it cannot be
    used (not a regular file, too large, not a JSON object)."""
    path = config_dir() / SETTINGS_FILE
    data = load_json_config(path, SETTINGS_MAX_BYTES, follow_links=True)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise FileRefused(path, "it does not hold a JSON object")
    return data


def saved_theme() -> SavedTheme:
    """The theme chosen last time, if any, and what stood in the way of reading it."""
    try:
        theme = _settings().get("theme")
    except FileRefused as exc:
        return SavedTheme(None, f"{exc}; the default theme applies.")
    return SavedTheme(theme if isinstance(theme, str) else None)


def save_theme(name: str) -> None:
    """Remember the chosen theme (atomically). Not saved when ``settings.json`` cannot be read
    (it may hold more than a theme: it is left as it is); a failure to save is not an error."""
    folder = config_dir()
    try:
        data = _settings()
    except FileRefused:
        return
    data["theme"] = name
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(folder / SETTINGS_FILE, (json.dumps(data, indent=2) + "\n").encode("utf-8"))
    except OSError:
        pass
