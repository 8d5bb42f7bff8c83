"""Pydantic models of every request of the contract (v1) and of its error body. They validate what
comes in (errors → 422 ``invalid_request``). The responses are :mod:`connect6.game.shapes`: the
domain builds them."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

from connect6.api.hostile import NAME_PATTERN, NOTE_PATTERN, REFUSED_CLASS, plain_note, plain_text
from connect6.game.clock import TimeControl
from connect6.game.shapes import Out

GAME_ID_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"
ID_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"
TOKEN_PATTERN = r"^[A-Za-z0-9_-]{1,128}$"  # nosec B105 # a path pattern, not a password
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


class Request(BaseModel):
    model_config = ConfigDict(extra="ignore")


# ---------------------------------------------------------------------- requests
class PerMoveTime(Request):
    """H hours for every move (v1.2). Whole hours; the domain refuses values outside sense (422
    ``invalid_time_control``)."""

    kind: Literal["per_move"]
    hours: int

    def to_domain(self) -> TimeControl:
        return TimeControl.per_move(self.hours)


class BankTime(Request):
    """Each player starts with ``initial_hours``, gains ``increment_hours`` after each of their
    moves, never above ``max_hours`` (v1.2; Little Golem plays 240/36/240)."""

    kind: Literal["bank"]
    initial_hours: int
    increment_hours: int
    max_hours: int

    def to_domain(self) -> TimeControl:
        return TimeControl.bank(self.initial_hours, self.increment_hours, self.max_hours)


class PutRunRequest(Request):
    game_name: GameName
    allow_computer_opponents: bool = False
    time_control: Annotated[PerMoveTime | BankTime, Field(discriminator="kind")] | None = None  # v1.2


class ComputerOpponent(Request):
    kind: Literal["computer"]
    level: Level = "normal"


class InviteOpponent(Request):
    kind: Literal["invite"]
    name: Name
    email: Email
    note: Note | None = None


class SameDeviceOpponent(Request):
    """v1.2: a second person on the joiner's device (one play link serves both)."""

    kind: Literal["same_device"]
    name: Name


class JoinRequest(Request):
    name: Name
    email: Email
    opponent: Annotated[ComputerOpponent | InviteOpponent | SameDeviceOpponent,
                        Field(discriminator="kind")] | None = None


class MoveRequest(Request):
    move_number: Annotated[int, Field(ge=1, le=10_000)]
    stones: Annotated[list[Annotated[str, StringConstraints(max_length=8)]], Field(max_length=10)]
    table_talk: Annotated[str, StringConstraints(max_length=64)] | None = None
    offer_draw: bool = False


class RedeemRequest(Request):
    name: OptionalName | None = None


class DrawRequest(Request):
    action: Literal["offer", "accept", "decline"] = "offer"


# ---------------------------------------------------------------------- errors
class ErrorDetail(Out):
    code: str
    message: str
    field: str | None


class ErrorBody(Out):
    error: ErrorDetail
