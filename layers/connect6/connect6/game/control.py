"""The platform's control of a run (pause, resume, cancel) and the clock sweep (losses on time and
turn reminders). Each is a small decision inside :func:`~connect6.game.transaction.transact`, so
each lands as one conditional write with its events, or changes nothing.

* **Pause** stops the clocks and refuses moves (``game_paused``); **resume** moves the turn's
  start, and so the deadline, on by the pause's length. Both are idempotent: pausing a paused game
  or resuming a running one answers the view and writes nothing.
* **Cancel** ends the run with no winner (``status``/``end_reason`` ``cancelled``) through
  :func:`~connect6.game.outcome.finish`; a pending invitation dies with it (``invite_expired``).
  Cancelling a cancelled run answers the view again.
* **The clock sweep** visits the games the clock index says are due (never a scan) and, per game,
  stores a loss on time with its ``game_finished`` or sends the turn's one ``turn_reminder``. It
  re-reads and decides on the stored game, so two sweeps at once, or a sweep against a move at the
  last moment, end with exactly one write winning (the version condition); the loser decides again
  on what won and finds nothing to do (or, for a move, ``game_over``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from functools import partial

from connect6.game import events as ev
from connect6.game import timing, views
from connect6.game.context import Context
from connect6.game.errors import ErrorCode, GameError
from connect6.game.model import Game, InviteStatus, SeatState, Status, iso
from connect6.game.outcome import Outcome, finish
from connect6.game.queries import load
from connect6.game.shapes import GameView
from connect6.game.transaction import Change, transact

# One sweep run visits at most SWEEP_LIMIT games and spends at most SWEEP_BUDGET_S seconds on them
# (the scheduled function's timeout is 60 s; a game costs one read and one write, ~20 ms in AWS).
# What is left is still due and still in the index: the next run, five minutes later, takes it.
SWEEP_LIMIT = 1000
SWEEP_BUDGET_S = 40.0


def _over(game: Game) -> GameError:
    if game.status is Status.CANCELLED:
        return GameError(ErrorCode.GAME_OVER, "The game was cancelled.")
    return GameError(ErrorCode.GAME_OVER, "The game is over.")


def pause(ctx: Context, game_id: str) -> GameView:

    def decide(change: Change) -> GameView:
        game = load(ctx, game_id)
        if game.is_over:
            raise _over(game)
        if game.paused:
            return views.game_view(game, change.now)  # paused already: nothing to do
        new = change.edit(game)
        new.paused_at = change.now
        change.emit(ev.GAME_PAUSED, {"game_id": game.game_id, "move_number": game.move_count + 1})
        return views.game_view(new, change.now)

    return transact(ctx, decide)


def resume(ctx: Context, game_id: str) -> GameView:

    def decide(change: Change) -> GameView:
        game = load(ctx, game_id)
        if game.is_over:
            raise _over(game)
        if not game.paused:
            return views.game_view(game, change.now)  # running already
        new = change.edit(game)
        timing.unpause(new, change.now)
        change.emit(ev.GAME_RESUMED, {"game_id": game.game_id, "move_number": game.move_count + 1,
                                      "deadline": iso(timing.deadline(new))})
        return views.game_view(new, change.now)

    return transact(ctx, decide)


def cancel(ctx: Context, game_id: str) -> GameView:

    def decide(change: Change) -> GameView:
        game = load(ctx, game_id)
        if game.status is Status.CANCELLED:
            return views.game_view(game, change.now)  # the same cancel, re-sent
        if game.is_over:
            raise _over(game)
        new = change.edit(game)
        for seat in new.seats:
            if seat.state is SeatState.HELD:
                invite = new.invite(seat.invite_id or "")
                if invite is not None and invite.status is InviteStatus.PENDING:
                    invite.status = InviteStatus.EXPIRED
                    change.emit(ev.INVITE_EXPIRED, {
                        "game_id": new.game_id, "invite_id": invite.invite_id, "seat": invite.seat,
                        "invitee_name": invite.invitee_name})
                seat.release()
        finish(new, Outcome.cancelled(), change)
        return views.game_view(new, change.now)

    return transact(ctx, decide)


# ---------------------------------------------------------------------- the clock sweep
@dataclass
class ClockSweep:
    """One clock sweep: games looked at, losses on time stored, reminders sent, and whether it
    stopped at its item or time bound (the next run goes on)."""

    examined: int = 0
    timed_out: int = 0
    reminded: int = 0
    stopped_early: bool = False


class _Swept(Enum):
    TIMED_OUT = "timed_out"
    REMINDED = "reminded"
    NOTHING = "nothing"  # not due after all (a move, a pause or another sweep got there first)


def sweep_clocks(ctx: Context, limit: int = SWEEP_LIMIT, budget_s: float = SWEEP_BUDGET_S,
                 monotonic: Callable[[], float] = time.monotonic) -> ClockSweep:
    """Store every loss on time and send every reminder that is due (the clock index, shard by
    shard, at most ``limit`` games and ``budget_s`` seconds a run)."""
    now = ctx.clock()
    started = monotonic()
    sweep = ClockSweep()
    for game_id in ctx.repo.due_clocks(now, limit):
        if monotonic() - started > budget_s:
            sweep.stopped_early = True
            break
        sweep.examined += 1
        try:
            swept = transact(ctx, partial(_sweep_one, ctx, game_id), now=now)
        except GameError as exc:
            if exc.code is not ErrorCode.BUSY:
                raise
            continue  # busy: the game is still due, the next run takes it
        if swept is _Swept.TIMED_OUT:
            sweep.timed_out += 1
        elif swept is _Swept.REMINDED:
            sweep.reminded += 1
    if sweep.examined >= limit:
        sweep.stopped_early = True
    return sweep


def _sweep_one(ctx: Context, game_id: str, change: Change) -> _Swept:
    game = ctx.repo.get_game(game_id)  # as stored: the sweep is what stores a loss on time
    if game is None:
        return _Swept.NOTHING
    loser = timing.lost_on_time(game, change.now)
    if loser is not None:
        ran_out = timing.deadline(game)
        new = change.edit(game)
        finish(new, Outcome.on_time(loser), change)
        new.finished_at = ran_out  # the game ended when the clock ran out, as every read showed it
        return _Swept.TIMED_OUT
    reminder = timing.reminder_due(game)
    if reminder is not None and reminder <= change.now:
        mover = game.seat_of_colour(timing.mover(game))
        new = change.edit(game)
        assert new.clock is not None
        new.clock.reminded = game.move_count + 1
        change.emit(ev.TURN_REMINDER, {"game_id": game.game_id, "player_id": mover.player_id,
                                       "move_number": game.move_count + 1,
                                       "deadline": iso(timing.deadline(game))})
        return _Swept.REMINDED
    return _Swept.NOTHING
