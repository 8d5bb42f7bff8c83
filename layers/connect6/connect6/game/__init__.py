"""The connect6 game type's domain: runs, seats, invitations, turns, sheets, recap, events.

Pure logic over a :class:`Repository`; raises :class:`GameError` with stable codes, never HTTP.
"""

from connect6.game.clock import TimeControl
from connect6.game.errors import ErrorCode, GameError
from connect6.game.events import Event, EventSink, ListSink
from connect6.game.model import (
    EndReason,
    Game,
    InviteStatus,
    Kind,
    Seat,
    SeatState,
    Status,
    iso,
    parse_iso,
    utc_now,
)
from connect6.game.outcome import Outcome
from connect6.game.phrases import PHRASES
from connect6.game.repository import (
    AlreadyExists,
    InviteRef,
    Repository,
    StoreError,
    StoreUnavailable,
    VersionConflict,
)
from connect6.game.service import GameService, JoinOutcome, MoveOutcome, Opponent, RedeemOutcome, hash_token

__all__ = [
    "PHRASES",
    "AlreadyExists",
    "EndReason",
    "ErrorCode",
    "Event",
    "EventSink",
    "Game",
    "GameError",
    "GameService",
    "InviteRef",
    "InviteStatus",
    "JoinOutcome",
    "Kind",
    "ListSink",
    "MoveOutcome",
    "Opponent",
    "Outcome",
    "RedeemOutcome",
    "Repository",
    "Seat",
    "SeatState",
    "Status",
    "StoreError",
    "StoreUnavailable",
    "TimeControl",
    "VersionConflict",
    "hash_token",
    "iso",
    "parse_iso",
    "utc_now",
]
