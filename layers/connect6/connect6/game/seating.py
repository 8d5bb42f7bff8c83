"""Filling the seats: creating a run, joining (alone, with the computer, or inviting someone),
redeeming an invitation, starting the game when both seats are taken, and the sweep that frees
seats whose invitations ran out.
"""

from __future__ import annotations

import contextlib
import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum
from functools import partial

from connect6.game import events as ev
from connect6.game import timing, views
from connect6.game.clock import TimeControl
from connect6.game.context import Context, system_colour_draw
from connect6.game.errors import ErrorCode, GameError
from connect6.game.model import HOLD_HOURS, Game, Invite, InviteStatus, Kind, SeatState, Status
from connect6.game.outcome import event_player
from connect6.game.play import index_play
from connect6.game.queries import check_redeemable, hash_token, invite_for, load
from connect6.game.repository import InviteRef, StoreError
from connect6.game.shapes import GameView
from connect6.game.transaction import Change, retrying, transact
from connect6.game.turns import after_turn, computer_turn
from connect6.rules import Colour


@dataclass
class Opponent:
    kind: str  # "computer" | "invite" | "same_device"
    level: str | None = None
    name: str | None = None
    email: str | None = None
    note: str | None = None


@dataclass(frozen=True)
class NewInvite:
    """The invitation a join made: the handler turns it into the response's link. ``token`` is the
    raw token, here once; the game keeps only its hash."""

    invite_id: str
    name: str
    expires_at: datetime
    token: str


@dataclass
class JoinOutcome:
    player_id: str
    seat: int
    game: GameView
    invite: NewInvite | None
    started: bool
    computer_think_s: float | None = None


@dataclass
class RedeemOutcome:
    player_id: str
    game: GameView
    computer_think_s: float | None = None


@dataclass
class Sweep:
    """One sweeper pass: index entries looked at, seats released."""

    examined: int = 0
    released: int = 0


def put_run(ctx: Context, game_id: str, game_name: str, allow_computer: bool,
            time_control: TimeControl | None = None) -> tuple[bool, GameView]:
    """Create the run, or confirm it exists with the same settings (the time control among them).
    (created, game view)."""
    now = ctx.clock()
    problems = time_control.problems() if time_control is not None else []
    if problems:
        field_name, message = problems[0]
        raise GameError(ErrorCode.INVALID_TIME_CONTROL, message, f"time_control.{field_name}")

    def attempt() -> tuple[bool, GameView]:
        existing = ctx.repo.get_game(game_id)
        if existing is not None:
            if (existing.game_name != game_name or existing.allow_computer != allow_computer
                    or existing.time_control != time_control):
                raise GameError(ErrorCode.CONFLICT, f"Game {game_id} already exists with other settings.")
            return False, views.game_view(timing.settle(existing, now), now)
        game = Game(game_id=game_id, game_name=game_name, allow_computer=allow_computer,
                    created_at=now, updated_at=now, board_size=ctx.board_size, version=1,
                    time_control=time_control)
        ctx.repo.create_game(game)  # a create, not a save: AlreadyExists when another got there first
        return True, views.game_view(game, now)

    return retrying(attempt)


