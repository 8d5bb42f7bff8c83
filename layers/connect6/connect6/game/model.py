"""The state of one run (a game): settings, two seats, invitations, the turns played.

Everything a move must check lives in this one record, so a move is one conditional write.
``to_dict``/``from_dict`` give plain JSON-like data (ints, strings, lists, dicts, None) that the
store persists as it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from connect6.game.clock import ClockState, TimeControl
from connect6.records import parse_label, point_label
from connect6.rules import COLOURS, Colour, Position

SEATS = (1, 2)
HOLD_HOURS = 24


class Status(StrEnum):
    WAITING = "waiting_for_players"
    IN_PROGRESS = "in_progress"
    COMPLETED = "completed"
    DRAW = "draw"
    CANCELLED = "cancelled"  # the platform cancelled the run: over, with no winner


class EndReason(StrEnum):
    """Why a game ended (``Game.end_reason``; the contract's ``end_reason``). A new way to end a
    game is a new member here, in the contract's ``EndReason`` (``connect6.game.shapes``) and in an
    :class:`~connect6.game.outcome.Outcome` constructor (as ``TIME`` and ``CANCELLED`` came, v1.2)."""

    SIX = "six"  # the winner made six in a row
    FULL_BOARD = "full_board"  # a draw: the board filled without a six
    RESIGNED = "resigned"  # the loser resigned
    AGREED = "agreed"  # a draw both sides agreed
    TIME = "time"  # the loser's clock ran out
    CANCELLED = "cancelled"  # the platform cancelled the run


class SeatState(StrEnum):
    OPEN = "open"
    HELD = "held"
    TAKEN = "taken"


class Kind(StrEnum):
    HUMAN = "human"
    COMPUTER = "computer"


class InviteStatus(StrEnum):
    PENDING = "pending"
    REDEEMED = "redeemed"
    EXPIRED = "expired"


def colour_of_turn(move_number: int) -> Colour:
    """Who plays turn ``move_number`` (counted from 1): Black the opening stone, then each in turn."""
    return COLOURS[(move_number - 1) % 2]


def utc_now() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime | None) -> str | None:
    """RFC 3339 UTC with a ``Z``, whole seconds plus milliseconds when present."""
    if moment is None:
        return None
    moment = moment.astimezone(UTC)
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    if moment.microsecond:
        text += f".{moment.microsecond // 1000:03d}"
    return text + "Z"


def parse_iso(text: str | None) -> datetime | None:
    if text is None:
        return None
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)


def _req_iso(text: Any) -> datetime:
    moment = parse_iso(str(text))
    assert moment is not None
    return moment


@dataclass
class Seat:
    seat: int
    state: SeatState = SeatState.OPEN
    name: str | None = None
    email: str | None = None
    kind: Kind | None = None
    player_id: str | None = None
    level: str | None = None
    colour: Colour | None = None
    invite_id: str | None = None
    hold_expires_at: datetime | None = None
    joined_at: datetime | None = None

    def is_free(self, now: datetime) -> bool:
        """Open, or held by an invitation whose hold has run out (free at once, sweeper or not)."""
        if self.state is SeatState.OPEN:
            return True
        return (self.state is SeatState.HELD and self.hold_expires_at is not None
                and self.hold_expires_at <= now)

    def release(self) -> None:
        self.state = SeatState.OPEN
        self.name = self.email = self.player_id = self.level = self.invite_id = None
        self.kind = None
        self.colour = None
        self.hold_expires_at = None
        self.joined_at = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "state": self.state.value, "name": self.name, "email": self.email,
            "kind": self.kind.value if self.kind else None, "player_id": self.player_id,
            "level": self.level, "colour": self.colour.value if self.colour else None,
            "invite_id": self.invite_id, "hold_expires_at": iso(self.hold_expires_at),
            "joined_at": iso(self.joined_at),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        return cls(
            seat=int(data["seat"]), state=SeatState(data["state"]), name=data.get("name"),
            email=data.get("email"), kind=Kind(data["kind"]) if data.get("kind") else None,
            player_id=data.get("player_id"), level=data.get("level"),
            colour=Colour(data["colour"]) if data.get("colour") else None,
            invite_id=data.get("invite_id"), hold_expires_at=parse_iso(data.get("hold_expires_at")),
            joined_at=parse_iso(data.get("joined_at")),
        )


@dataclass
class Invite:
    """An invitation: holds one seat for 24 hours. The token is never stored, only its hash."""

    invite_id: str
    token_hash: str
    seat: int
    inviter_name: str
    invitee_name: str
    invitee_email: str
    note: str | None
    created_at: datetime
    expires_at: datetime
    status: InviteStatus = InviteStatus.PENDING

    def to_dict(self) -> dict[str, Any]:
        return {
            "invite_id": self.invite_id, "token_hash": self.token_hash, "seat": self.seat,
            "inviter_name": self.inviter_name, "invitee_name": self.invitee_name,
            "invitee_email": self.invitee_email, "note": self.note, "created_at": iso(self.created_at),
            "expires_at": iso(self.expires_at), "status": self.status.value,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Invite:
        return cls(
            invite_id=data["invite_id"], token_hash=data["token_hash"], seat=int(data["seat"]),
            inviter_name=data["inviter_name"], invitee_name=data["invitee_name"],
            invitee_email=data["invitee_email"], note=data.get("note"),
            created_at=_req_iso(data["created_at"]), expires_at=_req_iso(data["expires_at"]),
            status=InviteStatus(data["status"]),
        )


class DrawMark(StrEnum):
    """A draw offered with a turn, and the computer's answer when the computer was offered it
    (a human answers later, through the draw route or by moving)."""

    OFFERED = "o"
    ACCEPTED = "a"  # by the computer, at once: the game ended as a draw after this turn
    DECLINED = "d"  # by the computer, at once: it played on


@dataclass
class Turn:
    """One turn as played: the stones placed (labels), the stones offered when the first stone of a
    pair already won, the table-talk sent with it, and when."""

    stones: list[str]
    at: datetime
    talk: str | None = None
    offered: list[str] | None = None
    draw: DrawMark | None = None

    def encode(self) -> str:
        """One compact string per turn, ``stones|offered|talk|at[|draw]`` (labels, a phrase id,
        RFC 3339, a draw mark): a whole game stays a small item that is cheap to read and write.
        Turns without a draw offer keep the four-field form stored before offers came with moves."""
        offered = "".join(self.offered) if self.offered is not None else ""
        text = f"{''.join(self.stones)}|{offered}|{self.talk or ''}|{iso(self.at)}"
        return f"{text}|{self.draw.value}" if self.draw is not None else text

    @classmethod
    def decode(cls, text: str) -> Turn:
        from connect6.records import split_labels

        stones, offered, talk, at, *rest = text.split("|")
        return cls(stones=split_labels(stones), at=_req_iso(at), talk=talk or None,
                   offered=split_labels(offered) if offered else None,
                   draw=DrawMark(rest[0]) if rest and rest[0] else None)


@dataclass
class Game:
    """One game (a "run"): its seats, invitations and the turns played.

    Counting turns, exactly (a turn is one player's stones: Black's single opening stone, then two
    at a time). "Move" in names is the contract's word for one turn:

    * ``Game.move_count`` and ``Position.turn_count``: turns played so far (0 before Black's
      opening); the contract's ``move_count``; stored as the item's ``turn`` attribute, which every
      game write is conditioned on (``expected_move_count``);
    * ``move_number`` (the contract, views, events, ``submit_move``): the 1-based number of one
      turn: the turn just played is ``Game.move_count``, the turn a player submits is
      ``Position.turn_number`` (``Game.move_count + 1``).
    """

    game_id: str
    game_name: str
    allow_computer: bool
    created_at: datetime
    board_size: int = 15
    status: Status = Status.WAITING
    version: int = 0
    seats: list[Seat] = field(default_factory=lambda: [Seat(n) for n in SEATS])
    invites: list[Invite] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    winner: Colour | None = None
    winning_line: list[str] = field(default_factory=list)
    end_reason: EndReason | None = None
    draw_offer: Colour | None = None
    undos_used: int = 0
    hints_used: int = 0
    hint_move: int | None = None  # the move number of the last counted hint (asked again: not counted)
    closing_talk: str | None = None  # what the computer said at the end without a move of its own
    started_at: datetime | None = None
    finished_at: datetime | None = None
    updated_at: datetime | None = None
    time_control: TimeControl | None = None  # None: no clock (the contract's time_control null)
    clock: ClockState | None = None  # set when a timed game starts
    paused_at: datetime | None = None  # paused by the platform: moves refused, clocks stand
    same_device: bool = False  # two people on one device: one play link acts as the seat to move (v1.2)
    # Not stored: this game was read ended on time before the sweep stored the end (``timing.settle``);
    # such a copy is for reading only (``Change.edit`` refuses it).
    provisional: bool = field(default=False, repr=False, compare=False)

    # ------------------------------------------------------------------ queries
    @property
    def move_count(self) -> int:
        """Turns played so far (the contract's ``move_count``; stored as ``turn``)."""
        return len(self.turns)

    @property
    def is_over(self) -> bool:
        return self.status in (Status.COMPLETED, Status.DRAW, Status.CANCELLED)

    @property
    def paused(self) -> bool:
        return self.paused_at is not None

    def seat(self, number: int) -> Seat:
        return self.seats[number - 1]

    def seat_of_player(self, player_id: str) -> Seat | None:
        import hmac

        for seat in self.seats:
            if seat.player_id is not None and hmac.compare_digest(seat.player_id, player_id):
                return seat
        return None

    def seat_of_colour(self, colour: Colour) -> Seat:
        for seat in self.seats:
            if seat.colour is colour:
                return seat
        raise LookupError(f"no seat plays {colour.value}")

    def opponent_of(self, seat: Seat) -> Seat:
        return self.seat(3 - seat.seat)

    def invite(self, invite_id: str) -> Invite | None:
        for invite in self.invites:
            if invite.invite_id == invite_id:
                return invite
        return None

    def position(self, upto: int | None = None) -> Position:
        """The board after the first ``upto`` turns (all of them by default)."""
        position = Position(self.board_size)
        for turn in self.turns[: self.move_count if upto is None else upto]:
            # A pair that won on its first stone is replayed as offered: the rules drop the second.
            played = turn.offered if turn.offered is not None else turn.stones
            points = [parse_label(label, self.board_size) for label in played]
            if len(points) < position.stones_to_place:
                # A winning first stone stored without its partner: any empty point stands in for
                # the second stone, which the rules never place.
                points.append(next(p for p in range(self.board_size ** 2)
                                   if position.is_empty(p) and p not in points))
            position.play(points)
        return position

    def label(self, point: int) -> str:
        return point_label(point, self.board_size)

    # ------------------------------------------------------------------ persistence shape
    def to_dict(self) -> dict[str, Any]:
        data = self._core_dict()
        # Written only when set, so an untimed, never-paused game is stored as before.
        if self.time_control is not None:
            data["time_control"] = self.time_control.to_dict()
        if self.clock is not None:
            data["clock"] = {"black_ms": self.clock.black_ms, "white_ms": self.clock.white_ms,
                             "turn_started_at": iso(self.clock.turn_started_at),
                             "reminded": self.clock.reminded}
        if self.paused_at is not None:
            data["paused_at"] = iso(self.paused_at)
        if self.same_device:
            data["same_device"] = True
        return data

    def _core_dict(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id, "game_name": self.game_name, "allow_computer": self.allow_computer,
            "board_size": self.board_size, "status": self.status.value, "version": self.version,
            "turn": self.move_count, "seats": [s.to_dict() for s in self.seats],
            "invites": [i.to_dict() for i in self.invites], "turns": ";".join(t.encode() for t in self.turns),
            "winner": self.winner.value if self.winner else None, "winning_line": list(self.winning_line),
            "end_reason": self.end_reason.value if self.end_reason else None,
            "draw_offer": self.draw_offer.value if self.draw_offer else None,
            "undos_used": self.undos_used, "hints_used": self.hints_used, "hint_move": self.hint_move,
            "closing_talk": self.closing_talk,
            "created_at": iso(self.created_at), "started_at": iso(self.started_at),
            "finished_at": iso(self.finished_at), "updated_at": iso(self.updated_at),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        return cls(
            game_id=data["game_id"], game_name=data["game_name"], allow_computer=bool(data["allow_computer"]),
            board_size=int(data.get("board_size", 15)), status=Status(data["status"]),
            version=int(data["version"]), seats=[Seat.from_dict(s) for s in data["seats"]],
            invites=[Invite.from_dict(i) for i in data.get("invites") or []],
            turns=[Turn.decode(t) for t in (data.get("turns") or "").split(";") if t],
            winner=Colour(data["winner"]) if data.get("winner") else None,
            winning_line=list(data.get("winning_line") or []),
            end_reason=EndReason(data["end_reason"]) if data.get("end_reason") else None,
            draw_offer=Colour(data["draw_offer"]) if data.get("draw_offer") else None,
            undos_used=int(data.get("undos_used") or 0), hints_used=int(data.get("hints_used") or 0),
            hint_move=int(data["hint_move"]) if data.get("hint_move") is not None else None,
            closing_talk=data.get("closing_talk"),
            created_at=_req_iso(data["created_at"]), started_at=parse_iso(data.get("started_at")),
            finished_at=parse_iso(data.get("finished_at")), updated_at=parse_iso(data.get("updated_at")),
            time_control=TimeControl.from_dict(data["time_control"]) if data.get("time_control") else None,
            clock=_clock_from(data.get("clock")), paused_at=parse_iso(data.get("paused_at")),
            same_device=bool(data.get("same_device", False)),
        )


def _clock_from(data: dict[str, Any] | None) -> ClockState | None:
    if not data:
        return None
    return ClockState(black_ms=int(data["black_ms"]), white_ms=int(data["white_ms"]),
                      turn_started_at=_req_iso(data["turn_started_at"]),
                      reminded=int(data["reminded"]) if data.get("reminded") is not None else None)
