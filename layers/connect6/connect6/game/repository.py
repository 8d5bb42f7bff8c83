"""What the domain needs from storage, and the typed errors a store raises. The DynamoDB store and
the in-memory fake (``connect6.store``) both implement :class:`Repository` with the same conditions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from connect6.game.events import Event
from connect6.game.model import Game


class StoreError(Exception):
    """Base of the store's typed errors."""


class StoreUnavailable(StoreError):
    """The store did not answer in time or refused for load (throttling, an internal error, a
    timeout) even after the client's own retries. Whether the write landed is unknown to the
    caller; every write is conditional and idempotent to re-send, so the request can be retried."""

    def __init__(self, operation: str, reason: str) -> None:
        super().__init__(f"{operation}: {reason}")
        self.operation = operation
        self.reason = reason


class VersionConflict(StoreError):
    """A conditional write lost: the stored game is not the version (or turn) the writer read.
    ``current`` is the stored game as the failed write found it (``ALL_OLD``), when known."""

    def __init__(self, game_id: str, current: Game | None) -> None:
        super().__init__(f"game {game_id} changed underneath this write")
        self.game_id = game_id
        self.current = current


class AlreadyExists(StoreError):
    def __init__(self, key: str, current: Game | None = None) -> None:
        super().__init__(f"{key} already exists")
        self.key = key
        self.current = current


@dataclass(frozen=True)
class InviteRef:
    """The invitation index: token hash → (game, invitation). While the hold is pending it is also
    in the expiry index the sweeper queries."""

    token_hash: str
    game_id: str
    invite_id: str
    expires_at: datetime


@dataclass(frozen=True)
class PlayRef:
    """The play-link index: the SHA-256 of a play token → the game and the player it plays as (for
    a same-device game, the device's first seat: the link acts as whichever seat is to move)."""

    token_hash: str
    game_id: str
    player_id: str


class Repository(Protocol):
    def get_game(self, game_id: str) -> Game | None: ...

    def create_game(self, game: Game) -> None:
        """Write a new game; :class:`AlreadyExists` when one is there."""

    def save_game(self, game: Game, *, expected_version: int, expected_move_count: int,
                  events: Sequence[Event] = ()) -> None:
        """Replace the game only if the stored one has ``expected_version`` and ``expected_move_count``;
        otherwise :class:`VersionConflict`. ``game.version`` is the new version. ``events`` (the
        change's outbox, stamped) are stored in the same write: both land or neither does, and the
        store's stream hands them to the publisher in the order of the game's writes."""

    def put_invite(self, ref: InviteRef) -> None:
        """Index a new invitation (token hash → game) and put it in the expiry index."""

    def get_invite(self, token_hash: str) -> InviteRef | None: ...

    def put_play(self, ref: PlayRef) -> None:
        """Index a play link (token hash → game and player); :class:`AlreadyExists` when present."""

    def get_play(self, token_hash: str) -> PlayRef | None: ...

    def due_invites(self, now: datetime, limit: int) -> list[InviteRef]:
        """Pending holds whose expiry is at or before ``now``, from the expiry index (no scan)."""

    def close_invite(self, token_hash: str) -> None:
        """Take the invitation out of the expiry index (it was redeemed or released)."""

    def due_clocks(self, now: datetime, limit: int) -> list[str]:
        """The ids of games whose clock has something due at or before ``now`` (a reminder or a
        deadline), from the clock index (no scan), at most ``limit``. The index is written with the
        game itself (``connect6.game.timing.next_due``), so it may lag a write: the sweep decides
        on the stored game."""
