"""The percentile the benchmark, arena and load tools print: nearest rank, so p99 of a few
hundred samples is a time that was really measured."""

from __future__ import annotations

import math


def percentile(values: list[float], q: float) -> float:
    """The smallest value with at least ``q`` of the values at or below it (NaN for none)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1))]
