"""The routes' parameters, validated by Powertools before a route runs (a mismatch is 422
``invalid_request``): the ids in the path, the ``Idempotency-Key`` header, and how every
idempotent route documents the key's refusals."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.openapi.params import Header, Path

from connect6.api import idempotency
from connect6.api.models import GAME_ID_PATTERN, ID_PATTERN, TOKEN_PATTERN

GameId = Annotated[str, Path(pattern=GAME_ID_PATTERN)]
PlayerId = Annotated[str, Path(pattern=ID_PATTERN)]
Token = Annotated[str, Path(pattern=TOKEN_PATTERN)]
"""An invitation's token (never logged: see :mod:`connect6.api.logs`)."""

IdempotencyKey = Annotated[str | None, Header(
    alias=idempotency.HEADER, pattern=idempotency.KEY_PATTERN,
    description="Optional. A retry with the same key (same method, path and body) gets the first "
                "success back and changes nothing; with another body 422 idempotency_key_reused; "
                "while the first is running 409 request_in_progress.")]

IDEMPOTENCY_409 = "request_in_progress: the same Idempotency-Key is still running (Retry-After)"
IDEMPOTENCY_422 = "idempotency_key_reused: the same Idempotency-Key with another request"
