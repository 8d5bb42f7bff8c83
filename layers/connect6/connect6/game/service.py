"""The game type's use cases over a :class:`Repository`: runs, joining, invitations, turns, the
computer's replies, sheets, recap, the invite sweeper. Pure logic: no HTTP, no AWS.

Every change is one conditional write of the game record (version and turn in the condition),
carrying the change's events (the outbox: delivered from the store's stream, never published
here). When a write loses, the use case reloads and decides again, so a request either lands
whole, with its events, or is refused with a :class:`GameError` having changed nothing.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import random
import secrets
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from connect6.game import events as ev
from connect6.game import talk as computer_talk
from connect6.game import views
from connect6.game.errors import ErrorCode, GameError
from connect6.game.events import Event
from connect6.game.model import (
    HOLD_HOURS,
    DrawMark,
    Game,
    Invite,
    InviteStatus,
    Kind,
    Seat,
    SeatState,
    Status,
    Turn,
    iso,
    utc_now,
)
from connect6.game.phrases import PHRASES
from connect6.game.repository import AlreadyExists, InviteRef, Repository, StoreError, VersionConflict
from connect6.game.shapes import (
    AcceptedInvite,
    BoardPicture,
    GameView,
    HintResponse,
    InviteInfo,
    JoinSheet,
    MoveResponse,
    MoveSheet,
    RecapSheet,
    RecordResponse,
    ReplayView,
    UndoResponse,
)
from connect6.records import RecordError, parse_label
from connect6.rules import COLOURS, Colour, IllegalMove, IllegalReason, Position, TurnResult

if TYPE_CHECKING:  # the engine is imported only when a hint or a reply is needed (cold start)
    from connect6.ai import Hint

MAX_ATTEMPTS = 8
_T = TypeVar("_T")
MAX_UNDOS = 3  # per game, against the computer


class Computer(Protocol):
    def __call__(self, position: Position, level: str, *, budget_s: float | None,
                 rng: random.Random) -> Sequence[int]: ...


def default_computer(position: Position, level: str, *, budget_s: float | None,
                     rng: random.Random) -> Sequence[int]:
    """The computer opponent of ``connect6.ai`` (imported on first use: cold starts of the
    functions that never play stay light)."""
    from connect6.ai import choose_move

    return choose_move(position, level, budget_s=budget_s, rng=rng)


def default_draw_judge(position: Position, level: str) -> bool:
    """Whether the computer, to move in ``position``, accepts a draw (``connect6.game.draw_judge``)."""
    from connect6.game.draw_judge import is_level

    return is_level(position, level)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_id() -> str:
    """An unguessable id: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def system_colour_draw(game: Game) -> int:
    """Which seat (1 or 2) plays Black: a fair random draw."""
    return secrets.SystemRandom().choice((1, 2))


@dataclass
class Opponent:
    kind: str  # "computer" | "invite"
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
class MoveOutcome:
    response: MoveResponse
    replayed: bool
    finished: bool
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


@dataclass
class _Work:
    """What one attempt produced besides the new game: events and timings."""

    events: list[Event] = field(default_factory=list)
    think_s: float | None = None


