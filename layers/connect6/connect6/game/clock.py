"""Clocks for play by mail, as pure arithmetic: the run's time control and each side's time left.

A time control is a run setting (the contract's ``time_control``):

* ``per_move``: ``hours`` for every move; whatever a player leaves unused is not carried over;
* ``bank``: each side starts with ``initial_hours``, gains ``increment_hours`` after each of their
  moves and never holds more than ``max_hours`` (Little Golem plays 240/36/240).

A game's :class:`ClockState` keeps each side's time in the bank (milliseconds) as it stood when the
current turn began, and when that turn began. The mover's time left at a moment is their bank less
the time since; the deadline is the turn's start plus the bank. Nothing here reads a clock or
knows a game: the moment is always passed in (so the tests run on a fake clock), and the game-level
reading (who is to move, a computer that has no clock, a pause) is :mod:`connect6.game.timing`.

Hours are whole numbers: the store keeps integers only (DynamoDB numbers come back as ``Decimal``
and the store makes them ints), and no server plays fractions of an hour per move.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from connect6.rules import Colour

HOUR_MS = 3_600_000
# The longest time a setting may give (90 days): a value beyond it is a mistake, not a setting, and
# keeps deadlines well inside what epoch milliseconds and RFC 3339 print.
MAX_HOURS = 2_160
REMINDER_LEAD = timedelta(hours=24)  # the reminder goes out when the mover has this left ...
SHORT_PER_MOVE_HOURS = 48  # ... or half their time, for a per-move time under two days


class TimeKind(StrEnum):
    PER_MOVE = "per_move"
    BANK = "bank"


@dataclass(frozen=True)
class TimeControl:
    kind: TimeKind
    hours: int | None = None  # per_move
    initial_hours: int | None = None  # bank
    increment_hours: int | None = None
    max_hours: int | None = None

    @classmethod
    def per_move(cls, hours: int) -> TimeControl:
        return cls(TimeKind.PER_MOVE, hours=hours)

    @classmethod
    def bank(cls, initial_hours: int, increment_hours: int, max_hours: int) -> TimeControl:
        return cls(TimeKind.BANK, initial_hours=initial_hours, increment_hours=increment_hours,
                   max_hours=max_hours)

    def problems(self) -> list[tuple[str, str]]:
        """What makes no sense in this setting: (field, a sentence a player can read) each."""
        found: list[tuple[str, str]] = []

        def within(name: str, value: int | None, low: int) -> None:
            if value is None or isinstance(value, bool) or not isinstance(value, int):
                found.append((name, f"{name} must be a whole number of hours."))
            elif not low <= value <= MAX_HOURS:
                found.append((name, f"{name} must be from {low} to {MAX_HOURS} hours."))

        if self.kind is TimeKind.PER_MOVE:
            within("hours", self.hours, 1)
        else:
            within("initial_hours", self.initial_hours, 1)
            within("increment_hours", self.increment_hours, 0)
            within("max_hours", self.max_hours, 1)
            if not found and (self.max_hours or 0) < (self.initial_hours or 0):
                found.append(("max_hours", "max_hours must be at least initial_hours."))
        return found

    @property
    def start_ms(self) -> int:
        """Each side's time when the game starts."""
        hours = self.hours if self.kind is TimeKind.PER_MOVE else self.initial_hours
        return int(hours or 0) * HOUR_MS

    def after_move_ms(self, left_ms: int) -> int:
        """The mover's bank after a move made with ``left_ms`` left: a fresh allowance per move, or
        the bank plus the increment, never above the cap."""
        if self.kind is TimeKind.PER_MOVE:
            return int(self.hours or 0) * HOUR_MS
        gained = max(0, left_ms) + int(self.increment_hours or 0) * HOUR_MS
        return min(int(self.max_hours or 0) * HOUR_MS, gained)

    @property
    def reminder_lead(self) -> timedelta:
        """How long before the deadline the mover is reminded: 24 hours, or half the time of a
        per-move time under two days."""
        if self.kind is TimeKind.PER_MOVE and (self.hours or 0) < SHORT_PER_MOVE_HOURS:
            return timedelta(hours=(self.hours or 0) / 2)
        return REMINDER_LEAD

    def to_dict(self) -> dict[str, Any]:
        if self.kind is TimeKind.PER_MOVE:
            return {"kind": self.kind.value, "hours": self.hours}
        return {"kind": self.kind.value, "initial_hours": self.initial_hours,
                "increment_hours": self.increment_hours, "max_hours": self.max_hours}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TimeControl:
        kind = TimeKind(data["kind"])
        if kind is TimeKind.PER_MOVE:
            return cls.per_move(int(data["hours"]))
        return cls.bank(int(data["initial_hours"]), int(data["increment_hours"]), int(data["max_hours"]))


@dataclass
class ClockState:
    """Each side's bank as it stood when the current turn began, when it began (moved on by every
    pause's length), and the move number whose reminder went out (once per turn)."""

    black_ms: int
    white_ms: int
    turn_started_at: datetime
    reminded: int | None = None

    def bank(self, colour: Colour) -> int:
        return self.black_ms if colour is Colour.BLACK else self.white_ms

    def set_bank(self, colour: Colour, ms: int) -> None:
        if colour is Colour.BLACK:
            self.black_ms = ms
        else:
            self.white_ms = ms


def start(control: TimeControl, now: datetime) -> ClockState:
    """Both sides' clocks as the game starts (Black's turn begins ``now``)."""
    return ClockState(control.start_ms, control.start_ms, now)


def elapsed_ms(state: ClockState, at: datetime) -> int:
    return max(0, int((at - state.turn_started_at) / timedelta(milliseconds=1)))


def left_ms(state: ClockState, mover: Colour, at: datetime) -> int:
    """The mover's time left at ``at`` (negative past the deadline)."""
    return state.bank(mover) - elapsed_ms(state, at)


def deadline(state: ClockState, mover: Colour) -> datetime:
    """When the mover runs out."""
    return state.turn_started_at + timedelta(milliseconds=state.bank(mover))


def reminder_at(control: TimeControl, state: ClockState, mover: Colour) -> datetime:
    """When the mover's reminder is due (at once when they start the turn with less than the lead)."""
    return max(state.turn_started_at, deadline(state, mover) - control.reminder_lead)


def moved(control: TimeControl, state: ClockState, mover: Colour, now: datetime) -> None:
    """``mover`` has moved at ``now``: their bank takes what was left plus the increment (capped),
    or a fresh allowance per move, and the next turn begins."""
    state.set_bank(mover, control.after_move_ms(left_ms(state, mover, now)))
    restart(state, now)


def restart(state: ClockState, now: datetime) -> None:
    """A new turn begins ``now`` (after a move, or when a turn is taken back): its reminder is due
    again."""
    state.turn_started_at = now
    state.reminded = None


def resumed(state: ClockState, paused_at: datetime, now: datetime) -> None:
    """The clock stood from ``paused_at`` to ``now``: the turn's start (and so the deadline) moves
    on by the pause's length. A turn that began during the pause begins ``now``."""
    used = max(0, int((paused_at - state.turn_started_at) / timedelta(milliseconds=1)))
    state.turn_started_at = now - timedelta(milliseconds=used)