def join(ctx: Context, game_id: str, name: str, email: str, opponent: Opponent | None = None) -> JoinOutcome:
    email_key = email.strip().lower()

    def decide(change: Change) -> JoinOutcome:
        game = load(ctx, game_id)
        now = change.now
        if game.status is Status.CANCELLED:
            raise GameError(ErrorCode.GAME_OVER, "The game was cancelled.")
        for seat in game.seats:
            if seat.state is SeatState.TAKEN and seat.email == email_key:
                raise GameError(ErrorCode.ALREADY_JOINED,
                                "That e-mail address already holds a seat in this game.", "email")
        free = [seat.seat for seat in game.seats if seat.is_free(now)]
        if not free:
            raise GameError(ErrorCode.NO_OPEN_SEAT, "There is no open seat in this game.")
        if opponent is not None:
            if not game.allow_computer:
                raise GameError(ErrorCode.OPPONENT_NOT_ALLOWED,
                                "This game does not allow bringing an opponent.", "opponent")
            if len(free) < 2:
                raise GameError(ErrorCode.OPPONENT_NOT_ALLOWED, "No seat would be left for an opponent.",
                                "opponent")
            if opponent.kind == "invite" and (opponent.email or "").strip().lower() == email_key:
                raise GameError(ErrorCode.OPPONENT_NOT_ALLOWED, "You cannot invite yourself.",
                                "opponent.email")
        new = change.edit(game)
        release_expired(new, change)
        player_id = ctx.id_factory()
        index_play(ctx, game_id, player_id)  # the joiner's play link (index first, as invitations)
        mine = new.seat(free[0])
        mine.state, mine.kind, mine.name, mine.email = SeatState.TAKEN, Kind.HUMAN, name, email_key
        mine.player_id, mine.joined_at = player_id, now
        invite_out: NewInvite | None = None
        if opponent is not None and opponent.kind == "computer":
            other = new.seat(free[1])
            level = opponent.level or "normal"
            other.state, other.kind, other.level = SeatState.TAKEN, Kind.COMPUTER, level
            other.name, other.joined_at = f"Computer ({level})", now
        elif opponent is not None and opponent.kind == "invite":
            invite_out = _invite(ctx, new, free[1], name, opponent, now)
        elif opponent is not None and opponent.kind == "same_device":
            # Two people on one device: both seats human, the joiner's play link serves both.
            other = new.seat(free[1])
            other.state, other.kind, other.name = SeatState.TAKEN, Kind.HUMAN, opponent.name or "Player 2"
            other.player_id, other.joined_at = ctx.id_factory(), now
            new.same_device = True
        started = all(seat.state is SeatState.TAKEN for seat in new.seats)
        if started:
            start(ctx, new, change)
        return JoinOutcome(player_id=player_id, seat=mine.seat, game=views.game_view(new, now),
                           invite=invite_out, started=started, computer_think_s=change.think_s)

    return transact(ctx, decide)


def _invite(ctx: Context, game: Game, seat_no: int, inviter: str, opponent: Opponent,
            now: datetime) -> NewInvite:
    """Hold seat ``seat_no`` for the invited opponent, and index the invitation's token."""
    other = game.seat(seat_no)
    invite_id = ctx.id_factory()
    token = ctx.invite_token(invite_id)
    invite = Invite(
        invite_id=invite_id, token_hash=hash_token(token), seat=other.seat, inviter_name=inviter,
        invitee_name=opponent.name or "", note=opponent.note,
        invitee_email=(opponent.email or "").strip().lower(), created_at=now,
        expires_at=now + timedelta(hours=HOLD_HOURS))
    game.invites.append(invite)
    other.state, other.invite_id = SeatState.HELD, invite.invite_id
    other.name = invite.invitee_name
    other.hold_expires_at = invite.expires_at
    # Index first: if the game write then loses, the index points at nothing and is ignored.
    ctx.repo.put_invite(InviteRef(invite.token_hash, game.game_id, invite.invite_id, invite.expires_at))
    return NewInvite(invite_id=invite.invite_id, name=invite.invitee_name, expires_at=invite.expires_at,
                     token=token)


def start(ctx: Context, game: Game, change: Change) -> None:
    """Both seats are taken: draw the colours, start, and let the computer open if it is Black."""
    black_seat = ctx.colour_draw(game) if ctx.colour_draw is not None else system_colour_draw()
    for seat in game.seats:
        seat.colour = Colour.BLACK if seat.seat == black_seat else Colour.WHITE
    game.status, game.started_at = Status.IN_PROGRESS, change.now
    timing.start(game, change.now)
    change.emit(ev.GAME_STARTED, {
        "game_id": game.game_id, "game_name": game.game_name,
        "black": event_player(game.seat_of_colour(Colour.BLACK)),
        "white": event_player(game.seat_of_colour(Colour.WHITE))})
    position = game.position()
    if game.seat_of_colour(Colour.BLACK).kind is Kind.COMPUTER:
        computer_turn(ctx, game, position, change)
    after_turn(game, position, change)


