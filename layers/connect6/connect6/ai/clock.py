"""The engine's clock: every budget and deadline in the search is read from ``now()``.

By default it is wall time, which is what a player waits for. ``use_cpu_time()`` switches it to
this process's CPU time, for measuring strength on a shared machine: another program competing
for the CPU then makes a move take longer but not play weaker. In Lambda the move function has a
whole vCPU (1769 MB), where the two clocks agree.
"""

from __future__ import annotations

import time
from collections.abc import Callable

_source: Callable[[], float] = time.perf_counter


def now() -> float:
    """Seconds on the engine's clock (only differences are meaningful)."""
    return _source()


def use_cpu_time(enabled: bool = True) -> None:
    """Measure budgets in this process's CPU time (``False``: back to wall time)."""
    global _source
    _source = time.process_time if enabled else time.perf_counter
