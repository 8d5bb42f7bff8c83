"""The one way a use case changes a game: :func:`transact`.

A use case is a *decision*: a function of a :class:`Change` that loads the game, checks the
request against it, edits a copy (:meth:`Change.edit`), adds the change's events
(:meth:`Change.emit`) and returns its answer. :func:`transact` runs it and stores the copy in one
conditional write, conditioned on the version and turn it was read at, with the next version,
``updated_at`` and the events (stamped with an id and the time) in the same write. A decision that
edits nothing (a re-sent request answered from the stored game, a refusal) writes nothing.

When the write loses a race (:class:`VersionConflict`, or :class:`AlreadyExists` from an index
written on the way), the decision was made on a stale game: :func:`transact` runs it again on a
fresh read, up to :data:`MAX_ATTEMPTS` times, and then refuses with ``busy``. A
:class:`~connect6.game.repository.StoreUnavailable` is not retried here (the store client has
retried already) and reaches the caller as it is: whether the write landed is unknown, and every
write is conditional, so the request can be sent again. So a request either lands whole, with its
events, or is refused having changed nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from connect6.game.context import Context
from connect6.game.errors import ErrorCode, GameError
from connect6.game.events import Event
from connect6.game.model import Game, iso
from connect6.game.repository import AlreadyExists, VersionConflict

MAX_ATTEMPTS = 8
_T = TypeVar("_T")


@dataclass
class Change:
    """One attempt at a use case: the time it decides at, the game it edits, the events it adds and
    the computer's thinking time it spent."""

    now: datetime
    events: list[Event] = field(default_factory=list)
    think_s: float | None = None
    _read: Game | None = None
    _edited: Game | None = None
    _quiet: bool = False

    def edit(self, game: Game, *, quiet: bool = False) -> Game:
        """A copy of ``game`` (as read) to change; it is stored when the decision returns. It
        carries the next version and, unless ``quiet``, ``updated_at``. A quiet change is
        bookkeeping (the hint counter): no ``updated_at``, and it may not have events."""
        if self._read is not None:
            raise RuntimeError("a change edits one game, once")
        if game.provisional:
            raise RuntimeError("a game read as lost on time is for reading: the clock sweep stores the end")
        copy = Game.from_dict(game.to_dict())
        copy.version = game.version + 1
        if not quiet:
            copy.updated_at = self.now
        self._read, self._edited, self._quiet = game, copy, quiet
        return copy

    def emit(self, detail_type: str, detail: dict[str, Any]) -> None:
        """Add an event to the change (stored with it, delivered later from the store's stream)."""
        self.events.append(Event(detail_type, detail))

    def thought(self, seconds: float) -> None:
        """Count the computer's thinking time (the handlers' metric)."""
        self.think_s = (self.think_s or 0.0) + seconds

    def commit(self, ctx: Context) -> None:
        """The change's one conditional write (nothing when the decision edited nothing)."""
        if self._read is None or self._edited is None:
            if self.events:
                raise RuntimeError("events without an edited game: nothing would store them")
            return
        if self._quiet and self.events:
            raise RuntimeError("a quiet change has no events")
        occurred = iso(self.now) or ""
        events = [event.stamped(ctx.event_id_factory(), occurred) for event in self.events]
        ctx.repo.save_game(self._edited, expected_version=self._read.version,
                           expected_move_count=self._read.move_count, events=events)


def transact(ctx: Context, decide: Callable[[Change], _T], *, now: datetime | None = None) -> _T:
    """Run ``decide`` on a new :class:`Change` (at ``now``, by default the clock's time at each
    attempt) and store what it edited; again on a lost race. Its answer is returned once stored."""

    def attempt() -> _T:
        change = Change(ctx.clock() if now is None else now)
        answer = decide(change)
        change.commit(ctx)
        return answer

    return retrying(attempt)


def retrying(attempt: Callable[[], _T]) -> _T:
    """Optimistic concurrency: ``attempt`` reads, decides and writes conditionally; when another
    writer got there first the decision was made on a stale game, so read and decide again. After
    :data:`MAX_ATTEMPTS` lost races, ``busy``. (:func:`transact` uses it; so does the creation of a
    run, whose write is a create rather than a save.)"""
    for _ in range(MAX_ATTEMPTS):
        try:
            return attempt()
        except (VersionConflict, AlreadyExists):
            continue
    raise GameError(ErrorCode.BUSY, "The game is busy; please try again.")
