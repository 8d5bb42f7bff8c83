"""Input no client should be able to turn into a 5xx, handled before and around Powertools.

API Gateway base64-encodes every body whose Content-Type is not a text type (no Content-Type at
all, ``application/octet-stream``, ``multipart/form-data`` …). Powertools then decodes it as UTF-8
and raises ``UnicodeDecodeError`` on anything else; it reads ``application/json`` case-sensitively;
``json.loads`` raises ``RecursionError`` on deeply nested arrays and ``ValueError`` on integers of
more than 4300 digits; ``multipart/form-data`` without a boundary is a ``ValueError``.
:func:`prepare` turns each request into one Powertools reads safely (a text body, the media type
in lower case) or refuses it at once:

- a body over :data:`MAX_BODY` bytes → 413 ``request_too_large``;
- ``multipart/*`` (no route takes one) → 415 ``unsupported_media_type``;
- a body that is not UTF-8 → 415 ``unsupported_media_type`` when its Content-Type is neither JSON
  nor a form, else 422 ``invalid_request``.

:class:`SafeHttpEvent` makes unreadable JSON (too deep, too long a number) a 422, and
:func:`plain_text` is the rule for every name and note a client sends (see there).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import unicodedata
from functools import cached_property
from typing import Any

from aws_lambda_powertools.utilities.data_classes import APIGatewayProxyEventV2
from pydantic_core import PydanticCustomError

from connect6.api.errors import ApiError, error_body

MAX_BODY = 64 * 1024
"""Bytes. The largest real request (a join with a 500-character note) is under 2 KiB."""

TEXT_MEDIA_TYPES = ("application/json", "application/x-www-form-urlencoded")
_BODY_METHODS = ("POST", "PUT", "PATCH", "DELETE")


def _refusal(status: int, code: str, message: str) -> dict[str, Any]:
    return {"statusCode": status, "headers": {"Content-Type": "application/json"},
            "body": json.dumps(error_body(code, message)), "isBase64Encoded": False, "cookies": []}


def media_type(value: str | None) -> str:
    """The media type of a Content-Type value, lower case, without parameters."""
    return (value or "").split(";", 1)[0].strip().lower()


def _normalised_content_type(value: str) -> str:
    """Media types are case-insensitive (RFC 9110); parameters such as a boundary are not."""
    kind, sep, params = value.partition(";")
    return kind.strip().lower() + (sep + params if sep else "")


def prepare(event: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The event with a UTF-8 text body and a lower-cased media type, or an immediate refusal."""
    event = dict(event)
    headers = {str(k).lower(): v for k, v in (event.get("headers") or {}).items()}
    if "content-type" in headers:
        headers["content-type"] = _normalised_content_type(str(headers["content-type"]))
    event["headers"] = headers
    kind = media_type(headers.get("content-type"))
    method = str(((event.get("requestContext") or {}).get("http") or {}).get("method", "")).upper()
    body = event.get("body")
    if not body:
        return event, None
    raw: bytes
    if event.get("isBase64Encoded"):
        try:
            raw = base64.b64decode(str(body), validate=True)
        except (binascii.Error, ValueError):
            return event, _refusal(422, "invalid_request", "The request body could not be read.")
    else:
        raw = str(body).encode("utf-8", "surrogatepass")
    if len(raw) > MAX_BODY:
        return event, _refusal(413, "request_too_large",
                               f"The request body is larger than {MAX_BODY // 1024} KiB.")
    if method in _BODY_METHODS and kind.startswith("multipart/"):
        return event, _refusal(415, "unsupported_media_type",
                               "Send the body as application/json (or a form where one is accepted).")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        if kind and kind not in TEXT_MEDIA_TYPES:
            return event, _refusal(415, "unsupported_media_type",
                                   "Send the body as application/json (or a form where one is accepted).")
        return event, _refusal(422, "invalid_request", "The request body is not UTF-8 text.")
    event["body"], event["isBase64Encoded"] = text, False
    return event, None


def read_json(text: str) -> Any:
    """``json.loads`` with every way it can fail as a 422 (bad JSON, too deep, too long a number)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except RecursionError as error:
        raise ApiError(422, "invalid_request", "The request body is nested too deeply.") from error
    except ValueError as error:
        raise ApiError(422, "invalid_request", "The request body has a number that is too long.") from error


class SafeHttpEvent(APIGatewayProxyEventV2):
    """The HTTP API event whose JSON body fails only with 422s (Powertools maps a
    ``JSONDecodeError``; :func:`read_json` maps the rest)."""

    @cached_property
    def json_body(self) -> Any:
        text = self.decoded_body
        return read_json(text) if text else None


# ---------------------------------------------------------------------- names and notes
_REFUSED_RANGES = (
    (0x00, 0x1F), (0x7F, 0x9F),  # C0 and C1 controls (NUL, escape, line breaks …)
    (0xAD, 0xAD),  # soft hyphen: invisible
    (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
    (0x200B, 0x200F),  # zero-width space/non-joiner/joiner, LRM, RLM
    (0x2028, 0x202E),  # line/paragraph separators, bidi embeddings and overrides
    (0x2060, 0x206F),  # word joiner, invisible operators, bidi isolates, deprecated format chars
    (0x3164, 0x3164), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFFB),
)
"""Refused in every name and note, and published as the field's ``pattern`` in the OpenAPI
document (Basic Multilingual Plane only: JSON Schema's regex dialect has no portable escape beyond it)."""


def _outside_pattern(value: str) -> bool:
    """Refused too, though the published pattern cannot say so: lone surrogates, tag characters."""
    return any(0xD800 <= ord(c) <= 0xDFFF or 0xE0000 <= ord(c) <= 0xE007F for c in value)
_NOTE_ALLOWED = frozenset("\n\t")


def _char_class(allowed: frozenset[str] = frozenset()) -> str:
    parts = []
    for low, high in _REFUSED_RANGES:
        if low == high and chr(low) in allowed:
            continue
        if low <= 0x0A <= high and "\n" in allowed:  # split the C0 range around \t and \n
            parts += ["\\u0000-\\u0008", "\\u000b-\\u001f"]
            continue
        parts.append(f"\\u{low:04x}" if low == high else f"\\u{low:04x}-\\u{high:04x}")
    return "".join(parts)


REFUSED_CLASS = _char_class()
NAME_PATTERN = f"^[^{REFUSED_CLASS}]*$"
NOTE_PATTERN = f"^[^{_char_class(_NOTE_ALLOWED)}]*$"
_NAME_RE = re.compile(NAME_PATTERN)
_NOTE_RE = re.compile(NOTE_PATTERN)


def plain_text(value: str, *, multiline: bool = False) -> str:
    """Names, game names and notes: NFC-normalised, and refused (422 ``invalid_request``) when they
    hold a control character, a bidirectional override or isolate, or an invisible character —
    anything that would let a name on a spectator page look like another or reorder the text
    around it. Notes may hold line breaks and tabs. Refused rather than stripped so that what the
    platform sent is exactly what players see."""
    value = unicodedata.normalize("NFC", value)
    if not (_NOTE_RE if multiline else _NAME_RE).fullmatch(value) or _outside_pattern(value):
        raise PydanticCustomError("text_not_allowed", "contains a control or invisible character")
    return value


def plain_note(value: str) -> str:
    return plain_text(value, multiline=True)
