"""The responses of the contract as types: every view, sheet and answer the domain builds
(:mod:`connect6.game.views`), the handlers serialise and the pages read.

They are pydantic models so that building one checks it (a field missing, misspelt or of the wrong
kind is a ``ValidationError`` at once) and mypy checks every use (the pydantic plugin: a renamed
field is a type error where a page or a handler uses it). Their JSON (``model_dump_json(by_alias=True)``)
is the wire format byte for byte; their JSON schemas are the components of ``docs/openapi.json``,
so a class's name and docstring are part of that document.

The domain builds them, so they live here, under the domain, where the API (``connect6.api``) and
the pages (``connect6.pages``) may both import them; the request models, which carry the
hostile-input checks of the API, stay in :mod:`connect6.api.models`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Colour = Literal["black", "white"]
GameStatus = Literal["waiting_for_players", "in_progress", "completed", "draw", "cancelled"]
EndReason = Literal["six", "full_board", "resigned", "agreed", "time", "cancelled"]


class Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


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


class ClockView(Out):
    """A timed game's clocks (v1.2): when the player to move runs out (null while the game is
    paused, finished, or the computer is to move: the computer has no clock), and each side's time
    left in whole seconds, the mover's counted down to the moment of the answer."""

    deadline: str | None
    black_seconds: int
    white_seconds: int


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
    end_reason: EndReason | None
    updated_at: str
    # v1.2: null for a game without a clock; paused while the platform has paused the run.
    clock: ClockView | None = None
    paused: bool = False


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
    sheet_code: str  # v1.2: game, seat and move number with a check symbol (game/sheet_code.py)
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
    play_url: str | None = None  # v1.2: the joiner's secret play link


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
    play_url: str | None = None  # v1.2: the invitee's secret play link


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
    sheet_code: str  # v1.2: game, seat and move number with a check symbol (game/sheet_code.py)
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
    clock: ClockView | None = None  # v1.2, as in the game view
    paused: bool = False
    # v1.2: what a client may offer. Hints: against the computer only, not limited. Undos: against
    # the computer and on a same-device game, 3 a game (null between people on their own devices).
    hints_allowed: bool = False
    undos_left: int | None = None


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
    sheet_code: str  # v1.2: game, seat and move number with a check symbol (game/sheet_code.py)
    game_id: str
    player_name: str | None
    your_colour: Colour | None
    status: GameStatus
    result: Literal["won", "lost", "draw", "cancelled"]
    winner: WinnerRef | None
    winning_line: list[str]
    end_reason: EndReason | None
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



# ---------------------------------------------------------------------- not on the wire
class AcceptedInvite(Out):
    """An invitation already accepted, for its page: who took the seat, their colour, the game."""

    name: str | None
    colour: Colour | None
    game: GameView


class BoardPicture(Out):
    """What the SVG draws of the board after a given move (``GET …/board.svg?move=N``)."""

    game_id: str
    board_size: int
    board: list[str]
    move_count: int
    last_move: LastMove | None
    winning_line: list[str]
