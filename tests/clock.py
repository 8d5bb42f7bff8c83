"""The one fake clock the tests give the service (``clock=``): it reads ``now``, which a test sets
or moves on (nothing sleeps)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

START = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self, start: datetime = START) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)
