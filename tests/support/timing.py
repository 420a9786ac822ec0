"""A parser's linearity as a ratio: a pathological input against a plain one of the same size,
timed in the same run (never an absolute time, so a busy machine slows both alike)."""

from __future__ import annotations

import time
from collections.abc import Callable

#: The plain input is repeated until one round takes at least this long, so timer noise is small.
_ROUND_SECONDS = 0.02


def slowdown(
    pathological: Callable[[], object], plain: Callable[[], object], *, give_up: float = 100.0
) -> float:
    """How many times longer ``pathological()`` takes than ``plain()`` (each the best of three
    rounds of as many calls as a plain round needs). A pathological round is cut short once it
    has taken ``give_up`` times a plain round: the ratio is then at least that, which is all a
    test asserting a bound below it needs to know (so code that is not linear fails quickly)."""
    calls = 1
    while True:
        started = time.perf_counter()
        for _ in range(calls):
            plain()
        if time.perf_counter() - started >= _ROUND_SECONDS:
            break
        calls *= 2
    plain_round = min(_timed(plain, calls, None) for _ in range(3))
    limit = plain_round * give_up
    return min(_timed(pathological, calls, limit) for _ in range(3)) / plain_round


def _timed(run: Callable[[], object], calls: int, limit: float | None) -> float:
    started = time.perf_counter()
    for done in range(1, calls + 1):
        run()
        elapsed = time.perf_counter() - started
        if limit is not None and elapsed > limit:
            return elapsed * calls / done  # at least this: the rest would take as long again
    return time.perf_counter() - started
