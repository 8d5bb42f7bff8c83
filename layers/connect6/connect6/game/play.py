"""Playing from a link (v1.2): each human seat has a secret play link, ``/v1/play/<token>``.

The token is derived from the seat's player id by the API (``InviteTokens.play_token_for``: an HMAC
of a server-side secret), so it can be derived again and is never stored: the join or redemption
that seats the player writes the play index (:class:`~connect6.game.repository.PlayRef`: the
token's SHA-256 → game and player) before its game write, as invitations are indexed. An entry
whose game write then lost points at a player the game does not have and is ignored.

A same-device game (``Game.same_device``: two people sharing one device) has one link, the first
seat's; it acts as whichever seat is to move.
"""

from __future__ import annotations

from dataclasses import dataclass

from connect6.game import timing, views
from connect6.game.context import Context
from connect6.game.errors import ErrorCode, GameError
from connect6.game.model import Game, InviteStatus, Kind, Seat, SeatState, Status
from connect6.game.queries import hash_token, invite_for
from connect6.game.repository import PlayRef
from connect6.game.shapes import MoveSheet, RecapSheet


@dataclass(frozen=True)
class PlaySeat:
    """What a play link opens: the game as it stands, the seat the link acts as now (on a
    same-device game, the seat to move; after the end, the winner's) and the link's own seat."""

    game: Game
    seat: Seat
    owner: Seat

    @property
    def same_device(self) -> bool:
        return self.game.same_device


def index_play(ctx: Context, game_id: str, player_id: str) -> None:
    """Index the play link of a player about to be seated (before the game write)."""
    ctx.repo.put_play(PlayRef(hash_token(ctx.play_token(player_id)), game_id, player_id))


def not_found() -> GameError:
    return GameError(ErrorCode.PLAY_LINK_NOT_FOUND,
                     "This play link does not exist. Check that the whole link was copied.", "token")


def resolve(ctx: Context, token: str) -> PlaySeat:
    """The game and seat of a raw play token (through the play index), or ``play_link_not_found``."""
    ref = ctx.repo.get_play(hash_token(token))
    game = ctx.repo.get_game(ref.game_id) if ref is not None else None
    owner = game.seat_of_player(ref.player_id) if (game is not None and ref is not None) else None
    if game is None or owner is None or owner.state is not SeatState.TAKEN or owner.kind is not Kind.HUMAN:
        raise not_found()
    game = timing.settle(game, ctx.clock())
    return PlaySeat(game, acting_seat(game, owner), owner)


def acting_seat(game: Game, owner: Seat) -> Seat:
    """The seat a link acts as: its own, except on a same-device game: the seat to move while the
    game runs, the winner's once it is over."""
    if not game.same_device:
        return owner
    if game.status is Status.IN_PROGRESS:
        return game.seat_of_colour(game.position().to_move)
    if game.winner is not None:
        return game.seat_of_colour(game.winner)
    return owner


def invitee_player_id(ctx: Context, token: str) -> str | None:
    """The player id of whoever accepted the invitation ``token`` (None while it is not accepted):
    the accepted page derives their play link from it."""
    game, invite = invite_for(ctx, token)
    if invite.status is not InviteStatus.REDEEMED:
        return None
    return game.seat(invite.seat).player_id


@dataclass(frozen=True)
class PlayView:
    """What the play page shows, from one read: the acting seat's move sheet or, once the game is
    over, its recap; on a same-device game, who is to move."""

    game_id: str
    game_name: str
    player_id: str
    sheet: MoveSheet
    recap: RecapSheet | None
    device_line: str
    opponent_name: str
    version: int  # the game's version the page shows: the form sends it back (one answer per page)


def play_view(ctx: Context, token: str) -> PlayView:
    found = resolve(ctx, token)
    game, seat = found.game, found.seat
    now = ctx.clock()
    sheet = views.move_sheet(game, seat, now)
    device_line = ""
    if game.same_device and game.status is Status.IN_PROGRESS and seat.colour is not None:
        device_line = f"{seat.name} to move ({seat.colour.value.capitalize()})"
    recap = views.recap(game, seat) if game.is_over else None
    opponent = game.opponent_of(seat)
    assert seat.player_id is not None
    return PlayView(game.game_id, game.game_name, seat.player_id, sheet, recap, device_line,
                    opponent.name or "your opponent", game.version)


def mover_for(found: PlaySeat, move_number: int) -> str:
    """The player a move sent through the link is played as: the link's seat, or on a shared
    device the seat whose colour plays ``move_number`` (so a move sent twice is recognised as the
    same move, not refused as the other seat's)."""
    game = found.game
    if not game.same_device or move_number < 1:
        return str(found.seat.player_id)
    colour = views.colour_of_turn(move_number)
    for seat in game.seats:
        if seat.colour is colour and seat.player_id is not None:
            return seat.player_id
    return str(found.seat.player_id)
