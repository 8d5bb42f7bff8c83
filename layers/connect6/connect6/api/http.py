"""Small helpers the routes share: the request's headers, the public base URL, request bodies that
may be JSON or a form, running a call under the request's Idempotency-Key. Each takes the router
(or resolver) the route is on, for the request it is resolving."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Protocol, TypeVar
from urllib.parse import parse_qs

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.utilities.data_classes import APIGatewayProxyEventV2
from pydantic import BaseModel, ValidationError

from connect6.api import idempotency, runtime
from connect6.api.errors import ApiError, validation_error
from connect6.api.hostile import media_type, read_json
from connect6.api.responses import is_form

M = TypeVar("M", bound=BaseModel)


class Routing(Protocol):
    """An HTTP API resolver or router: the request it is resolving (per thread, see
    :class:`connect6.api.resolver.ThreadSafeHttpResolver`)."""

    @property
    def current_event(self) -> APIGatewayProxyEventV2: ...

    @property
    def lambda_context(self) -> Any: ...


def idempotent(app: Routing, key: str | None, body: Any, call: Callable[[], Response[Any]],
               **options: Any) -> Response[Any]:
    """``call`` under the request's Idempotency-Key (see :mod:`connect6.api.idempotency`)."""
    event = app.current_event
    return idempotency.run(runtime.idempotency_store(), key, event.http_method, event.path, body, call,
                           lambda_context=app.lambda_context, **options)


def headers(app: Routing) -> dict[str, str]:
    return {k.lower(): v for k, v in (app.current_event.headers or {}).items()}


def base_url(app: Routing, configured: str) -> str:
    """Where the invitee's browser reaches this API: the configured public URL, else the URL the
    request came in on."""
    if configured:
        return configured.rstrip("/")
    found = headers(app)
    context = app.current_event.request_context
    host = context.domain_name or found.get("host", "localhost")
    proto = found.get("x-forwarded-proto", "https")
    return f"{proto}://{host}"


def body_of(app: Routing) -> Any:
    """The request body as data: JSON, or a form as a dict of single values. Anything else with a
    body is 415; a form whose percent-escapes are not UTF-8 is 422."""
    raw = app.current_event.decoded_body or ""
    found = headers(app)
    if is_form(found):
        try:
            pairs = parse_qs(raw, keep_blank_values=True, errors="strict")
        except (UnicodeDecodeError, ValueError) as error:
            raise ApiError(422, "invalid_request", "The form's percent-encoding is not UTF-8.") from error
        return {key: values[-1] for key, values in pairs.items()}
    if not raw.strip():
        return {}
    if media_type(found.get("content-type")) not in ("", "application/json"):
        raise ApiError(415, "unsupported_media_type", "Send the body as application/json or a form.")
    try:
        return read_json(raw)
    except json.JSONDecodeError as error:
        raise ApiError(422, "invalid_request", "The request body is not valid JSON.") from error


def parse(model: type[M], data: Any) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise validation_error(
            [{"loc": ("body", *e["loc"]), "type": e["type"]} for e in error.errors()]) from error
