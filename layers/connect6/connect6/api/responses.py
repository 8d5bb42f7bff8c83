"""Building responses: JSON validated through a response model, the contract's error shape,
content negotiation and ETags."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from aws_lambda_powertools.event_handler import Response
from pydantic import BaseModel

from connect6.api.errors import STATUS, ApiError, error_body
from connect6.game.errors import GameError

JSON = "application/json"
HTML = "text/html; charset=utf-8"
SVG = "image/svg+xml"


def dump(model: type[BaseModel], data: Mapping[str, Any] | BaseModel) -> str:
    """Validate ``data`` against the response model and serialise it (a misfit is a server bug)."""
    value = data if isinstance(data, model) else model.model_validate(data)
    return value.model_dump_json(by_alias=True)


def json_response(model: type[BaseModel], data: Mapping[str, Any] | BaseModel, status: int = 200,
                  headers: Mapping[str, str] | None = None) -> Response[Any]:
    return Response(status_code=status, content_type=JSON, body=dump(model, data),
                    headers=dict(headers or {}))


def json_error(status: int, code: str, message: str, field: str | None = None) -> Response[Any]:
    return Response(status_code=status, content_type=JSON,
                    body=json.dumps(error_body(code, message, field)))


def game_error_response(error: GameError) -> Response[Any]:
    return json_error(STATUS.get(error.code, 409), error.code.value, error.message, error.field)


def api_error_response(error: ApiError) -> Response[Any]:
    return json_error(error.status, error.code, error.message, error.field)


def _header(headers: Mapping[str, str] | None, name: str) -> str:
    for key, value in (headers or {}).items():
        if key.lower() == name:
            return value
    return ""


def prefers_html(headers: Mapping[str, str] | None, default: bool) -> bool:
    """Whether the client asks for HTML over JSON (by order of appearance in Accept)."""
    accept = _header(headers, "accept").lower()
    html, js = accept.find("text/html"), accept.find("application/json")
    if html < 0 and js < 0:
        return default
    if html < 0:
        return False
    if js < 0:
        return True
    return html < js


def is_form(headers: Mapping[str, str] | None) -> bool:
    return _header(headers, "content-type").lower().startswith("application/x-www-form-urlencoded")


def etag_of(text: str, variant: str = "") -> str:
    return '"' + variant + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'


def conditional(headers: Mapping[str, str] | None, etag: str, body: str, content_type: str,
                cache_control: str = "no-cache") -> Response[Any]:
    """200 with the ETag, or 304 when If-None-Match already names it."""
    wanted = [tag.strip() for tag in _header(headers, "if-none-match").split(",") if tag.strip()]
    common = {"ETag": etag, "Cache-Control": cache_control}
    if content_type == HTML:
        common.update(page_security_headers())
    if etag in wanted or "*" in wanted or f"W/{etag}" in wanted:
        return Response(status_code=304, content_type=None, body="", headers=common)
    return Response(status_code=200, content_type=content_type, body=body, headers=common)


@lru_cache(maxsize=1)
def page_security_headers() -> dict[str, str]:
    """Every HTML page may run only its own inline code and load nothing from elsewhere."""
    from connect6.pages import content_security_policy

    return {"Content-Security-Policy": content_security_policy(), "X-Content-Type-Options": "nosniff"}


def html_response(body: str, status: int = 200) -> Response[Any]:
    return Response(status_code=status, content_type=HTML, body=body,
                    headers={"Cache-Control": "no-store", **page_security_headers()})


def documented(status: int, model: type[BaseModel] | None, description: str,
               errors: Mapping[int, str] | None = None, content_type: str = JSON) -> dict[int, Any]:
    """OpenAPI ``responses`` for a route: its success body and the contract's error shape."""
    from connect6.api.models import ErrorBody

    success: dict[str, Any] = {"description": description}
    if model is not None:
        success["content"] = {content_type: {"model": model}}
    found: dict[int, Any] = {status: success}
    for code, text in (errors or {}).items():
        found[code] = {"description": text, "content": {JSON: {"model": ErrorBody}}}
    found.setdefault(422, {"description": "invalid_request: the request does not have the contract's shape",
                           "content": {JSON: {"model": ErrorBody}}})
    return found
