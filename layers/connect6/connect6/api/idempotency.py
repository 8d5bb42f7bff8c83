"""``Idempotency-Key`` on mutating platform calls: a conditional record of our own in the games
table. The first request with a key claims it (conditional put), runs, and stores its response
(success or 4xx); a retry with the same key and body gets that response back and changes nothing.
The same key with another body is refused (422 ``idempotency_key_reused``); a retry while the
first is still running gets 409 ``request_in_progress``. A server failure releases the claim.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from aws_lambda_powertools.event_handler import Response

from connect6.api.errors import ApiError
from connect6.api.responses import api_error_response, game_error_response
from connect6.game.errors import GameError
from connect6.game.model import utc_now
from connect6.game.repository import IdempotencyRecord, Repository

HEADER = "idempotency-key"
LIFETIME = timedelta(hours=24)
MAX_KEY = 128


def fingerprint(method: str, path: str, body: Any) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(f"{method} {path}\n{canonical}".encode()).hexdigest()


def run(repo: Repository, headers: dict[str, str], method: str, path: str, body: Any,
        call: Callable[[], Response[Any]]) -> Response[Any]:
    """Run ``call`` under the request's Idempotency-Key, if it has one."""
    key = next((v for k, v in headers.items() if k.lower() == HEADER), None)
    if key is None:
        return call()
    if not 1 <= len(key) <= MAX_KEY or not key.isprintable():
        raise ApiError(422, "invalid_request",
                       f"Idempotency-Key must be 1 to {MAX_KEY} printable characters.", "Idempotency-Key")
    scope = f"{method} {path}#{hashlib.sha256(key.encode()).hexdigest()}"
    print_ = fingerprint(method, path, body)
    expires = utc_now() + LIFETIME
    existing = repo.claim_request(scope, print_, expires)
    if existing is not None:
        if existing.fingerprint != print_:
            raise ApiError(422, "idempotency_key_reused",
                           "This Idempotency-Key was already used for a different request.",
                           "Idempotency-Key")
        if existing.state != "done":
            raise ApiError(409, "request_in_progress",
                           "A request with this Idempotency-Key is still being processed.", "Idempotency-Key")
        return Response(status_code=existing.status_code, content_type=existing.content_type,
                        body=existing.body, headers={"Idempotent-Replayed": "true"})
    try:
        response = call()
    except ApiError as error:
        response = api_error_response(error)
    except GameError as error:
        response = game_error_response(error)
    except Exception:
        repo.release_request(scope)
        raise
    if response.status_code >= 500:
        repo.release_request(scope)
        return response
    body_text = response.body if isinstance(response.body, str) else json.dumps(response.body)
    repo.complete_request(scope, IdempotencyRecord(print_, "done", response.status_code, body_text,
                                                   response.content_type or "application/json"), expires)
    return response
