"""Domain errors: a stable snake_case ``code``, a sentence a player can read, and the request
field at fault (if any). The HTTP status belongs to ``connect6.api``, never to the domain."""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    CONFLICT = "conflict"
    GAME_NOT_FOUND = "game_not_found"
    PLAYER_NOT_FOUND = "player_not_found"
    NO_OPEN_SEAT = "no_open_seat"
    ALREADY_JOINED = "already_joined"
    OPPONENT_NOT_ALLOWED = "opponent_not_allowed"
    INVITE_NOT_FOUND = "invite_not_found"
    INVITE_EXPIRED = "invite_expired"
    INVITE_ALREADY_USED = "invite_already_used"
    NOT_YOUR_TURN = "not_your_turn"
    STALE_MOVE = "stale_move"
    GAME_OVER = "game_over"
    GAME_NOT_STARTED = "game_not_started"
    GAME_NOT_FINISHED = "game_not_finished"
    ILLEGAL_MOVE = "illegal_move"
    UNKNOWN_PHRASE = "unknown_phrase"
    NO_DRAW_OFFER = "no_draw_offer"
    BUSY = "busy"
    HINTS_NOT_ALLOWED = "hints_not_allowed"
    UNDO_NOT_ALLOWED = "undo_not_allowed"
    NOTHING_TO_UNDO = "nothing_to_undo"
    UNDO_LIMIT_REACHED = "undo_limit_reached"
    MOVE_NOT_FOUND = "move_not_found"
    NAME_NOT_ALLOWED = "name_not_allowed"
    GAME_PAUSED = "game_paused"
    INVALID_TIME_CONTROL = "invalid_time_control"
    PLAY_LINK_NOT_FOUND = "play_link_not_found"


class GameError(Exception):
    """A request the game refuses. Raised before anything is written: a refused request
    changes nothing."""

    def __init__(self, code: ErrorCode, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def __repr__(self) -> str:
        return f"GameError({self.code.value!r}, {self.message!r}, field={self.field!r})"
