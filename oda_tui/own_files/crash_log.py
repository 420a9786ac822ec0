"""What the app keeps when it stops on an unexpected error: the whole traceback, for a bug
report, while the terminal gets one line that says where it is."""

from __future__ import annotations

import traceback
from pathlib import Path

from store import write_atomic

from .review_marks import state_dir

CRASH_LOG = "crash.log"
#: A traceback is kept whole up to this size; a longer one keeps its end, where the error is.
MAX_BYTES = 256 * 1024


def write_crash_log(error: BaseException) -> Path | None:
    """Write ``error``'s traceback to the state folder (replacing the last one); its path, or None
    when it could not be written (the one line on stderr still says what happened)."""
    text = "".join(traceback.format_exception(error))
    data = text.encode("utf-8", "backslashreplace")[-MAX_BYTES:]
    path = state_dir() / CRASH_LOG
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        write_atomic(path, data, durable=False)
    except OSError:
        return None
    return path


def crash_line(error: BaseException, log: Path | None, draft_kept: bool) -> str:
    """The one line a person reads when the app stopped on an unexpected error."""
    what = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    line = f"oda-tui stopped on an unexpected error ({what})."
    if draft_kept:
        line += " Your unsaved edits are kept and offered back at the next start."
    if log is not None:
        line += f" The details are in {log}."
    return " ".join(line.split())
