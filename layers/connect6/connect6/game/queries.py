"""Reading games: the lookups every use case starts from (a game, a player in it, an invitation)
and the read-only use cases (views, sheets, recap, record, replay, the invitation pages). Nothing
here writes.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import datetime

from connect6.game import timing, views
from connect6.game.context import Context
from connect6.game.errors import ErrorCode, GameError
from connect6.game.model import Game, Invite, InviteStatus, Kind, Seat, SeatState, Status
from connect6.game.shapes import (
    AcceptedInvite,
    BoardPicture,
    GameView,
    InviteInfo,
    JoinSheet,
    MoveSheet,
    RecapSheet,
    RecordResponse,
    ReplayView,
)
from connect6.rules import Position


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------- lookups
def load(ctx: Context, game_id: str) -> Game:
    """The game as it stands now: a mover past their deadline has lost on time already, sweep or
    not (:func:`connect6.game.timing.settle`)."""
    game = ctx.repo.get_game(game_id)
    if game is None:
        raise GameError(ErrorCode.GAME_NOT_FOUND, f"There is no game {game_id}.", "game_id")
    return timing.settle(game, ctx.clock())


def player(game: Game, player_id: str) -> Seat:
    seat = game.seat_of_player(player_id)
    if seat is None or seat.state is not SeatState.TAKEN or seat.kind is not Kind.HUMAN:
        raise GameError(ErrorCode.PLAYER_NOT_FOUND, "There is no such player in this game.",
                        "player_id")
    return seat


def seated_in_started_game(ctx: Context, game_id: str, player_id: str) -> tuple[Game, Seat]:
    """The game and the player's seat, for a player acting in it: refused when the game or the
    player does not exist, or while the game waits for its players."""
    game = load(ctx, game_id)
    seat = player(game, player_id)
    if game.status is Status.WAITING:
        raise GameError(ErrorCode.GAME_NOT_STARTED, "The game has not started yet.")
    return game, seat


def your_turn_against_the_computer(game: Game, seat: Seat, refusal: ErrorCode, message: str) -> Position:
    """The position, when ``seat`` plays the computer in a running game and it is their turn;
    otherwise the refusal (``refusal`` against a human), ``game_over`` or ``not_your_turn``."""
    if game.opponent_of(seat).kind is not Kind.COMPUTER:
        raise GameError(refusal, message)
    if game.is_over:
        raise GameError(ErrorCode.GAME_OVER, "The game is over.")
    position = game.position()
    if position.to_move is not seat.colour:
        raise GameError(ErrorCode.NOT_YOUR_TURN, "It is not your turn.")
    return position


def invite_for(ctx: Context, token: str) -> tuple[Game, Invite]:
    """The game and invitation of a raw token (through the invitation index)."""
    token_hash = hash_token(token)
    ref = ctx.repo.get_invite(token_hash)
    game = ctx.repo.get_game(ref.game_id) if ref is not None else None
    invite = game.invite(ref.invite_id) if (game is not None and ref is not None) else None
    if game is None or invite is None or not hmac.compare_digest(invite.token_hash, token_hash):
        raise GameError(ErrorCode.INVITE_NOT_FOUND, "This invitation does not exist.", "token")
    return game, invite


def refuse_paused(game: Game) -> None:
    """Moves wait while the platform has paused the run (v1.2)."""
    if game.paused:
        raise GameError(ErrorCode.GAME_PAUSED, "The game is paused; moves wait until it is resumed.")


def check_redeemable(game: Game, invite: Invite, now: datetime) -> Seat:
    """The seat the invitation holds, while it can still be accepted."""
    if invite.status is InviteStatus.REDEEMED:
        raise GameError(ErrorCode.INVITE_ALREADY_USED, "This invitation has already been used.",
                        "token")
    seat = game.seat(invite.seat)
    if (invite.status is InviteStatus.EXPIRED or invite.expires_at <= now
            or seat.state is not SeatState.HELD or seat.invite_id != invite.invite_id):
        raise GameError(ErrorCode.INVITE_EXPIRED, "This invitation has expired.", "token")
    return seat


# ---------------------------------------------------------------------- read-only use cases
def view(ctx: Context, game_id: str) -> GameView:
    return views.game_view(load(ctx, game_id), ctx.clock())


def join_sheet(ctx: Context, game_id: str) -> JoinSheet:
    return views.join_sheet(load(ctx, game_id), ctx.clock())


def replay(ctx: Context, game_id: str) -> ReplayView:
    """Every turn so far, for spectators."""
    from connect6.game.replay import replay_view

    return replay_view(load(ctx, game_id))


def board_after(ctx: Context, game_id: str, move: int) -> BoardPicture:
    """The board after ``move`` turns, for the SVG. A move the game has not reached is refused
    with ``move_not_found``."""
    from connect6.game.replay import board_after as picture

    game = load(ctx, game_id)
    if not 0 <= move <= game.move_count:
        raise GameError(ErrorCode.MOVE_NOT_FOUND,
                        f"Game {game_id} has {game.move_count} moves so far; ask for a move from 0 to "
                        f"{game.move_count}.", "move")
    return picture(game, move)


def move_sheet(ctx: Context, game_id: str, player_id: str) -> MoveSheet:
    game = load(ctx, game_id)
    return views.move_sheet(game, player(game, player_id), ctx.clock())


def recap(ctx: Context, game_id: str, player_id: str) -> RecapSheet:
    game = load(ctx, game_id)
    seat = player(game, player_id)
    if not game.is_over:
        raise GameError(ErrorCode.GAME_NOT_FINISHED, "The game is not finished yet.")
    return views.recap(game, seat)


def record(ctx: Context, game_id: str, player_id: str) -> RecordResponse:
    game = load(ctx, game_id)
    player(game, player_id)
    return RecordResponse(game_id=game.game_id, board_size=game.board_size, status=game.status.value,
                          move_count=game.move_count, record=views.record_text(game))


def invite_info(ctx: Context, token: str) -> InviteInfo:
    """What the invitation page shows. Changes nothing (mail scanners prefetch links)."""
    game, invite = invite_for(ctx, token)
    check_redeemable(game, invite, ctx.clock())
    return views.invite_view(game, invite.invite_id)


def accepted_invite(ctx: Context, token: str) -> AcceptedInvite:
    """What the page of an invitation already accepted shows (nothing secret): the name and colour
    of whoever took the seat, and the game view. Any other invitation is refused as
    :func:`invite_info` refuses it (not found, expired)."""
    game, invite = invite_for(ctx, token)
    if invite.status is not InviteStatus.REDEEMED:
        check_redeemable(game, invite, ctx.clock())
        raise GameError(ErrorCode.INVITE_NOT_FOUND, "This invitation has not been accepted.", "token")
    seat = game.seat(invite.seat)
    return AcceptedInvite(name=seat.name, colour=seat.colour.value if seat.colour else None,
                          game=views.game_view(game, ctx.clock()))
