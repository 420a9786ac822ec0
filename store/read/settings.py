"""Reading ``settings.yaml``: the limits one installation applies, and a message for each bad line."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path
from typing import Any

from store.disk.safe_io import SETTINGS_MAX_BYTES, TooLarge, Unsafe, read_regular
from store.limits import RANGES, Limits

_DEFAULTS = Limits()


def _shown(value: Any) -> str:
    """A value as a settings message quotes it, cut to 60 characters; a list or a mapping
    is only named, so nothing is ever written out in full."""
    if isinstance(value, list | dict | set | tuple):
        return "a mapping" if isinstance(value, dict) else "a list"
    if isinstance(value, str):
        text = repr(value[:61])
    elif isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 256:
        text = "a number of more than 70 digits"
    else:
        text = str(value)[:61]
    return text if len(text) <= 60 else text[:57] + "..."


def parse_settings(raw: bytes | None) -> tuple[Limits, list[str]]:
    """Limits from settings.yaml's bytes (None: no file), and a message for each bad line.

    A bad value never stops the store: that key keeps its default.
    """
    if raw is None:
        return _DEFAULTS, []
    import yaml  # only a settings file needs the YAML library

    from store.format.yaml_load import safe_load

    try:
        data = safe_load(raw.decode("utf-8-sig")) if raw.strip() else {}
    except UnicodeDecodeError:
        return _DEFAULTS, ["settings.yaml is not UTF-8 text; the default limits apply."]
    except yaml.MarkedYAMLError as exc:
        what, mark = exc.problem or _oneline(exc), exc.problem_mark
        where = "" if mark is None else f", line {mark.line + 1}, column {mark.column + 1}"
        return _DEFAULTS, [
            f"settings.yaml is not valid YAML ({_oneline(what)}{where}); the default limits apply."
        ]
    except Exception as exc:  # any parser failure: the defaults apply
        return _DEFAULTS, [f"settings.yaml is not valid YAML ({_oneline(exc)}); the default limits apply."]
    if data is None:
        data = {}
    if not isinstance(data, dict):
        return _DEFAULTS, ["settings.yaml does not hold key: value settings; the default limits apply."]
    values: dict[str, int] = {}
    problems: list[str] = []
    known = {f.name for f in fields(Limits)}
    for key, value in data.items():
        if key not in known:
            problems.append(f"settings.yaml: unknown setting {_shown(key)}; it is ignored.")
            continue
        low, high = RANGES[key]
        default = getattr(_DEFAULTS, key)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            problems.append(
                f"settings.yaml: {key} is {_shown(value)}; it must be a whole number "
                f"from {low} to {high}. The default {default} applies."
            )
            continue
        values[key] = value
    return Limits(**values), problems


def read_settings(root: Path, path: Path) -> tuple[Limits, list[str]]:
    """Read settings.yaml at ``path`` under ``root``; a missing file means the defaults.

    It is read only when it is a regular file (not a link, a pipe or a device) of at most
    ``SETTINGS_MAX_BYTES``: anything else is a settings problem and the defaults apply.
    """
    try:
        raw = read_regular(root, path, SETTINGS_MAX_BYTES)
    except FileNotFoundError:
        return parse_settings(None)
    except Unsafe as exc:
        return _DEFAULTS, [f"settings.yaml could not be read ({exc.reason}); the default limits apply."]
    except TooLarge:
        return _DEFAULTS, [
            f"settings.yaml is larger than {SETTINGS_MAX_BYTES} bytes, so it is not read; "
            "the default limits apply."
        ]
    except OSError as exc:
        return _DEFAULTS, [
            f"settings.yaml could not be read ({exc.strerror or exc}); the default limits apply."
        ]
    return parse_settings(raw)


def _oneline(exc: object) -> str:
    return " ".join(str(exc).split())
