"""How a game ends: an :class:`Outcome` and :func:`finish`, the one place every ending goes through.

An ending sets the status, the winner (if any), the reason, the winning line (for a six) and the
time, and tells the platform (``game_finished``); a pause ends with the game (the clocks stand at
the end). A new way to end a game is a new :class:`~connect6.game.model.EndReason` and an
:class:`Outcome` constructor here (a loss on time and a cancelled run came so, v1.2); the use case
that ends it calls :func:`finish` inside its transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from connect6.game import events as ev
from connect6.game import timing, views
from connect6.game.model import EndReason, Game, Seat, Status
from connect6.game.transaction import Change
from connect6.rules import Colour, TurnResult


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game, as stored and shown."""

    status: Status
    reason: EndReason
    winner: Colour | None = None
    winning_line: tuple[str, ...] = ()  # the labels of the six, for a six

    @classmethod
    def six(cls, winner: Colour, line: tuple[str, ...]) -> Outcome:
        return cls(Status.COMPLETED, EndReason.SIX, winner, line)

    @classmethod
    def full_board(cls) -> Outcome:
        return cls(Status.DRAW, EndReason.FULL_BOARD)

    @classmethod
    def resigned(cls, loser: Colour) -> Outcome:
        return cls(Status.COMPLETED, EndReason.RESIGNED, loser.other)

    @classmethod
    def agreed(cls) -> Outcome:
        return cls(Status.DRAW, EndReason.AGREED)

    @classmethod
    def on_time(cls, loser: Colour) -> Outcome:
        return cls(Status.COMPLETED, EndReason.TIME, loser.other)

    @classmethod
    def cancelled(cls) -> Outcome:
        return cls(Status.CANCELLED, EndReason.CANCELLED)

    @classmethod
    def of_turn(cls, game: Game, result: TurnResult) -> Outcome | None:
        """The ending a turn made (a six or a full board), or None when the game goes on."""
        if result.winner is not None:
            return cls.six(result.winner, tuple(game.label(p) for p in result.winning_line))
        if result.draw:
            return cls.full_board()
        return None


def finish(game: Game, outcome: Outcome, change: Change) -> None:
    """End ``game`` (the copy ``change`` edits) with ``outcome``, and add ``game_finished``."""
    timing.unpause(game, change.now)
    game.status, game.winner, game.end_reason = outcome.status, outcome.winner, outcome.reason
    game.winning_line = list(outcome.winning_line)
    game.finished_at = change.now
    winner = views.winner_ref(game, game.winner)
    change.emit(ev.GAME_FINISHED, {
        "game_id": game.game_id, "status": game.status.value, "end_reason": outcome.reason.value,
        "winner": winner.model_dump() if winner is not None else None, "move_count": game.move_count,
        "players": [event_player(s) for s in game.seats]})


def event_player(seat: Seat) -> dict[str, Any]:
    """A player as the events name them (``game_started``, ``game_finished``)."""
    return {"player_id": seat.player_id, "name": seat.name,
            "kind": seat.kind.value if seat.kind else None}
