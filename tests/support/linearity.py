"""Linearity by ratio, never by a clock's absolute reading: a pathological input is timed
against a plain one of the same size in the same run, on the same machine, however busy."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def _timed(work: Callable[[T], object], data: T) -> float:
    start = time.perf_counter()
    work(data)
    return time.perf_counter() - start


def time_ratio(
    work: Callable[[T], object], pathological: T, plain: T, *, bound: float, tries: int = 3
) -> float:
    """How many times longer ``work`` takes on ``pathological`` than on ``plain``: the best of
    ``tries`` timings of each (a busy machine only ever adds time). The pathological input is
    timed again only while its ratio is over ``bound``, so a quadratic one costs ``tries`` runs
    before the test fails, a linear one usually one."""
    plain_best = min(_timed(work, plain) for _ in range(tries))
    plain_best = max(plain_best, 1e-6)
    best = float("inf")
    for _ in range(tries):
        best = min(best, _timed(work, pathological))
        if best / plain_best < bound:
            break
    return best / plain_best