def redeem(ctx: Context, token: str, name: str | None = None) -> RedeemOutcome:

    def decide(change: Change) -> RedeemOutcome:
        game, invite = invite_for(ctx, token)
        now = change.now
        seat_no = check_redeemable(game, invite, now).seat
        chosen = (name or "").strip() or invite.invitee_name
        check_invitee_name(chosen, game.opponent_of(game.seat(seat_no)).name or invite.inviter_name)
        new = change.edit(game)
        new_invite = new.invite(invite.invite_id)
        assert new_invite is not None
        new_invite.status = InviteStatus.REDEEMED
        seat = new.seat(seat_no)
        player_id = ctx.id_factory()
        index_play(ctx, game.game_id, player_id)  # the invitee's play link
        seat.state, seat.kind, seat.player_id = SeatState.TAKEN, Kind.HUMAN, player_id
        seat.joined_at = now
        seat.name = chosen
        seat.email, seat.hold_expires_at = invite.invitee_email, None
        change.emit(ev.INVITE_REDEEMED, {
            "game_id": game.game_id, "invite_id": invite.invite_id, "player_id": player_id,
            "name": seat.name})
        release_expired(new, change)
        if all(s.state is SeatState.TAKEN for s in new.seats):
            start(ctx, new, change)
        return RedeemOutcome(player_id, views.game_view(new, now), change.think_s)

    outcome = transact(ctx, decide)
    # Housekeeping only: if it fails, the sweeper settles a redeemed invitation's index entry.
    with contextlib.suppress(StoreError):
        ctx.repo.close_invite(hash_token(token))
    return outcome


def _plain(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


_COMPUTER_NAME = re.compile(r"computer\s*(\(.*\))?")


def check_invitee_name(name: str, inviter_name: str) -> None:
    """An invitee may not play under the computer's name ("Computer (hard)", any level or none) or
    under the inviter's own name (case, width and spacing aside): the board and the sheets would
    show two players nobody can tell apart. Refused with ``name_not_allowed`` before anything is
    written."""
    plain = _plain(name)
    if _COMPUTER_NAME.fullmatch(plain):
        raise GameError(ErrorCode.NAME_NOT_ALLOWED,
                        f"“{name}” is the computer's name; please choose another name to play under.", "name")
    if inviter_name and plain == _plain(inviter_name):
        raise GameError(ErrorCode.NAME_NOT_ALLOWED,
                        f"“{name}” is the name of the player who invited you; please choose another name "
                        "so the two of you can be told apart.", "name")


# ---------------------------------------------------------------------- expiry
def release_expired(game: Game, change: Change) -> None:
    """Free every seat whose hold has run out, marking its invitation expired."""
    for seat in game.seats:
        if seat.state is SeatState.HELD and seat.is_free(change.now):
            invite = game.invite(seat.invite_id or "")
            if invite is not None and invite.status is InviteStatus.PENDING:
                _expire(game, invite, change)
            seat.release()


def _expire(game: Game, invite: Invite, change: Change) -> None:
    invite.status = InviteStatus.EXPIRED
    change.emit(ev.INVITE_EXPIRED, {"game_id": game.game_id, "invite_id": invite.invite_id,
                                    "seat": invite.seat, "invitee_name": invite.invitee_name})


class _Swept(Enum):
    RELEASED = "released"  # the seat is free and the invitation expired: the entry leaves the index
    SETTLED = "settled"  # redeemed, released already, or never written: the entry leaves the index
    NOT_DUE = "not_due"  # not quite due, or the game stayed busy: the next run takes it


def expire_holds(ctx: Context, limit: int = 100) -> Sweep:
    """Release every seat whose hold ran out (found through the expiry index, never a scan). Safe
    to run twice at once and against a redemption: the game write decides. An entry leaves the
    index once its invitation is settled (released here, redeemed, or gone)."""
    now = ctx.clock()
    sweep = Sweep()
    for ref in ctx.repo.due_invites(now, limit):
        sweep.examined += 1
        try:
            swept = transact(ctx, partial(_expire_one, ctx, ref), now=now)
        except GameError as exc:
            if exc.code is not ErrorCode.BUSY:
                raise
            swept = _Swept.NOT_DUE
        if swept is _Swept.RELEASED:
            sweep.released += 1
        if swept is not _Swept.NOT_DUE:
            ctx.repo.close_invite(ref.token_hash)
    return sweep


def _expire_one(ctx: Context, ref: InviteRef, change: Change) -> _Swept:
    game = ctx.repo.get_game(ref.game_id)
    invite = game.invite(ref.invite_id) if game is not None else None
    if game is None or invite is None or invite.status is not InviteStatus.PENDING:
        return _Swept.SETTLED
    if invite.expires_at > change.now:
        return _Swept.NOT_DUE  # the index keeps milliseconds
    new = change.edit(game)
    release_expired(new, change)
    new_invite = new.invite(ref.invite_id)
    if new_invite is not None and new_invite.status is InviteStatus.PENDING:
        _expire(new, new_invite, change)
    return _Swept.RELEASED
