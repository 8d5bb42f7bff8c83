"""Building responses: JSON from a response model, the contract's error shape, content negotiation
and ETags."""

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


def dump(body: BaseModel) -> str:
    """A response as the wire carries it (``by_alias``: table-talk's ``from``). The domain built and
    so validated it (:mod:`connect6.game.shapes`)."""
    return body.model_dump_json(by_alias=True)


def json_response(body: BaseModel, status: int = 200,
                  headers: Mapping[str, str] | None = None) -> Response[Any]:
    return Response(status_code=status, content_type=JSON, body=dump(body), headers=dict(headers or {}))


def json_error(status: int, code: str, message: str, field: str | None = None,
               headers: Mapping[str, str] | None = None) -> Response[Any]:
    return Response(status_code=status, content_type=JSON,
                    body=json.dumps(error_body(code, message, field)), headers=dict(headers or {}))


def game_error_response(error: GameError) -> Response[Any]:
    return json_error(STATUS[error.code], error.code.value, error.message, error.field)


def api_error_response(error: ApiError) -> Response[Any]:
    return json_error(error.status, error.code, error.message, error.field, error.headers)


def refusal(event: Any, error: ApiError) -> Response[Any]:
    """A request refused by the HTTP layer (a malformed path, form or body): the contract's JSON
    error, or, on an invitation route for a browser (a page is the default for a GET and for a
    form), the invitation's error page with the same status and message."""
    path = str(getattr(event, "path", "") or "")
    if path.startswith("/v1/invites/"):
        headers = dict(getattr(event, "headers", None) or {})
        method = str(getattr(event, "http_method", "") or "").upper()
        if prefers_html(headers, default=method in ("GET", "HEAD") or is_form(headers)):
            from connect6.pages import invite_error_page

            page = html_response(invite_error_page(error.status, error.code, error.message), error.status)
            page.headers.update(error.headers)
            return page
    return api_error_response(error)


def _header(headers: Mapping[str, str] | None, name: str) -> str:
    for key, value in (headers or {}).items():
        if key.lower() == name:
            return value
    return ""


def _accept_ranges(accept: str) -> list[tuple[str, float]]:
    """The media ranges of an ``Accept`` header with their quality values (RFC 9110 §12.5.1), in
    order; a missing or unreadable ``q`` counts as 1, and one outside 0..1 is clamped."""
    ranges: list[tuple[str, float]] = []
    for part in accept.split(","):
        media, *params = (piece.strip() for piece in part.split(";"))
        if not media:
            continue
        quality = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = min(1.0, max(0.0, float(value.strip())))
                except ValueError:
                    quality = 1.0
        ranges.append((media.lower(), quality))
    return ranges


def _quality(ranges: list[tuple[str, float]], media: str) -> tuple[float, int, int] | None:
    """(quality, specificity, -position) of the most specific range matching ``media``; None when
    only nothing or ``*/*`` names it (the client did not ask for it in particular)."""
    kind = media.split("/")[0] + "/*"
    best: tuple[float, int, int] | None = None
    for position, (name, quality) in enumerate(ranges):
        specificity = 2 if name == media else 1 if name == kind else 0
        if specificity and (best is None or specificity > best[1]):
            best = (quality, specificity, -position)
    return best


def prefers_html(headers: Mapping[str, str] | None, default: bool) -> bool:
    """Whether the client asks for HTML over JSON: by quality value (``text/html;q=0.1,
    application/json`` is JSON), the more specific range deciding for each type, then by order of
    appearance; ``default`` when the header names neither (absent, ``*/*``, ``image/*``)."""
    ranges = _accept_ranges(_header(headers, "accept"))
    html, js = _quality(ranges, "text/html"), _quality(ranges, "application/json")
    if html is None and js is None:
        return default
    # One named alone: that one, unless its q=0 ("not this"), then the other.
    if js is None:
        return html is not None and html[0] > 0
    if html is None:
        return js[0] == 0
    if html[0] != js[0]:
        return html[0] > js[0]
    return html[2] > js[2]


PDF = "application/pdf"
SHEET_MEDIA = (JSON, "text/html", PDF)
"""What a sheet route answers, in the service's order of preference (a tie, ``*/*``: JSON)."""

NOT_ACCEPTABLE = ("This sheet comes as JSON (application/json), as a page (text/html) or on paper "
                  "(application/pdf); the request's Accept header asks for none of them.")


def _match(ranges: list[tuple[str, float]], media: str) -> tuple[float, int, int] | None:
    """(quality, specificity, -position) of the most specific range naming ``media``, ``*/*``
    included (specificity 1); None when no range names it."""
    kind = media.split("/")[0] + "/*"
    best: tuple[float, int, int] | None = None
    for position, (name, quality) in enumerate(ranges):
        specificity = 3 if name == media else 2 if name == kind else 1 if name == "*/*" else 0
        if specificity and (best is None or specificity > best[1]):
            best = (quality, specificity, -position)
    return best


