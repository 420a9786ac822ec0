"""Opening a file in the person's own editor ($VISUAL or $EDITOR) with the app suspended."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path

from textual.app import App, SuspendNotSupported


def editor_command() -> list[str] | None:
    """The editor command from $VISUAL, else $EDITOR; None when neither is set."""
    for name in ("VISUAL", "EDITOR"):
        value = os.environ.get(name, "").strip()
        if value:
            return shlex.split(value)
    return None


def open_in_editor(app: App[object], path: Path) -> str | None:
    """Run the editor on ``path`` and wait for it; returns a message when it could not run."""
    command = editor_command()
    if not command:
        return "Set $VISUAL or $EDITOR to the editor you want, for example: export EDITOR=nano"
    if shutil.which(command[0]) is None:
        return f"The editor “{command[0]}” (from $VISUAL or $EDITOR) was not found."
    try:
        try:
            with app.suspend():
                result = subprocess.run([*command, str(path)], check=False)
        except SuspendNotSupported:
            # Headless (tests) or a driver that cannot hand the terminal over.
            result = subprocess.run(
                [*command, str(path)],
                check=False,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
    except OSError as exc:
        return f"The editor could not be started: {exc.strerror or exc}."
    if result.returncode != 0:
        return f"The editor exited with status {result.returncode}; the file is read again anyway."
    return None
