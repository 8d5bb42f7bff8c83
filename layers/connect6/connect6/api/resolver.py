"""The shared resolver setup for every HTTP function: Powertools ``APIGatewayHttpResolver`` with
validation, and exception handlers that give every error the contract's shape:
request-shape problems → 422 ``invalid_request``; domain errors → their status and code; an
unknown route → 404 ``not_found``; the store unavailable (throttled, failing, timing out after the
client's retries) → 503 ``service_unavailable`` with ``Retry-After``; anything unexpected → 500
``internal_error`` (never from client input: that is a bug, and logged as one).

Before Powertools sees a request, :func:`connect6.api.hostile.prepare` makes its body safe to
read (UTF-8 text, a bounded size, a lower-cased media type) or answers it with a 4xx at once."""

from __future__ import annotations

import json
import threading
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.event_handler.exceptions import NotFoundError
from aws_lambda_powertools.event_handler.openapi.exceptions import (
    RequestUnsupportedContentType,
    RequestValidationError,
)

from connect6.api import deadline, hostile
from connect6.api.errors import UNAVAILABLE_RETRY_AFTER_S, ApiError, validation_error
from connect6.api.observability import Metric, count, logger
from connect6.api.responses import NEGOTIATED_PATHS, game_error_response, json_error, refusal
from connect6.game.errors import GameError
from connect6.game.repository import StoreUnavailable


class ThreadSafeHttpResolver(APIGatewayHttpResolver):
    """Powertools 3.37 keeps the current event on the ``BaseRouter`` *class*, shared by every
    resolver in the process, and the routing context (the matched route and its path arguments) on
    the resolver. One request per process (Lambda) never notices; the local server and the race
    tests run several requests at once in one process, even through one resolver, where one request
    could read another's event or path arguments. Here each thread sees the event it is resolving
    and its own routing context."""

    _local = threading.local()

    @property
    def context(self) -> dict[str, Any]:
        found: dict[str, Any] | None = getattr(self._local, "routing", None)
        if found is None:
            found = self._local.routing = {}
        return found

    @context.setter
    def context(self, value: dict[str, Any]) -> None:
        self._local.routing = value

    @property
    def current_event(self) -> Any:
        return getattr(self._local, "event", None)

    @current_event.setter
    def current_event(self, value: Any) -> None:
        self._local.event = value

    @property
    def lambda_context(self) -> Any:
        return getattr(self._local, "context", None)

    @lambda_context.setter
    def lambda_context(self, value: Any) -> None:
        self._local.context = value

    def _to_proxy_event(self, event: dict[str, Any]) -> Any:
        return hostile.SafeHttpEvent(event, self._json_body_deserializer)

    def get_openapi_json_schema(self, **kwargs: Any) -> str:
        """Powertools' document, with the request bodies of routes that read their body themselves
        (a form or JSON; an optional body) moved from the ``x-request-body`` extension into place,
        no body on a 304 (Powertools gives every response without content a JSON one) nor on any answer
        to HEAD."""
        document = json.loads(super().get_openapi_json_schema(**kwargs))
        for operations in (document.get("paths") or {}).values():
            for operation in operations.values():
                if not isinstance(operation, dict):
                    continue
                if "x-request-body" in operation:
                    operation["requestBody"] = operation.pop("x-request-body")
                if operation is operations.get("head"):
                    # HEAD is GET without the body: the same statuses and headers, no content.
                    for answer in (operation.get("responses") or {}).values():
                        answer.pop("content", None)
                (operation.get("responses") or {}).get("304", {}).pop("content", None)
        return json.dumps(document)

    def resolve(self, event: Any, context: Any) -> dict[str, Any]:
        event, refusal = hostile.prepare(event)
        if refusal is not None:
            return refusal
        self._local.event = self._to_proxy_event(event)
        self._local.context = context
        try:
            with deadline.within(context):  # the computer never searches past the invocation's time
                result = super().resolve(event, context)
        finally:
            self._local.event = self._local.context = None
        if _route_path(event) in NEGOTIATED_PATHS:
            _add_vary(result, "Accept")
        if _method(event) == "HEAD":
            # HEAD (the public pages: a route of its own in template.yaml, beside GET in the router)
            # answers as GET without the body: the same status and headers, ETag and Vary included.
            result["body"] = ""
            result["isBase64Encoded"] = False
        return result


def _method(event: Any) -> str:
    try:
        return str(event["requestContext"]["http"]["method"]).upper()
    except (KeyError, TypeError):
        return ""


def _route_path(event: Any) -> str:
    """The route's path as API Gateway names it (``routeKey`` ``GET /v1/games/{game_id}/board``)."""
    key = event.get("routeKey") if isinstance(event, dict) else None
    return str(key or "").partition(" ")[2]


def _add_vary(result: dict[str, Any], name: str) -> None:
    headers = result.setdefault("headers", {})
    for key, value in list(headers.items()):
        if key.lower() == "vary":
            if name.lower() not in (v.strip().lower() for v in str(value).split(",")):
                headers[key] = f"{value}, {name}"
            return
    headers["Vary"] = name


def make_app() -> APIGatewayHttpResolver:
    app = ThreadSafeHttpResolver(enable_validation=True)

    @app.exception_handler(RequestValidationError)
    def _invalid(error: RequestValidationError) -> Response[Any]:
        return refusal(app.current_event, validation_error(list(error.errors())))

    @app.exception_handler(RequestUnsupportedContentType)
    def _unsupported(error: RequestUnsupportedContentType) -> Response[Any]:
        return json_error(415, "unsupported_media_type", "Send the body as application/json.", None)

    @app.exception_handler(GameError)
    def _game(error: GameError) -> Response[Any]:
        return game_error_response(error)

    @app.exception_handler(ApiError)
    def _api(error: ApiError) -> Response[Any]:
        return refusal(app.current_event, error)

    @app.exception_handler(NotFoundError)
    def _not_found(error: NotFoundError) -> Response[Any]:
        return json_error(404, "not_found", "There is no such route.", None)

    @app.exception_handler(StoreUnavailable)
    def _unavailable(error: StoreUnavailable) -> Response[Any]:
        # Every write is conditional and safe to re-send: the caller retries after a moment.
        logger.warning("store unavailable", extra={"operation": error.operation, "reason": error.reason})
        count(Metric.STORE_UNAVAILABLE)
        response = json_error(503, "service_unavailable",
                              "The service is briefly overloaded; please try again in a moment.")
        response.headers["Retry-After"] = str(UNAVAILABLE_RETRY_AFTER_S)
        return response

    @app.exception_handler(Exception)
    def _unexpected(error: Exception) -> Response[Any]:
        logger.exception("unhandled error")
        count(Metric.UNHANDLED_ERRORS)
        return json_error(500, "internal_error", "Something went wrong on our side; please try again.")

    return app