def negotiate(headers: Mapping[str, str] | None, offered: tuple[str, ...] = SHEET_MEDIA) -> str | None:
    """The media type to answer with, of ``offered`` (RFC 9110 §12.5.1): the one the ``Accept``
    header gives the highest quality, the more specific range deciding for each type (``text/html;
    q=0`` refuses HTML even beside ``*/*``); on a tie, the more specific match, then the one named
    first, then the order of ``offered``. No header (or an empty one) or ``*/*``: the first offered.
    None when the header accepts none of them: the route answers 406."""
    accept = _header(headers, "accept").strip()
    if not accept:
        return offered[0]
    ranges = _accept_ranges(accept)
    best: tuple[tuple[float, int, int, int], str] | None = None
    for preference, media in enumerate(offered):
        found = _match(ranges, media)
        if found is None or found[0] <= 0:
            continue
        key = (found[0], found[1], found[2], -preference)
        if best is None or key > best[0]:
            best = (key, media)
    return best[1] if best is not None else None


PAGE_METHODS = ["GET", "HEAD"]
"""The public pages (invitation, board, its picture and moves) answer HEAD as GET, without the body
(:mod:`connect6.api.resolver`); HEAD is a route of its own in template.yaml."""

NEGOTIATED_PATHS = frozenset({
    "/v1/games/{game_id}/join-sheet",
    "/v1/games/{game_id}/players/{player_id}/move-sheet",
    "/v1/games/{game_id}/players/{player_id}/recap",
    "/v1/games/{game_id}/board",
    "/v1/invites/{token}",
})
"""Routes (as template.yaml names them) whose answer depends on ``Accept``: every answer of theirs,
errors and 304 included, carries ``Vary: Accept`` (:mod:`connect6.api.resolver`), so no cache
hands a page to a client that asked for JSON."""


def not_acceptable() -> ApiError:
    return ApiError(406, "not_acceptable", NOT_ACCEPTABLE)


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


HTML_MEDIA = "text/html"
_TEXT = {"schema": {"type": "string"}}


def documented(status: int, model: type[BaseModel] | None, description: str,
               errors: Mapping[int, str] | None = None, content_type: str = JSON, *,
               also: Mapping[int, str] | None = None, html: bool = False, html_errors: bool = False,
               not_modified: bool = False, takes_body: bool = False, sheet: bool = False) -> dict[int, Any]:
    """OpenAPI ``responses`` for a route: its success body (``also``: other success statuses with
    the same body; ``html``: a page as well as JSON; ``sheet``: a page and paper as well as JSON, and
    406 for any other Accept), ``304`` for conditional GETs, and every error the route can answer,
    in the contract's error shape (``html_errors``: or as a page)."""
    from connect6.api.models import ErrorBody

    content: dict[str, Any] = {content_type: {"model": model} if model is not None else dict(_TEXT)}
    if html or sheet:
        content[HTML_MEDIA] = dict(_TEXT)
    if sheet:
        content[PDF] = {"schema": {"type": "string", "format": "binary"}}
        errors = {**(errors or {}),
                  406: "not_acceptable: Accept names none of JSON, text/html, application/pdf"}
    found: dict[int, Any] = {status: {"description": description, "content": content}}
    for code, text in (also or {}).items():
        found[code] = {"description": text, "content": content}
    if not_modified:
        found[304] = {"description": "If-None-Match names the current ETag: no body"}
    error_content: dict[str, Any] = {JSON: {"model": ErrorBody}}
    if html_errors:
        error_content[HTML_MEDIA] = dict(_TEXT)
    common = {422: "invalid_request: the request does not have the contract's shape",
              503: "service_unavailable: storage is throttled or unavailable; retry after Retry-After"}
    if takes_body:
        common[413] = "request_too_large: the body is larger than 64 KiB"
        common[415] = "unsupported_media_type: a body that is neither JSON nor (where accepted) a form"
    for code, text in {**common, **(errors or {})}.items():
        if code in common and errors and code in errors:
            text = f"{errors[code]}; {common[code]}"
        found[code] = {"description": text, "content": error_content}
    return dict(sorted(found.items()))


def request_body(model: type[BaseModel], *, form: type[BaseModel] | None = None,
                 required: bool = False) -> dict[str, Any]:
    """An OpenAPI ``requestBody`` for a route that reads its body itself (JSON, or a form too, with
    the form's own fields: ``form``), carried as an extension the resolver moves into place
    (Powertools' own extensions must start with ``x-``)."""
    content = {JSON: {"schema": model.model_json_schema()}}
    if form is not None:
        content["application/x-www-form-urlencoded"] = {"schema": form.model_json_schema()}
    return {"x-request-body": {"required": required, "content": content}}
