"""What only a game against the computer offers: a hint (the hard level's move) and taking a turn
back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from connect6.game import events as ev
from connect6.game import timing, views
from connect6.game.context import Context
from connect6.game.errors import ErrorCode, GameError
from connect6.game.model import Game
from connect6.game.queries import refuse_paused, seated_in_started_game, your_turn_against_the_computer
from connect6.game.shapes import HintResponse, UndoResponse
from connect6.game.transaction import Change, transact
from connect6.game.turns import after_turn

if TYPE_CHECKING:  # the engine is imported only when a hint is asked for (cold start)
    from connect6.ai import Hint

MAX_UNDOS = 3  # per game, against the computer


def hint(ctx: Context, game_id: str, player_id: str) -> HintResponse:
    """The hard level's move for the player to move, only against the computer. Counted for the
    recap (once per move number: asking again on the same turn is not another hint) by a quiet
    change: the counter only, no event, no ``updated_at``."""
    found_at: dict[int, Hint] = {}

    def decide(change: Change) -> HintResponse:
        game, seat = seated_in_started_game(ctx, game_id, player_id)
        position = your_turn_against_the_computer(
            game, seat, ErrorCode.HINTS_NOT_ALLOWED, "Hints are only given in a game against the computer.")
        # A retry after a lost counter write sees the same position: search it once.
        if position.turn_number not in found_at:
            from connect6.ai import hint as ai_hint

            found_at[position.turn_number] = ai_hint(position, budget_s=ctx.computer_budget_s)
        found = found_at[position.turn_number]
        if game.hint_move != position.turn_number:
            counted = change.edit(game, quiet=True)
            counted.hints_used += 1
            counted.hint_move = position.turn_number
        return HintResponse(move_number=position.turn_number, stones=[game.label(p) for p in found.stones],
                            reason=found.reason)

    return transact(ctx, decide)


def undo(ctx: Context, game_id: str, player_id: str) -> UndoResponse:
    """Take back the player's last turn and the computer's reply after it: it is their turn again
    at that move number (on a same-device game, the last turn, whoever played it). Only against the
    computer or on one device, while the game runs, at most :data:`MAX_UNDOS`
    times a game. Not idempotent by itself (a second call takes back the turn before): the route's
    ``Idempotency-Key`` makes a retry safe."""

    def decide(change: Change) -> UndoResponse:
        game, seat = seated_in_started_game(ctx, game_id, player_id)
        if game.same_device:
            back_to = _last_turn_on_one_device(game)
        else:
            your_turn_against_the_computer(game, seat, ErrorCode.UNDO_NOT_ALLOWED,
                                           "Moves can only be taken back in a game against the computer.")
            mine = [n for n in range(1, game.move_count + 1) if views.colour_of_turn(n) is seat.colour]
            if not mine:
                raise GameError(ErrorCode.NOTHING_TO_UNDO, "You have not played a move yet.")
            back_to = mine[-1]  # the player's last turn; the computer's reply follows it
        if game.undos_used >= MAX_UNDOS:
            raise GameError(ErrorCode.UNDO_LIMIT_REACHED,
                            f"You have taken back {MAX_UNDOS} moves already in this game.")
        undone = [views.turn_played(game, n) for n in range(game.move_count, back_to - 1, -1)]
        refuse_paused(game)
        new = change.edit(game)
        del new.turns[back_to - 1:]
        timing.restart(new, change.now)  # the turn begins again; the bank stays as it is
        new.undos_used += 1
        new.draw_offer = None
        new.hint_move = None  # the move comes again: a hint on it counts again
        position = new.position()
        # The player whose turn it is again (on one device, whoever played the turn taken back).
        again = new.seat_of_colour(position.to_move) if game.same_device else seat
        change.emit(ev.MOVE_UNDONE, {"game_id": game.game_id, "player_id": again.player_id,
                                     "move_number": back_to})
        after_turn(new, position, change)
        return UndoResponse(undone=undone, undos_left=MAX_UNDOS - new.undos_used,
                            game=views.game_view(new, change.now, position))

    return transact(ctx, decide)


def _last_turn_on_one_device(game: Game) -> int:
    """A same-device game takes back its last turn, whoever played it (they share the device)."""
    if game.is_over:
        raise GameError(ErrorCode.GAME_OVER, "The game is over.")
    if game.move_count == 0:
        raise GameError(ErrorCode.NOTHING_TO_UNDO, "No move has been played yet.")
    return game.move_count
