"""``Idempotency-Key`` on the mutating routes, on Powertools' idempotency utility.

The record lives in the games table (``pk = IDEMPOTENCY``, ``sk = connect6#<sha256 of method,
path and key>``, expiring through the table's ``ttl``) and outside the domain's repository port:
the domain never sees it. Powertools claims the key with a conditional put, validates a reused
key's payload (the request body's hash), ties an in-progress claim to the invocation's remaining
time (the Lambda context is registered, so a request killed by a timeout frees its key once the
invocation's time is up) and stores the result when the call returns.

Only a success (2xx) is stored and replayed. Anything else — a refusal (4xx), ``409 busy``, a 5xx
— raises out of the idempotent call, so Powertools deletes the claim and the next retry runs
afresh. A concurrent retry of a running request is ``409 request_in_progress`` with
``Retry-After``; the same key with another body is ``422 idempotency_key_reused``; a failure of
the idempotency store itself is ``503 service_unavailable`` with ``Retry-After``.

A stored response may be *sealed* before it is written and *unsealed* on replay: the join
response's invitation URL carries a raw token, which is never stored; the record keeps the URL
without it and the replay derives the same token again from the invitation id (see
:mod:`connect6.api.invite_tokens`).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.utilities.idempotency import (
    DynamoDBPersistenceLayer,
    IdempotencyConfig,
    IdempotentHookFunction,
    idempotent_function,
)
from aws_lambda_powertools.utilities.idempotency.exceptions import (
    IdempotencyAlreadyInProgressError,
    IdempotencyPersistenceLayerError,
    IdempotencyValidationError,
)
from botocore.config import Config

from connect6.api.errors import UNAVAILABLE_RETRY_AFTER_S, ApiError

HEADER = "Idempotency-Key"
KEY_PATTERN = r"^[!-~]{1,128}$"
"""1–128 visible ASCII characters (a UUID, a ULID, a platform's own ids all fit)."""
EXPIRES_AFTER_S = 24 * 60 * 60
"""A completed request is replayed for a day; an in-progress claim lasts the invocation's time."""
IN_PROGRESS_RETRY_AFTER_S = 2
"""``Retry-After`` on ``409 request_in_progress`` (a 503 has the service's own, see errors.py)."""
DEFAULT_IN_PROGRESS_MS = 30_000
STATIC_PK = "IDEMPOTENCY"
KEY_PREFIX = "connect6"
REPLAYED_HEADER = "Idempotent-Replayed"

Sealer = Callable[[dict[str, Any]], dict[str, Any]]

_lock = threading.Lock()
_layers: dict[str, DynamoDBPersistenceLayer] = {}


def persistence(table_name: str, client: Any = None) -> DynamoDBPersistenceLayer:
    """The Powertools persistence layer on the games table (one per table and process)."""
    with _lock:
        layer = _layers.get(table_name)
        if layer is None:
            layer = DynamoDBPersistenceLayer(
                table_name=table_name, key_attr="pk", sort_key_attr="sk", static_pk_value=STATIC_PK,
                expiry_attr="ttl", in_progress_expiry_attr="in_progress_expiry", status_attr="status",
                data_attr="response", validation_key_attr="payload_hash", boto3_client=client,
                boto_config=None if client is not None else Config(
                    retries={"max_attempts": 3, "mode": "standard"}, connect_timeout=2, read_timeout=5))
            _layers[table_name] = layer
        return layer


def reset() -> None:
    """Forget the persistence layers (tests that build a new table or client)."""
    with _lock:
        _layers.clear()


class _NotStored(Exception):
    """A response that must not be stored: the claim is released and the response returned."""

    def __init__(self, response: Response[Any]) -> None:
        super().__init__(response.status_code)
        self.response = response


def _stored(response: Response[Any]) -> dict[str, Any]:
    body = response.body if isinstance(response.body, str) else json.dumps(response.body)
    return {"status_code": response.status_code, "content_type": response.content_type or "application/json",
            "body": body, "headers": {k: v for k, v in response.headers.items() if isinstance(v, str)}}


def _config(lambda_context: Any, on_replay: IdempotentHookFunction) -> IdempotencyConfig:
    config = IdempotencyConfig(
        event_key_jmespath="[method, path, key]", payload_validation_jmespath="body",
        raise_on_no_idempotency_key=True, expires_after_seconds=EXPIRES_AFTER_S, hash_function="sha256",
        response_hook=on_replay)
    if lambda_context is None or not hasattr(lambda_context, "get_remaining_time_in_millis"):
        lambda_context = _Deadline(DEFAULT_IN_PROGRESS_MS)
    config.register_lambda_context(lambda_context)
    return config


class _Deadline:
    """Stands in for a Lambda context where there is none (a script, a test): the in-progress claim
    lasts this long, never the record's whole day."""

    def __init__(self, remaining_ms: int) -> None:
        self.ends_at = time.monotonic() + remaining_ms / 1000

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self.ends_at - time.monotonic()) * 1000))


def run(layer: DynamoDBPersistenceLayer, key: str | None, method: str, path: str, body: Any,
        call: Callable[[], Response[Any]], *, lambda_context: Any = None,
        seal: Sealer | None = None, unseal: Sealer | None = None) -> Response[Any]:
    """Run ``call`` under the request's Idempotency-Key, if it has one (see the module's text)."""
    if key is None:
        return call()
    replayed: list[bool] = []
    ran: list[Response[Any]] = []

    def on_replay(response: Any, idempotent_data: Any) -> Any:
        replayed.append(True)
        return response

    @idempotent_function(data_keyword_argument="request", persistence_store=layer,
                         config=_config(lambda_context, on_replay), key_prefix=KEY_PREFIX)
    def execute(request: dict[str, Any]) -> dict[str, Any]:
        response = call()
        if not 200 <= response.status_code < 300:
            raise _NotStored(response)
        ran.append(response)
        stored = _stored(response)
        return seal(stored) if seal is not None else stored

    request = {"method": method.upper(), "path": path, "key": key, "body": body}
    try:
        stored = execute(request=request)
    except _NotStored as refused:
        return refused.response
    except IdempotencyValidationError as error:
        raise ApiError(422, "idempotency_key_reused",
                       "This Idempotency-Key was already used for a different request.", HEADER) from error
    except IdempotencyAlreadyInProgressError as error:
        raise ApiError(409, "request_in_progress",
                       "A request with this Idempotency-Key is still being processed; retry shortly.", HEADER,
                       headers={"Retry-After": str(IN_PROGRESS_RETRY_AFTER_S)}) from error
    except IdempotencyPersistenceLayerError as error:
        raise ApiError(503, "service_unavailable",
                       "The request could not be recorded just now; retry shortly.", None,
                       headers={"Retry-After": str(UNAVAILABLE_RETRY_AFTER_S)}) from error
    if ran and not replayed:
        return ran[0]  # this call ran: its own response, not the sealed record
    headers: dict[str, str] = dict(stored.get("headers") or {})
    headers[REPLAYED_HEADER] = "true"
    if unseal is not None:
        stored = unseal(stored)
    return Response(status_code=int(stored["status_code"]), content_type=stored["content_type"],
                    body=stored["body"], headers=headers)
