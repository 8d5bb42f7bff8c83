"""A game's clock as the game sees it: who is to move, whether their clock runs (a timed game in
progress, not paused, a person to move: the computer has no clock), their deadline, a loss on time
read at once, the next moment a sweep has something to do, and the ``clock`` of the views.

A mover past their deadline has lost at that moment, whether or not a sweep has stored it yet:
:func:`settle` gives every read path the game as it stands (``completed``, ``end_reason: time``,
the other side the winner, finished at the deadline), so a move then gets ``game_over``. Storing the
end, with its ``game_finished``, is the clock sweep's (:mod:`connect6.game.control`); the settled
copy is marked provisional and no decision can edit it.
"""

from __future__ import annotations

from datetime import datetime

from connect6.game import clock
from connect6.game.clock import ClockState, TimeControl
from connect6.game.model import EndReason, Game, Kind, Status, colour_of_turn, iso
from connect6.game.shapes import ClockView
from connect6.rules import COLOURS, Colour


def mover(game: Game) -> Colour:
    """The colour to move next."""
    return colour_of_turn(game.move_count + 1)


def running(game: Game) -> tuple[TimeControl, ClockState, Colour] | None:
    """The time control, clock and mover when the mover's clock runs: a timed game in progress,
    not paused, a person to move."""
    if (game.time_control is None or game.clock is None or game.status is not Status.IN_PROGRESS
            or game.paused_at is not None):
        return None
    colour = mover(game)
    if game.seat_of_colour(colour).kind is not Kind.HUMAN:
        return None
    return game.time_control, game.clock, colour


def deadline(game: Game) -> datetime | None:
    found = running(game)
    return clock.deadline(found[1], found[2]) if found is not None else None


def lost_on_time(game: Game, now: datetime) -> Colour | None:
    """The colour that has lost on time at ``now``, or None."""
    found = running(game)
    if found is None:
        return None
    _, state, colour = found
    return colour if clock.left_ms(state, colour, now) <= 0 else None


def settle(game: Game, now: datetime) -> Game:
    """``game`` as it stands at ``now``: when the mover has run out, a provisional copy finished on
    time at the deadline (for reading only); otherwise ``game`` itself."""
    loser = lost_on_time(game, now)
    if loser is None:
        return game
    due = deadline(game)
    ended = Game.from_dict(game.to_dict())
    ended.status, ended.end_reason, ended.winner = Status.COMPLETED, EndReason.TIME, loser.other
    ended.winning_line, ended.finished_at, ended.provisional = [], due, True
    return ended


def reminder_due(game: Game) -> datetime | None:
    """When this turn's reminder is due, while it has not gone out."""
    found = running(game)
    if found is None:
        return None
    control, state, colour = found
    if state.reminded == game.move_count + 1:
        return None
    return clock.reminder_at(control, state, colour)


def next_due(game: Game) -> datetime | None:
    """The next moment the clock sweep has something to do for this game (the reminder, else the
    deadline), or None when its clock stands: the clock index's sort key."""
    found = running(game)
    if found is None:
        return None
    reminder = reminder_due(game)
    return reminder if reminder is not None else clock.deadline(found[1], found[2])


def clock_view(game: Game, now: datetime) -> ClockView | None:
    """The views' ``clock``: null without a time control. The mover's time is counted to ``now``,
    to the pause while paused, to the end once finished."""
    control = game.time_control
    if control is None:
        return None
    state = game.clock
    if state is None:  # not started: both sides have their starting time
        seconds = control.start_ms // 1000
        return ClockView(deadline=None, black_seconds=seconds, white_seconds=seconds)
    banks = {colour: state.bank(colour) for colour in COLOURS}
    colour = mover(game)
    if game.seat_of_colour(colour).kind is Kind.HUMAN and game.status in (
            Status.IN_PROGRESS, Status.COMPLETED, Status.DRAW, Status.CANCELLED):
        stand = game.paused_at or (game.finished_at if game.is_over else None) or now
        banks[colour] = max(0, clock.left_ms(state, colour, stand))
    return ClockView(deadline=iso(deadline(game)), black_seconds=banks[Colour.BLACK] // 1000,
                     white_seconds=banks[Colour.WHITE] // 1000)


def start(game: Game, now: datetime) -> None:
    """The game starts ``now``: both clocks are set (a timed game)."""
    if game.time_control is not None:
        game.clock = clock.start(game.time_control, now)


def moved(game: Game, colour: Colour, now: datetime) -> None:
    """``colour`` has just moved at ``now`` (before the move is appended): bank and next turn."""
    if game.time_control is not None and game.clock is not None:
        if game.seat_of_colour(colour).kind is Kind.HUMAN:
            clock.moved(game.time_control, game.clock, colour, now)
        else:
            clock.restart(game.clock, now)  # the computer has no clock: its bank stays


def restart(game: Game, now: datetime) -> None:
    """The mover's turn begins again at ``now`` (a turn taken back)."""
    if game.clock is not None:
        clock.restart(game.clock, now)


def unpause(game: Game, now: datetime) -> None:
    """End a pause at ``now``: the clock stood for its length."""
    if game.paused_at is not None:
        if game.clock is not None:
            clock.resumed(game.clock, game.paused_at, now)
        game.paused_at = None
