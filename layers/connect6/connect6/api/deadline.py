"""The invocation's deadline: the computer never searches past the time Lambda has left.

A search runs inside a request (the computer's opening in a join, its replies and hints in a move),
and a write that loses a race is retried with a fresh search (up to 8 attempts,
``connect6.game.transaction``). The configured budget (``COMPUTER_BUDGET_S``, at most 3 s) bounds
one search; this bounds them all: each search reads the service's ``computer_budget_s`` when it
starts, which here is the configured budget capped by the invocation's remaining time
(``context.get_remaining_time_in_millis()``) less :data:`MARGIN_S` for the writes and the answer.
The resolver (:mod:`connect6.api.resolver`) enters :func:`within` for every request.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from connect6.game.service import GameService

MARGIN_S = 1.0
"""Kept for what follows a search: the conditional write (with the client's retries) and the answer."""
MIN_BUDGET_S = 0.001
"""What a search gets when the time is all but gone: it still returns legal stones at once."""

_context: ContextVar[Any] = ContextVar("connect6_lambda_context", default=None)


@contextmanager
def within(context: Any) -> Iterator[None]:
    """Searches started inside are capped by ``context``'s remaining time (per thread: the local
    server runs requests side by side)."""
    token = _context.set(context)
    try:
        yield
    finally:
        _context.reset(token)


def remaining_s() -> float | None:
    """Seconds the current invocation has left; ``None`` outside one (or without a context)."""
    remaining = getattr(_context.get(), "get_remaining_time_in_millis", None)
    return None if remaining is None else remaining() / 1000


def computer_budget(configured: float | None, remaining: float | None) -> float | None:
    """``configured`` (``None``: the level's default) capped by ``remaining`` less the margin."""
    if remaining is None:
        return configured
    room = max(remaining - MARGIN_S, MIN_BUDGET_S)
    if configured is None:
        from connect6.ai import DEFAULT_BUDGETS  # only when a search is about to run anyway

        # Each level keeps its default while there is room for the longest; past that, the room.
        return None if room >= max(DEFAULT_BUDGETS.values()) else room
    return min(configured, room)


class DeadlineBoundService(GameService):
    """The game service whose ``computer_budget_s`` is the configured budget capped, each time a
    search reads it, by the current invocation's remaining time (:func:`computer_budget`)."""

    _configured_budget_s: float | None = None

    @property
    def computer_budget_s(self) -> float | None:
        return computer_budget(self._configured_budget_s, remaining_s())

    @computer_budget_s.setter
    def computer_budget_s(self, value: float | None) -> None:
        self._configured_budget_s = value
