"""From domain errors and request-shape errors to the contract's error shape and status.

``{"error": {"code": "...", "message": "...", "field": "..." | null}}``; request-shape errors are
422 ``invalid_request``. The mapping is by type and code, never by message text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from connect6.game.errors import ErrorCode

STATUS: dict[ErrorCode, int] = {
    ErrorCode.CONFLICT: 409,
    ErrorCode.GAME_NOT_FOUND: 404,
    ErrorCode.PLAYER_NOT_FOUND: 404,
    ErrorCode.NO_OPEN_SEAT: 409,
    ErrorCode.ALREADY_JOINED: 409,
    ErrorCode.OPPONENT_NOT_ALLOWED: 422,
    ErrorCode.INVITE_NOT_FOUND: 404,
    ErrorCode.INVITE_EXPIRED: 410,
    ErrorCode.INVITE_ALREADY_USED: 409,
    ErrorCode.NOT_YOUR_TURN: 409,
    ErrorCode.STALE_MOVE: 409,
    ErrorCode.GAME_OVER: 409,
    ErrorCode.GAME_NOT_STARTED: 409,
    ErrorCode.GAME_NOT_FINISHED: 409,
    ErrorCode.ILLEGAL_MOVE: 422,
    ErrorCode.UNKNOWN_PHRASE: 422,
    ErrorCode.NO_DRAW_OFFER: 409,
    ErrorCode.BUSY: 409,
    ErrorCode.HINTS_NOT_ALLOWED: 409,
    ErrorCode.UNDO_NOT_ALLOWED: 409,
    ErrorCode.NOTHING_TO_UNDO: 409,
    ErrorCode.UNDO_LIMIT_REACHED: 409,
    ErrorCode.MOVE_NOT_FOUND: 404,
    ErrorCode.NAME_NOT_ALLOWED: 422,
    ErrorCode.GAME_PAUSED: 409,  # v1.2: the platform paused the run
    ErrorCode.INVALID_TIME_CONTROL: 422,  # v1.2: a time control outside sense
    ErrorCode.PLAY_LINK_NOT_FOUND: 404,
}
"""Total over ErrorCode: a new code must choose its status here (tests/unit/api/test_errors.py)."""

UNAVAILABLE_RETRY_AFTER_S = 1
"""``Retry-After`` on every 503 ``service_unavailable``: the game store or the idempotency records
still failing after the client's retries. Every write is conditional, so re-sending is safe."""


class ApiError(Exception):
    """An error of the HTTP layer itself (idempotency keys, unknown routes, bad bodies)."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.headers = headers or {}


def error_body(code: str, message: str, field: str | None = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "field": field}}


def _field_name(loc: Sequence[Any]) -> str | None:
    parts = list(loc)
    if len(parts) == 2 and parts[0] in ("header", "headers"):
        # Powertools reports header names in lower case; name it as the contract spells it.
        return "-".join(word.capitalize() for word in str(parts[1]).split("-"))
    if parts and parts[0] in ("body", "path", "query", "header", "headers"):
        parts = parts[1:]
    name = ""
    for part in parts:
        if isinstance(part, int):
            name += f"[{part}]"
        elif part in ("computer", "invite") and name == "opponent":
            continue  # the discriminated union's branch name is not a field
        else:
            name += ("." if name else "") + str(part)
    return name or None


_FRIENDLY = {
    "missing": "is required",
    "json_invalid": "is not valid JSON",
    "string_pattern_mismatch": "does not have the expected form",
    "string_too_long": "is too long",
    "string_too_short": "is too short",
    "too_long": "has too many items",
    "literal_error": "is not one of the allowed values",
    "union_tag_invalid": "has an unknown kind",
    "int_parsing": "must be a whole number",
    "int_type": "must be a whole number",
    "bool_parsing": "must be true or false",
    "bool_type": "must be true or false",
    "greater_than_equal": "is too small",
    "less_than_equal": "is too large",
    "string_type": "must be a string",
    "list_type": "must be a list",
    "model_attributes_type": "must be an object",
    "dict_type": "must be an object",
    "text_not_allowed": "contains a control, bidirectional or invisible character",
}


def validation_error(errors: Sequence[dict[str, Any]]) -> ApiError:
    """The first request-shape problem as a 422 ``invalid_request`` naming the field."""
    if not errors:
        return ApiError(422, "invalid_request", "The request is not valid.")
    first = errors[0]
    loc = first.get("loc", ())
    if first.get("type") == "json_invalid":
        return ApiError(422, "invalid_request", "The request body is not valid JSON.", None)
    field = _field_name(loc)
    phrase = _FRIENDLY.get(str(first.get("type")), "is not valid")
    if field is None:
        return ApiError(422, "invalid_request", f"The request body {phrase}.", None)
    return ApiError(422, "invalid_request", f"{field} {phrase}.", field)
