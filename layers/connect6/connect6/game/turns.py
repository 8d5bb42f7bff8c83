"""Playing: a turn (with the computer's reply, table-talk and a draw offer), resigning, and draws.
Also the pieces of a turn that starting a game and taking a turn back reuse: the computer's turn
and the ``turn_ready`` event.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from connect6.game import events as ev
from connect6.game import talk as computer_talk
from connect6.game import timing, views
from connect6.game.context import Context
from connect6.game.errors import ErrorCode, GameError
from connect6.game.model import DrawMark, EndReason, Game, Kind, Seat, Status, Turn
from connect6.game.outcome import Outcome, finish
from connect6.game.phrases import PHRASES
from connect6.game.queries import refuse_paused, seated_in_started_game
from connect6.game.shapes import GameView, MoveResponse
from connect6.game.transaction import Change, transact
from connect6.records import RecordError, parse_label
from connect6.rules import IllegalMove, IllegalReason, Position, TurnResult


@dataclass
class MoveOutcome:
    response: MoveResponse
    replayed: bool
    finished: bool
    computer_think_s: float | None = None


def submit_move(ctx: Context, game_id: str, player_id: str, move_number: int, stones: Sequence[str],
                talk: str | None = None, offer_draw: bool = False) -> MoveOutcome:
    """Play a turn; ``offer_draw`` offers a draw with it. The computer answers an offer at once
    (accepting only when ``draw_judge`` says the game is level: the game ends as a draw and it
    does not reply); a human opponent accepts through :func:`draw` or declines by moving."""
    labels = [s.strip().lower() for s in stones]

    def decide(change: Change) -> MoveOutcome:
        game, seat = seated_in_started_game(ctx, game_id, player_id)
        if _is_replay(game, seat, move_number, labels, talk, offer_draw):
            return MoveOutcome(views.move_result(game, move_number, seat), replayed=True,
                               finished=game.is_over)
        if game.is_over:
            raise GameError(ErrorCode.GAME_OVER, "The game is over.")
        refuse_paused(game)
        position = game.position()
        if move_number < position.turn_number:
            raise GameError(ErrorCode.STALE_MOVE,
                            f"Move {move_number} has already been played; this is move "
                            f"{position.turn_number}.", "move_number")
        if position.to_move is not seat.colour:
            raise GameError(ErrorCode.NOT_YOUR_TURN, "It is not your turn.")
        if move_number != position.turn_number:
            raise GameError(ErrorCode.STALE_MOVE,
                            f"This is move {position.turn_number}, not move {move_number}.", "move_number")
        if talk is not None and talk not in PHRASES:
            raise GameError(ErrorCode.UNKNOWN_PHRASE, f"{talk!r} is not a table-talk phrase.",
                            "table_talk")
        points = _parse_stones(game, labels)
        try:
            result = position.play(points)
        except IllegalMove as exc:
            raise _illegal(exc, game) from exc
        new = change.edit(game)
        assert seat.colour is not None
        timing.moved(new, seat.colour, change.now)  # the mover's clock, in this same write
        placed = [game.label(p) for p in result.placed]
        turn = Turn(stones=placed, at=change.now, talk=talk, offered=labels if placed != labels else None,
                    draw=DrawMark.OFFERED if offer_draw else None)
        new.turns.append(turn)
        new.draw_offer = None  # moving declines the opponent's standing offer
        _finish_if_over(new, result, change)
        opponent = new.opponent_of(new.seat(seat.seat))
        against_computer = opponent.kind is Kind.COMPUTER
        if offer_draw and not new.is_over:
            _offer_with_move(ctx, new, seat, opponent, turn, position, move_number, change)
        if new.is_over and against_computer:
            assert new.end_reason is not None
            new.closing_talk = computer_talk.closing_line(new.end_reason)
        elif against_computer:
            computer_turn(ctx, new, position, change)
        after_turn(new, position, change)
        return MoveOutcome(views.move_result(new, move_number, new.seat(seat.seat)), replayed=False,
                           finished=new.is_over, computer_think_s=change.think_s)

    return transact(ctx, decide)


def _is_replay(game: Game, seat: Seat, move_number: int, labels: list[str], talk: str | None,
               offer_draw: bool) -> bool:
    if not 1 <= move_number <= game.move_count or views.colour_of_turn(move_number) is not seat.colour:
        return False
    turn = game.turns[move_number - 1]
    return ((turn.offered or turn.stones) == labels and turn.talk == talk
            and (turn.draw is not None) == offer_draw)


def _parse_stones(game: Game, stones: Sequence[str]) -> list[int]:
    points = []
    for index, text in enumerate(stones):
        try:
            points.append(parse_label(text.strip(), game.board_size))
        except RecordError as exc:
            raise GameError(ErrorCode.ILLEGAL_MOVE, f"{text!r} is not a point like h8.",
                            f"stones[{index}]") from exc
        except IllegalMove as exc:
            size = game.board_size
            raise GameError(ErrorCode.ILLEGAL_MOVE, f"{text.strip().lower()} is off the {size}x{size} board.",
                            f"stones[{index}]") from exc
    return points


def _illegal(exc: IllegalMove, game: Game) -> GameError:
    field_name = f"stones[{exc.stone_index}]" if exc.stone_index is not None else "stones"
    on_board = exc.point is not None and 0 <= exc.point < game.board_size ** 2
    label = game.label(exc.point) if on_board and exc.point is not None else ""
    if exc.reason is IllegalReason.OCCUPIED:
        message = f"{label} is already taken."
    elif exc.reason is IllegalReason.DUPLICATE:
        message = f"{label} is played twice in this move."
    else:
        message = exc.message[0].upper() + exc.message[1:] + "."
    return GameError(ErrorCode.ILLEGAL_MOVE, message, field_name)


def _offer_with_move(ctx: Context, game: Game, seat: Seat, opponent: Seat, turn: Turn, position: Position,
                     move_number: int, change: Change) -> None:
    """A draw offered with a turn: the computer answers at once, a human is told (event)."""
    if opponent.kind is Kind.COMPUTER:
        if ctx.draw_judge(position, opponent.level or "normal"):
            turn.draw = DrawMark.ACCEPTED
            finish(game, Outcome.agreed(), change)
        else:
            turn.draw = DrawMark.DECLINED
        return
    game.draw_offer = seat.colour
    change.emit(ev.DRAW_OFFERED, {
        "game_id": game.game_id, "player_id": opponent.player_id, "move_number": move_number})


def _finish_if_over(game: Game, result: TurnResult, change: Change) -> None:
    outcome = Outcome.of_turn(game, result)
    if outcome is not None:
        finish(game, outcome, change)


def computer_turn(ctx: Context, game: Game, position: Position, change: Change) -> None:
    """The computer plays its turn in ``position`` (the game's, played on in place)."""
    seat = game.seat_of_colour(position.to_move)
    rng = random.Random(f"{game.game_id}:{position.turn_number}")  # nosec B311 # reproducible replies, not security
    started = time.perf_counter()
    stones = tuple(ctx.computer(position, seat.level or "normal", budget_s=ctx.computer_budget_s, rng=rng))
    change.thought(time.perf_counter() - started)
    timing.moved(game, position.to_move, change.now)
    before = position.copy()
    result = position.play(stones)
    talk = computer_talk.computer_line(before, position)
    placed = [game.label(p) for p in result.placed]
    offered = [game.label(p) for p in stones]
    game.turns.append(Turn(stones=placed, at=change.now, talk=talk,
                           offered=offered if offered != placed else None))
    _finish_if_over(game, result, change)


def after_turn(game: Game, position: Position, change: Change) -> None:
    """Tell the platform whose sheet to send next."""
    if game.is_over or game.status is not Status.IN_PROGRESS:
        return
    seat = game.seat_of_colour(position.to_move)
    if seat.kind is Kind.HUMAN:
        change.emit(ev.TURN_READY, {
            "game_id": game.game_id, "player_id": seat.player_id, "name": seat.name,
            "move_number": position.turn_number})


# ---------------------------------------------------------------------- resign, draw
def resign(ctx: Context, game_id: str, player_id: str) -> GameView:

    def decide(change: Change) -> GameView:
        game, seat = seated_in_started_game(ctx, game_id, player_id)
        if game.is_over:
            if game.end_reason is EndReason.RESIGNED and game.winner not in (None, seat.colour):
                return views.game_view(game, change.now)  # the same resignation, re-sent
            raise GameError(ErrorCode.GAME_OVER, "The game is over.")
        new = change.edit(game)
        assert seat.colour is not None
        finish(new, Outcome.resigned(seat.colour), change)
        if new.opponent_of(seat).kind is Kind.COMPUTER:
            new.closing_talk = computer_talk.closing_line(EndReason.RESIGNED)
        return views.game_view(new, change.now)

    return transact(ctx, decide)


def draw(ctx: Context, game_id: str, player_id: str, action: str) -> GameView:
    """``offer`` a draw, ``accept`` or ``decline`` the opponent's offer. The computer answers an
    offer at once: it accepts only when ``draw_judge`` says the game is level."""

    def decide(change: Change) -> GameView:
        game, seat = seated_in_started_game(ctx, game_id, player_id)
        if game.is_over:
            if action == "accept" and game.end_reason is EndReason.AGREED:
                return views.game_view(game, change.now)
            raise GameError(ErrorCode.GAME_OVER, "The game is over.")
        assert seat.colour is not None
        opponent_offer = game.draw_offer is not None and game.draw_offer is not seat.colour
        new = change.edit(game)
        if action == "offer":
            opponent = game.opponent_of(seat)
            if opponent.kind is Kind.COMPUTER:
                new.draw_offer = None
                if ctx.draw_judge(game.position(), opponent.level or "normal"):
                    finish(new, Outcome.agreed(), change)
                    new.closing_talk = computer_talk.closing_line(EndReason.AGREED)
                # else the computer plays on
            elif opponent_offer:
                new.draw_offer = None
                finish(new, Outcome.agreed(), change)
            else:
                new.draw_offer = seat.colour
                if game.draw_offer is not seat.colour:
                    change.emit(ev.DRAW_OFFERED, {
                        "game_id": game.game_id, "player_id": opponent.player_id,
                        "move_number": game.move_count})
        else:
            if not opponent_offer:
                raise GameError(ErrorCode.NO_DRAW_OFFER, "Your opponent has not offered a draw.", "action")
            new.draw_offer = None
            if action == "accept":
                finish(new, Outcome.agreed(), change)
        return views.game_view(new, change.now)

    return transact(ctx, decide)