class GameService:
    def __init__(
        self,
        repo: Repository,
        *,
        clock: Callable[[], datetime] = utc_now,
        computer: Computer = default_computer,
        computer_budget_s: float | None = None,
        colour_draw: Callable[[Game], int] = system_colour_draw,
        id_factory: Callable[[], str] = new_id,
        token_factory: Callable[[], str] = lambda: secrets.token_urlsafe(32),
        event_id_factory: Callable[[], str] = lambda: str(uuid.uuid4()),
        invite_token: Callable[[str], str] | None = None,
        board_size: int = 15,
        draw_judge: Callable[[Position, str], bool] = default_draw_judge,
    ) -> None:
        self.repo = repo
        self.draw_judge = draw_judge
        self.event_id_factory = event_id_factory
        self.clock = clock
        self.computer = computer
        self.computer_budget_s = computer_budget_s
        self.colour_draw = colour_draw
        self.id_factory = id_factory
        self.token_factory = token_factory
        # An invitation's token from its id (derived from a secret, so it can be derived again);
        # without one, a random token.
        self.invite_token = invite_token or (lambda invite_id: token_factory())
        self.board_size = board_size

    # ------------------------------------------------------------------ helpers
    def _load(self, game_id: str) -> Game:
        game = self.repo.get_game(game_id)
        if game is None:
            raise GameError(ErrorCode.GAME_NOT_FOUND, f"There is no game {game_id}.", "game_id")
        return game

    def _player(self, game: Game, player_id: str) -> Seat:
        seat = game.seat_of_player(player_id)
        if seat is None or seat.state is not SeatState.TAKEN or seat.kind is not Kind.HUMAN:
            raise GameError(ErrorCode.PLAYER_NOT_FOUND, "There is no such player in this game.",
                            "player_id")
        return seat

    @staticmethod
    def _your_turn_against_the_computer(game: Game, seat: Seat, refusal: ErrorCode, message: str) -> Position:
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

    def _seated_in_started_game(self, game_id: str, player_id: str) -> tuple[Game, Seat]:
        """The game and the player's seat, for a player acting in it: refused when the game or the
        player does not exist, or while the game waits for its players."""
        game = self._load(game_id)
        seat = self._player(game, player_id)
        if game.status is Status.WAITING:
            raise GameError(ErrorCode.GAME_NOT_STARTED, "The game has not started yet.")
        return game, seat

    def _save(self, before: Game, after: Game, now: datetime, work: _Work) -> None:
        """The one conditional write of a change, with its events (stamped with an id and time)."""
        after.version = before.version + 1
        after.updated_at = now
        occurred = iso(now) or ""
        events = [event.stamped(self.event_id_factory(), occurred) for event in work.events]
        self.repo.save_game(after, expected_version=before.version, expected_move_count=before.move_count,
                            events=events)

    def _retrying(self, attempt: Callable[[], _T]) -> _T:
        """Optimistic concurrency: ``attempt`` reads the game, decides and writes conditionally; when
        another writer got there first the decision was made on a stale game, so read and decide again."""
        for _ in range(MAX_ATTEMPTS):
            try:
                return attempt()
            except (VersionConflict, AlreadyExists):
                continue
        raise GameError(ErrorCode.BUSY, "The game is busy; please try again.")

    @staticmethod
    def _copy(game: Game) -> Game:
        return Game.from_dict(game.to_dict())

    def _release_expired(self, game: Game, now: datetime, work: _Work) -> None:
        """Free every seat whose hold has run out, marking its invitation expired."""
        for seat in game.seats:
            if seat.state is SeatState.HELD and seat.is_free(now):
                invite = game.invite(seat.invite_id or "")
                if invite is not None and invite.status is InviteStatus.PENDING:
                    invite.status = InviteStatus.EXPIRED
                    work.events.append(Event(ev.INVITE_EXPIRED, {
                        "game_id": game.game_id, "invite_id": invite.invite_id, "seat": seat.seat,
                        "invitee_name": invite.invitee_name}))
                seat.release()

    # ------------------------------------------------------------------ runs
    def put_run(self, game_id: str, game_name: str, allow_computer: bool) -> tuple[bool, GameView]:
        """Create the run, or confirm it exists with the same settings. (created, game view)."""
        now = self.clock()

        def attempt() -> tuple[bool, GameView]:
            existing = self.repo.get_game(game_id)
            if existing is not None:
                if existing.game_name != game_name or existing.allow_computer != allow_computer:
                    raise GameError(ErrorCode.CONFLICT,
                                    f"Game {game_id} already exists with other settings.")
                return False, views.game_view(existing, now)
            game = Game(game_id=game_id, game_name=game_name, allow_computer=allow_computer,
                        created_at=now, updated_at=now, board_size=self.board_size, version=1)
            self.repo.create_game(game)
            return True, views.game_view(game, now)

        return self._retrying(attempt)

    def view(self, game_id: str) -> GameView:
        return views.game_view(self._load(game_id), self.clock())

    def join_sheet(self, game_id: str) -> JoinSheet:
        return views.join_sheet(self._load(game_id), self.clock())

    def replay(self, game_id: str) -> ReplayView:
        """Every turn so far, for spectators (read-only)."""
        from connect6.game.replay import replay_view

        return replay_view(self._load(game_id))

    def board_after(self, game_id: str, move: int) -> BoardPicture:
        """The board after ``move`` turns, for the SVG (read-only). A move the game has not reached
        is refused with ``move_not_found``."""
        from connect6.game.replay import board_after

        game = self._load(game_id)
        if not 0 <= move <= game.move_count:
            raise GameError(ErrorCode.MOVE_NOT_FOUND,
                            f"Game {game_id} has {game.move_count} moves so far; ask for a move from 0 to "
                            f"{game.move_count}.", "move")
        return board_after(game, move)

    # ------------------------------------------------------------------ joining
    def join(self, game_id: str, name: str, email: str, opponent: Opponent | None = None) -> JoinOutcome:
        email_key = email.strip().lower()

        def attempt() -> JoinOutcome:
            game = self._load(game_id)
            now = self.clock()
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
                    raise GameError(ErrorCode.OPPONENT_NOT_ALLOWED,
                                    "No seat would be left for an opponent.", "opponent")
                if opponent.kind == "invite" and (opponent.email or "").strip().lower() == email_key:
                    raise GameError(ErrorCode.OPPONENT_NOT_ALLOWED, "You cannot invite yourself.",
                                    "opponent.email")
            work = _Work()
            new = self._copy(game)
            self._release_expired(new, now, work)
            player_id = self.id_factory()
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
                other = new.seat(free[1])
                invite_id = self.id_factory()
                token = self.invite_token(invite_id)
                invite = Invite(
                    invite_id=invite_id, token_hash=hash_token(token), seat=other.seat,
                    inviter_name=name, invitee_name=opponent.name or "", note=opponent.note,
                    invitee_email=(opponent.email or "").strip().lower(), created_at=now,
                    expires_at=now + timedelta(hours=HOLD_HOURS))
                new.invites.append(invite)
                other.state, other.invite_id = SeatState.HELD, invite.invite_id
                other.name = invite.invitee_name
                other.hold_expires_at = invite.expires_at
                # Index first: if the game write then loses, the index points at nothing and is ignored.
                self.repo.put_invite(
                    InviteRef(invite.token_hash, game_id, invite.invite_id, invite.expires_at))
                invite_out = NewInvite(invite_id=invite.invite_id, name=invite.invitee_name,
                                       expires_at=invite.expires_at, token=token)
            started = all(seat.state is SeatState.TAKEN for seat in new.seats)
            if started:
                self._start(new, now, work)
            self._save(game, new, now, work)
            return JoinOutcome(player_id=player_id, seat=mine.seat, game=views.game_view(new, now),
                               invite=invite_out, started=started, computer_think_s=work.think_s)

        return self._retrying(attempt)

    def _start(self, game: Game, now: datetime, work: _Work) -> None:
        black_seat = self.colour_draw(game)
        for seat in game.seats:
            seat.colour = Colour.BLACK if seat.seat == black_seat else Colour.WHITE
        game.status, game.started_at = Status.IN_PROGRESS, now
        work.events.append(Event(ev.GAME_STARTED, {
            "game_id": game.game_id, "game_name": game.game_name,
            "black": self._event_player(game.seat_of_colour(Colour.BLACK)),
            "white": self._event_player(game.seat_of_colour(Colour.WHITE))}))
        position = game.position()
        if game.seat_of_colour(Colour.BLACK).kind is Kind.COMPUTER:
            self._computer_turn(game, position, now, work)
        self._after_turn(game, position, work)

    @staticmethod
    def _event_player(seat: Seat) -> dict[str, Any]:
        return {"player_id": seat.player_id, "name": seat.name,
                "kind": seat.kind.value if seat.kind else None}

    # ------------------------------------------------------------------ invitations
    def _invite_for(self, token: str) -> tuple[Game, Invite, str]:
        token_hash = hash_token(token)
        ref = self.repo.get_invite(token_hash)
        game = self.repo.get_game(ref.game_id) if ref is not None else None
        invite = game.invite(ref.invite_id) if (game is not None and ref is not None) else None
        if game is None or invite is None or not hmac.compare_digest(invite.token_hash, token_hash):
            raise GameError(ErrorCode.INVITE_NOT_FOUND, "This invitation does not exist.", "token")
        return game, invite, token_hash

    def _check_redeemable(self, game: Game, invite: Invite, now: datetime) -> Seat:
        if invite.status is InviteStatus.REDEEMED:
            raise GameError(ErrorCode.INVITE_ALREADY_USED, "This invitation has already been used.",
                            "token")
        seat = game.seat(invite.seat)
        if (invite.status is InviteStatus.EXPIRED or invite.expires_at <= now
                or seat.state is not SeatState.HELD or seat.invite_id != invite.invite_id):
            raise GameError(ErrorCode.INVITE_EXPIRED, "This invitation has expired.", "token")
        return seat

    def invite_info(self, token: str) -> InviteInfo:
        """What the invitation page shows. Changes nothing (mail scanners prefetch links)."""
        game, invite, _ = self._invite_for(token)
        self._check_redeemable(game, invite, self.clock())
        return views.invite_view(game, invite.invite_id)

    def accepted_invite(self, token: str) -> AcceptedInvite:
        """What the page of an invitation already accepted shows (read-only, nothing secret): the
        name and colour of whoever took the seat, and the game view. Any other invitation is
        refused as :meth:`invite_info` refuses it (not found, expired)."""
        game, invite, _ = self._invite_for(token)
        if invite.status is not InviteStatus.REDEEMED:
            self._check_redeemable(game, invite, self.clock())
            raise GameError(ErrorCode.INVITE_NOT_FOUND, "This invitation has not been accepted.", "token")
        seat = game.seat(invite.seat)
        return AcceptedInvite(name=seat.name, colour=seat.colour.value if seat.colour else None,
                              game=views.game_view(game, self.clock()))

    def redeem(self, token: str, name: str | None = None) -> RedeemOutcome:

        def attempt() -> RedeemOutcome:
            game, invite, token_hash = self._invite_for(token)
            now = self.clock()
            seat_no = self._check_redeemable(game, invite, now).seat
            work = _Work()
            new = self._copy(game)
            new_invite = new.invite(invite.invite_id)
            assert new_invite is not None
            new_invite.status = InviteStatus.REDEEMED
            seat = new.seat(seat_no)
            player_id = self.id_factory()
            seat.state, seat.kind, seat.player_id = SeatState.TAKEN, Kind.HUMAN, player_id
            seat.joined_at = now
            seat.name = (name or "").strip() or invite.invitee_name
            seat.email, seat.hold_expires_at = invite.invitee_email, None
            work.events.append(Event(ev.INVITE_REDEEMED, {
                "game_id": game.game_id, "invite_id": invite.invite_id, "player_id": player_id,
                "name": seat.name}))
            self._release_expired(new, now, work)
            if all(s.state is SeatState.TAKEN for s in new.seats):
                self._start(new, now, work)
            self._save(game, new, now, work)
            # Housekeeping only: if it fails, the sweeper settles a redeemed invitation's index entry.
            with contextlib.suppress(StoreError):
                self.repo.close_invite(token_hash)
            return RedeemOutcome(player_id, views.game_view(new, now), work.think_s)

        return self._retrying(attempt)

    def expire_holds(self, limit: int = 100) -> Sweep:
        """Release every seat whose hold ran out (found through the expiry index, never a scan).
        Safe to run twice at once and against a redemption: the game write decides. An entry
        leaves the index once its invitation is settled (released here, redeemed, or gone)."""
        now = self.clock()
        sweep = Sweep()
        for ref in self.repo.due_invites(now, limit):
            sweep.examined += 1
            settled = False
            for _ in range(MAX_ATTEMPTS):
                game = self.repo.get_game(ref.game_id)
                invite = game.invite(ref.invite_id) if game is not None else None
                if game is None or invite is None or invite.status is not InviteStatus.PENDING:
                    settled = True  # redeemed, released already, or never written: nothing to free
                    break
                if invite.expires_at > now:
                    break  # not quite due (the index keeps milliseconds): the next run takes it
                work = _Work()
                new = self._copy(game)
                self._release_expired(new, now, work)
                new_invite = new.invite(ref.invite_id)
                if new_invite is not None and new_invite.status is InviteStatus.PENDING:
                    new_invite.status = InviteStatus.EXPIRED
                    work.events.append(Event(ev.INVITE_EXPIRED, {
                        "game_id": game.game_id, "invite_id": invite.invite_id, "seat": invite.seat,
                        "invitee_name": invite.invitee_name}))
                try:
                    self._save(game, new, now, work)
                except VersionConflict:
                    continue
                sweep.released += 1
                settled = True
                break
            if settled:
                self.repo.close_invite(ref.token_hash)
        return sweep

    # ------------------------------------------------------------------ turns
    def move_sheet(self, game_id: str, player_id: str) -> MoveSheet:
        game = self._load(game_id)
        return views.move_sheet(game, self._player(game, player_id), self.clock())

    def recap(self, game_id: str, player_id: str) -> RecapSheet:
        game = self._load(game_id)
        seat = self._player(game, player_id)
        if not game.is_over:
            raise GameError(ErrorCode.GAME_NOT_FINISHED, "The game is not finished yet.")
        return views.recap(game, seat)

    def record(self, game_id: str, player_id: str) -> RecordResponse:
        game = self._load(game_id)
        self._player(game, player_id)
        return RecordResponse(game_id=game.game_id, board_size=game.board_size, status=game.status.value,
                              move_count=game.move_count, record=views.record_text(game))

    @staticmethod
    def _is_replay(game: Game, seat: Seat, move_number: int, labels: list[str], talk: str | None,
                   offer_draw: bool) -> bool:
        if not 1 <= move_number <= game.move_count or views.colour_of_turn(move_number) is not seat.colour:
            return False
        turn = game.turns[move_number - 1]
        return ((turn.offered or turn.stones) == labels and turn.talk == talk
                and (turn.draw is not None) == offer_draw)

    def _parse_stones(self, game: Game, stones: Sequence[str]) -> list[int]:
        points = []
        for index, text in enumerate(stones):
            try:
                points.append(parse_label(text.strip(), game.board_size))
            except RecordError as exc:
                raise GameError(ErrorCode.ILLEGAL_MOVE, f"{text!r} is not a point like h8.",
                                f"stones[{index}]") from exc
            except IllegalMove as exc:
                size = game.board_size
                raise GameError(ErrorCode.ILLEGAL_MOVE,
                                f"{text.strip().lower()} is off the {size}x{size} board.",
                                f"stones[{index}]") from exc
        return points

    @staticmethod
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

    def submit_move(self, game_id: str, player_id: str, move_number: int, stones: Sequence[str],
                    talk: str | None = None, offer_draw: bool = False) -> MoveOutcome:
        """Play a turn; ``offer_draw`` offers a draw with it. The computer answers an offer at once
        (accepting only when ``draw_judge`` says the game is level: the game ends as a draw and it
        does not reply); a human opponent accepts through :meth:`draw` or declines by moving."""
        labels = [s.strip().lower() for s in stones]

        def attempt() -> MoveOutcome:
            game, seat = self._seated_in_started_game(game_id, player_id)
            now = self.clock()
            if self._is_replay(game, seat, move_number, labels, talk, offer_draw):
                return MoveOutcome(views.move_result(game, move_number, seat), replayed=True,
                                   finished=game.is_over)
            if game.is_over:
                raise GameError(ErrorCode.GAME_OVER, "The game is over.")
            position = game.position()
            if move_number < position.turn_number:
                raise GameError(ErrorCode.STALE_MOVE,
                                f"Move {move_number} has already been played; this is move "
                                f"{position.turn_number}.", "move_number")
            if position.to_move is not seat.colour:
                raise GameError(ErrorCode.NOT_YOUR_TURN, "It is not your turn.")
            if move_number != position.turn_number:
                raise GameError(ErrorCode.STALE_MOVE,
                                f"This is move {position.turn_number}, not move {move_number}.",
                                "move_number")
            if talk is not None and talk not in PHRASES:
                raise GameError(ErrorCode.UNKNOWN_PHRASE, f"{talk!r} is not a table-talk phrase.",
                                "table_talk")
            points = self._parse_stones(game, labels)
            try:
                result = position.play(points)
            except IllegalMove as exc:
                raise self._illegal(exc, game) from exc
            work = _Work()
            new = self._copy(game)
            placed = [game.label(p) for p in result.placed]
            turn = Turn(stones=placed, at=now, talk=talk, offered=labels if placed != labels else None,
                        draw=DrawMark.OFFERED if offer_draw else None)
            new.turns.append(turn)
            new.draw_offer = None  # moving declines the opponent's standing offer
            self._finish_if_over(new, position, result, now, work)
            opponent = new.opponent_of(new.seat(seat.seat))
            against_computer = opponent.kind is Kind.COMPUTER
            if offer_draw and not new.is_over:
                self._offer_with_move(new, seat, opponent, turn, position, move_number, now, work)
            if new.is_over and against_computer:
                new.closing_talk = computer_talk.closing_line(new.end_reason or "")
            elif against_computer:
                self._computer_turn(new, position, now, work)
            self._after_turn(new, position, work)
            self._save(game, new, now, work)
            return MoveOutcome(views.move_result(new, move_number, new.seat(seat.seat)), replayed=False,
                               finished=new.is_over, computer_think_s=work.think_s)

        return self._retrying(attempt)

    def _offer_with_move(self, game: Game, seat: Seat, opponent: Seat, turn: Turn, position: Position,
                         move_number: int, now: datetime, work: _Work) -> None:
        """A draw offered with a turn: the computer answers at once, a human is told (event)."""
        if opponent.kind is Kind.COMPUTER:
            if self.draw_judge(position, opponent.level or "normal"):
                turn.draw = DrawMark.ACCEPTED
                game.status, game.end_reason = Status.DRAW, "agreed"
                self._finished(game, now, work)
            else:
                turn.draw = DrawMark.DECLINED
            return
        game.draw_offer = seat.colour
        work.events.append(Event(ev.DRAW_OFFERED, {
            "game_id": game.game_id, "player_id": opponent.player_id, "move_number": move_number}))

    def _finish_if_over(self, game: Game, position: Position, result: TurnResult, now: datetime,
                        work: _Work) -> None:
        if result.winner is not None:
            game.status, game.winner, game.end_reason = Status.COMPLETED, result.winner, "six"
            game.winning_line = [game.label(p) for p in result.winning_line]
        elif result.draw:
            game.status, game.end_reason = Status.DRAW, "full_board"
        else:
            return
        self._finished(game, now, work)

    def _finished(self, game: Game, now: datetime, work: _Work) -> None:
        game.finished_at = now
        winner = views.winner_ref(game, game.winner)
        work.events.append(Event(ev.GAME_FINISHED, {
            "game_id": game.game_id, "status": game.status.value, "end_reason": game.end_reason,
            "winner": winner.model_dump() if winner is not None else None, "move_count": game.move_count,
            "players": [self._event_player(s) for s in game.seats]}))

    def _computer_turn(self, game: Game, position: Position, now: datetime, work: _Work) -> None:
        seat = game.seat_of_colour(position.to_move)
        rng = random.Random(f"{game.game_id}:{position.turn_number}")
        started = time.perf_counter()
        stones = tuple(self.computer(position, seat.level or "normal", budget_s=self.computer_budget_s,
                                     rng=rng))
        work.think_s = (work.think_s or 0.0) + time.perf_counter() - started
        before = position.copy()
        result = position.play(stones)
        talk = computer_talk.computer_line(before, position)
        placed = [game.label(p) for p in result.placed]
        offered = [game.label(p) for p in stones]
        game.turns.append(Turn(stones=placed, at=now, talk=talk,
                               offered=offered if offered != placed else None))
        self._finish_if_over(game, position, result, now, work)

    def _after_turn(self, game: Game, position: Position, work: _Work) -> None:
        """Tell the platform whose sheet to send next."""
        if game.is_over or game.status is not Status.IN_PROGRESS:
            return
        seat = game.seat_of_colour(position.to_move)
        if seat.kind is Kind.HUMAN:
            work.events.append(Event(ev.TURN_READY, {
                "game_id": game.game_id, "player_id": seat.player_id, "name": seat.name,
                "move_number": position.turn_number}))

    # ------------------------------------------------------------------ resign, draw, hint
    def resign(self, game_id: str, player_id: str) -> GameView:

        def attempt() -> GameView:
            game, seat = self._seated_in_started_game(game_id, player_id)
            now = self.clock()
            if game.is_over:
                if game.end_reason == "resigned" and game.winner not in (None, seat.colour):
                    return views.game_view(game, now)  # the same resignation, re-sent
                raise GameError(ErrorCode.GAME_OVER, "The game is over.")
            work = _Work()
            new = self._copy(game)
            assert seat.colour is not None
            new.status, new.winner, new.end_reason = Status.COMPLETED, seat.colour.other, "resigned"
            if new.opponent_of(seat).kind is Kind.COMPUTER:
                new.closing_talk = computer_talk.closing_line("resigned")
            self._finished(new, now, work)
            self._save(game, new, now, work)
            return views.game_view(new, now)

        return self._retrying(attempt)

    def draw(self, game_id: str, player_id: str, action: str) -> GameView:
        """``offer`` a draw, ``accept`` or ``decline`` the opponent's offer. The computer answers an
        offer at once: it accepts only when ``draw_judge`` says the game is level."""

        def attempt() -> GameView:
            game, seat = self._seated_in_started_game(game_id, player_id)
            now = self.clock()
            if game.is_over:
                if action == "accept" and game.end_reason == "agreed":
                    return views.game_view(game, now)
                raise GameError(ErrorCode.GAME_OVER, "The game is over.")
            assert seat.colour is not None
            opponent_offer = game.draw_offer is not None and game.draw_offer is not seat.colour
            work = _Work()
            new = self._copy(game)
            if action == "offer":
                opponent = game.opponent_of(seat)
                if opponent.kind is Kind.COMPUTER:
                    new.draw_offer = None
                    if self.draw_judge(game.position(), opponent.level or "normal"):
                        new.status, new.end_reason = Status.DRAW, "agreed"
                        new.closing_talk = computer_talk.closing_line("agreed")
                        self._finished(new, now, work)
                    # else the computer plays on
                elif opponent_offer:
                    new.status, new.end_reason, new.draw_offer = Status.DRAW, "agreed", None
                    self._finished(new, now, work)
                else:
                    new.draw_offer = seat.colour
                    if game.draw_offer is not seat.colour:
                        work.events.append(Event(ev.DRAW_OFFERED, {
                            "game_id": game.game_id, "player_id": opponent.player_id,
                            "move_number": game.move_count}))
            else:
                if not opponent_offer:
                    raise GameError(ErrorCode.NO_DRAW_OFFER, "Your opponent has not offered a draw.",
                                    "action")
                new.draw_offer = None
                if action == "accept":
                    new.status, new.end_reason = Status.DRAW, "agreed"
                    self._finished(new, now, work)
            self._save(game, new, now, work)
            return views.game_view(new, now)

        return self._retrying(attempt)

    def hint(self, game_id: str, player_id: str) -> HintResponse:
        """The hard level's move for the player to move, only against the computer. Counted for the
        recap (once per move number: asking again on the same turn is not another hint) by a
        conditional write that changes nothing but the counter: no event, no ``updated_at``."""
        found_at: dict[int, Hint] = {}

        def attempt() -> HintResponse:
            game, seat = self._seated_in_started_game(game_id, player_id)
            position = self._your_turn_against_the_computer(
                game, seat, ErrorCode.HINTS_NOT_ALLOWED,
                "Hints are only given in a game against the computer.")
            # A retry after a lost counter write sees the same position: search it once.
            if position.turn_number not in found_at:
                from connect6.ai import hint as ai_hint

                found_at[position.turn_number] = ai_hint(position, budget_s=self.computer_budget_s)
            found = found_at[position.turn_number]
            if game.hint_move != position.turn_number:
                counted = self._copy(game)
                counted.hints_used += 1
                counted.hint_move = position.turn_number
                counted.version = game.version + 1
                self.repo.save_game(counted, expected_version=game.version,
                                    expected_move_count=game.move_count)
            return HintResponse(move_number=position.turn_number,
                                stones=[game.label(p) for p in found.stones], reason=found.reason)

        return self._retrying(attempt)

    # ------------------------------------------------------------------ undo
    def undo(self, game_id: str, player_id: str) -> UndoResponse:
        """Take back the player's last turn and the computer's reply after it: it is their turn
        again at that move number. Only against the computer, while the game runs, at most
        :data:`MAX_UNDOS` times a game. Not idempotent by itself (a second call takes back the turn
        before): the route's ``Idempotency-Key`` makes a retry safe."""

        def attempt() -> UndoResponse:
            game, seat = self._seated_in_started_game(game_id, player_id)
            now = self.clock()
            self._your_turn_against_the_computer(
                game, seat, ErrorCode.UNDO_NOT_ALLOWED,
                "Moves can only be taken back in a game against the computer.")
            mine = [n for n in range(1, game.move_count + 1) if views.colour_of_turn(n) is seat.colour]
            if not mine:
                raise GameError(ErrorCode.NOTHING_TO_UNDO, "You have not played a move yet.")
            if game.undos_used >= MAX_UNDOS:
                raise GameError(ErrorCode.UNDO_LIMIT_REACHED,
                                f"You have taken back {MAX_UNDOS} moves already in this game.")
            back_to = mine[-1]  # the player's last turn; the computer's reply follows it
            undone = [views.turn_played(game, n) for n in range(game.move_count, back_to - 1, -1)]
            work = _Work()
            new = self._copy(game)
            del new.turns[back_to - 1:]
            new.undos_used += 1
            new.draw_offer = None
            new.hint_move = None  # the move comes again: a hint on it counts again
            work.events.append(Event(ev.MOVE_UNDONE, {
                "game_id": game.game_id, "player_id": seat.player_id, "move_number": back_to}))
            position = new.position()
            self._after_turn(new, position, work)
            self._save(game, new, now, work)
            return UndoResponse(undone=undone, undos_left=MAX_UNDOS - new.undos_used,
                                game=views.game_view(new, now, position))

        return self._retrying(attempt)


__all__ = ["COLOURS", "GameService", "JoinOutcome", "MoveOutcome", "NewInvite", "Opponent", "RedeemOutcome",
           "hash_token"]
