"""Small helpers the handlers share: request headers, the public base URL, request bodies that may
be JSON or a form, metric names."""

from __future__ import annotations

import json
from typing import Any, TypeVar
from urllib.parse import parse_qs

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver
from pydantic import BaseModel, ValidationError

from connect6.api.errors import ApiError, validation_error
from connect6.api.responses import is_form

M = TypeVar("M", bound=BaseModel)


def headers(app: APIGatewayHttpResolver) -> dict[str, str]:
    return {k.lower(): v for k, v in (app.current_event.headers or {}).items()}


def base_url(app: APIGatewayHttpResolver, configured: str) -> str:
    """Where the invitee's browser reaches this API: the configured public URL, else the URL the
    request came in on."""
    if configured:
        return configured.rstrip("/")
    found = headers(app)
    context = app.current_event.request_context
    host = context.domain_name or found.get("host", "localhost")
    proto = found.get("x-forwarded-proto", "https")
    return f"{proto}://{host}"


def body_of(app: APIGatewayHttpResolver) -> Any:
    """The request body as data: JSON, or a form as a dict of single values."""
    raw = app.current_event.decoded_body or ""
    if is_form(headers(app)):
        return {key: values[-1] for key, values in parse_qs(raw, keep_blank_values=True).items()}
    if not raw.strip():
        return {}
    try:
        return json.loads(raw)
    except json.JSONDecodeError as error:
        raise ApiError(422, "invalid_request", "The request body is not valid JSON.") from error


def parse(model: type[M], data: Any) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise validation_error(
            [{"loc": ("body", *e["loc"]), "type": e["type"]} for e in error.errors()]) from error
