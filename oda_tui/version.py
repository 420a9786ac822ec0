"""The installed version of oda-tui."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _distribution_version

DISTRIBUTION = "oda-tui"


def version() -> str:
    """The version from the package metadata ("unknown" when run from an uninstalled tree)."""
    try:
        return _distribution_version(DISTRIBUTION)
    except PackageNotFoundError:
        return "unknown"
