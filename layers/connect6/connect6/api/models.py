"""Pydantic models of every request and response of the contract (v1). They validate what comes
in (errors → 422 ``invalid_request``) and what goes out (a response that does not fit is a bug)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

from connect6.api.hostile import NAME_PATTERN, NOTE_PATTERN, REFUSED_CLASS, plain_note, plain_text

GAME_ID_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"
ID_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"
TOKEN_PATTERN = r"^[A-Za-z0-9_-]{1,128}$"
EMAIL_PATTERN = rf"^[^@\s{REFUSED_CLASS}]{{1,64}}@[^@\s{REFUSED_CLASS}]+\.[^@\s{REFUSED_CLASS}]+$"

# Names and notes are NFC-normalised; control, bidi and invisible characters are refused (hostile.py).
_PlainName = (AfterValidator(plain_text), Field(json_schema_extra={"pattern": NAME_PATTERN}))
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80), *_PlainName]
GameName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100), *_PlainName]
OptionalName = Annotated[str, StringConstraints(strip_whitespace=True, max_length=80), *_PlainName]
Note = Annotated[str, StringConstraints(strip_whitespace=True, max_length=500), AfterValidator(plain_note),
                 Field(json_schema_extra={"pattern": NOTE_PATTERN})]
Email = Annotated[str, StringConstraints(strip_whitespace=True, max_length=254, pattern=EMAIL_PATTERN),
                  AfterValidator(plain_text)]
Level = Literal["easy", "normal", "hard"]
Colour = Literal["black", "white"]
GameStatus = Literal["waiting_for_players", "in_progress", "completed", "draw"]


class Request(BaseModel):
    model_config = ConfigDict(extra="ignore")


class Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ---------------------------------------------------------------------- requests
class PutRunRequest(Request):
    game_name: GameName
    allow_computer_opponents: bool = False


class ComputerOpponent(Request):
    kind: Literal["computer"]
    level: Level = "normal"


class InviteOpponent(Request):
    kind: Literal["invite"]
    name: Name
    email: Email
    note: Note | None = None


class JoinRequest(Request):
    name: Name
    email: Email
    opponent: Annotated[ComputerOpponent | InviteOpponent, Field(discriminator="kind")] | None = None


class MoveRequest(Request):
    move_number: Annotated[int, Field(ge=1, le=10_000)]
    stones: Annotated[list[Annotated[str, StringConstraints(max_length=8)]], Field(max_length=10)]
    table_talk: Annotated[str, StringConstraints(max_length=64)] | None = None
    offer_draw: bool = False


class RedeemRequest(Request):
    name: OptionalName | None = None


class DrawRequest(Request):
    action: Literal["offer", "accept", "decline"] = "offer"


# ---------------------------------------------------------------------- shared parts
class ErrorDetail(Out):
    code: str
    message: str
    field: str | None


class ErrorBody(Out):
    error: ErrorDetail


class PlayerRef(Out):
    name: str | None
    kind: Literal["human", "computer"]


class WinnerRef(Out):
    colour: Colour
    name: str | None


class SeatView(Out):
    seat: int
    state: Literal["taken", "held", "open"]
    name: str | None
    kind: Literal["human", "computer"] | None
    colour: Colour | None
    hold_expires_at: str | None


class ToMove(Out):
    colour: Colour
    name: str | None
    move_number: int
    stones_to_place: int


class LastMove(Out):
    move_number: int
    colour: Colour
    stones: list[str]


class GameView(Out):
    game_id: str
    game_name: str
    status: GameStatus
    seats: list[SeatView]
    black: PlayerRef | None
    white: PlayerRef | None
    to_move: ToMove | None
    move_count: int
    stones_placed: int
    board_size: int
    board: list[str]
    last_move: LastMove | None
    winner: WinnerRef | None
    winning_line: list[str]
    end_reason: Literal["six", "full_board", "resigned", "agreed"] | None
    updated_at: str


class ReplayMove(Out):
    move_number: int
    colour: Colour
    stones: list[str]


class ReplayView(Out):
    """Every turn so far, as the board shows it (no e-mail, token or player id)."""

    game_id: str
    board_size: int
    moves: list[ReplayMove]
    record: str


# ---------------------------------------------------------------------- join function
class Rules(Out):
    board_size: int
    win_length: int
    first_turn_stones: int
    stones_per_turn: int


class JoinSheet(Out):
    sheet_type: Literal["connect6_game_join_game"]
    game_id: str
    game_name: str
    open_seats: int
    can_request_computer: bool
    can_invite: bool
    computer_levels: list[str]
    rules: Rules


class InviteOut(Out):
    invite_id: str
    name: str
    expires_at: str
    url: str


class JoinResponse(Out):
    player_id: str
    seat: int
    game: GameView
    invite: InviteOut | None


class InviteInfo(Out):
    invite_id: str
    game_id: str
    game_name: str
    inviter_name: str
    invitee_name: str
    note: str | None
    expires_at: str
    status: Literal["pending"]


class RedeemResponse(Out):
    player_id: str
    game: GameView


# ---------------------------------------------------------------------- move function
class TableTalkReceived(Out):
    phrase_id: str
    text: str
    from_: str | None = Field(alias="from", serialization_alias="from")

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class TableTalkOption(Out):
    phrase_id: str
    text: str


class MoveSheet(Out):
    sheet_type: Literal["connect6_game_move"]
    game_id: str
    player_id: str
    greeting: str
    player_name: str | None
    stone_colour: Colour | None
    opponent: PlayerRef | None
    status: GameStatus
    your_turn: bool
    move_number: int
    stones_to_place: int
    board_size: int
    board: list[str]
    last_move: LastMove | None
    table_talk_received: TableTalkReceived | None
    table_talk_options: list[TableTalkOption]
    draw_offered_by_opponent: bool


class ComputerReply(Out):
    move_number: int
    stones_placed: list[str]
    table_talk: TableTalkOption | None


class NextRef(Out):
    player_id: str
    move_number: int


class DrawOfferAnswer(Out):
    answer: Literal["pending", "accepted", "declined"]
    by: Literal["computer"] | None


class MoveResponse(Out):
    move_number: int
    colour: Colour
    stones_placed: list[str]
    status: GameStatus
    winner: WinnerRef | None
    winning_line: list[str]
    computer_reply: ComputerReply | None
    next: NextRef | None
    draw_offer: DrawOfferAnswer | None


class UndoResponse(Out):
    undone: list[LastMove]
    undos_left: int
    game: GameView


class HintResponse(Out):
    move_number: int
    stones: list[str]
    reason: str


# ---------------------------------------------------------------------- recap function
class RecapSheet(Out):
    sheet_type: Literal["connect6_game_recap"]
    game_id: str
    player_name: str | None
    your_colour: Colour | None
    status: GameStatus
    result: Literal["won", "lost", "draw"]
    winner: WinnerRef | None
    winning_line: list[str]
    end_reason: Literal["six", "full_board", "resigned", "agreed"] | None
    move_count: int
    stones_placed: int
    board_size: int
    board: list[str]
    record: str
    started_at: str | None
    finished_at: str | None
    opponent: PlayerRef | None
    table_talk_received: TableTalkReceived | None
    table_talk_sent: TableTalkReceived | None
    hints_used: int
    undos_used: int


class RecordResponse(Out):
    game_id: str
    board_size: int
    status: GameStatus
    move_count: int
    record: str

