"""Small helpers the routes share: the request's headers, the public base URL, request bodies that
may be JSON or a form, running a call under the request's Idempotency-Key. Each takes the router
(or resolver) the route is on, for the request it is resolving."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, Protocol, TypeVar
from urllib.parse import parse_qs

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.utilities.data_classes import APIGatewayProxyEventV2
from pydantic import BaseModel, ValidationError

from connect6.api import idempotency, runtime
from connect6.api.config import in_lambda
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
    """Where the invitee's browser reaches this API, never taken from a client's headers (a
    ``Host`` or ``X-Forwarded-Proto`` is whatever the client sent):

    1. ``configured``: ``PUBLIC_BASE_URL``, the custom domain (https, the template's pattern);
    2. the stage variable ``public_base_url``, which the template sets to the API's own https URL
       (or the custom domain), when it is an https URL;
    3. in Lambda, ``https://`` and the request's ``requestContext.domainName``: the domain API
       Gateway received the request on, i.e. the API's own (execute-api or custom) domain;
    4. outside Lambda (the local server, which serves 127.0.0.1 only): ``http://127.0.0.1`` with
       the port of a loopback ``Host`` (see :func:`local_base_url`).
    """
    if configured:
        return configured.rstrip("/")
    event = app.current_event
    staged = str((event.get("stageVariables") or {}).get("public_base_url") or "")
    if staged.startswith("https://") and _SAFE_URL.fullmatch(staged):
        return staged.rstrip("/")
    if in_lambda():
        domain = event.request_context.domain_name or ""
        if not _SAFE_HOST.fullmatch(domain):
            raise RuntimeError("no public base URL: neither PUBLIC_BASE_URL, the stage variable "
                               "public_base_url nor the request's domain name is usable")
        return f"https://{domain}"
    return local_base_url(headers(app).get("host", ""))


_SAFE_HOST = re.compile(r"[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?")
_SAFE_URL = re.compile(r"https://[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?(/[A-Za-z0-9._~/-]*)?")
_LOOPBACK = re.compile(r"(?:127\.0\.0\.1|localhost|\[::1\])(?::([0-9]{1,5}))?", re.IGNORECASE)


def local_base_url(host: str) -> str:
    """The local server's URL: ``http://127.0.0.1``, with the ``Host``'s port when that names a
    loopback address (127.0.0.1, localhost, [::1]); any other ``Host`` changes nothing."""
    found = _LOOPBACK.fullmatch(host.strip())
    port = found.group(1) if found else None
    return f"http://127.0.0.1:{port}" if port and 0 < int(port) < 65536 else "http://127.0.0.1"


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
