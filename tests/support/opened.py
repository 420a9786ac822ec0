"""Which paths the process opens or stats while a test runs: a hook on ``os.open``, ``os.stat``
and ``os.lstat`` that records each path as the kernel resolves it (a ``dir_fd`` through
``/proc/self/fd``), so a test can say which folders a step never looked into."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest


class Opened:
    """The paths opened or looked at since ``watch``, absolute."""

    def __init__(self) -> None:
        self.paths: list[Path] = []

    def watch(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Record from now on (until the test ends)."""
        for name in ("open", "stat", "lstat"):
            monkeypatch.setattr(os, name, self._recording(getattr(os, name)))

    def under(self, folder: Path) -> list[Path]:
        """The recorded paths inside ``folder`` (or ``folder`` itself)."""
        return [p for p in self.paths if p == folder or folder in p.parents]

    def _recording(self, real: Any) -> Any:
        def recorded(path: Any, *args: Any, **kwargs: Any) -> Any:
            self._note(path, kwargs.get("dir_fd"))
            return real(path, *args, **kwargs)

        return recorded

    def _note(self, path: Any, dir_fd: int | None) -> None:
        if isinstance(path, int):
            return  # an fstat of a descriptor already opened (and recorded then)
        found = Path(os.fsdecode(path))
        if dir_fd is not None and not found.is_absolute():
            try:
                found = Path(os.readlink(f"/proc/self/fd/{dir_fd}")) / found
            except OSError:
                return
        self.paths.append(Path(os.path.abspath(found)))
