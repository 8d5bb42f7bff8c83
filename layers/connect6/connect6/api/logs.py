"""No invitation or play token in any log line the functions write.

The raw token is in the invite and play routes' path (``/v1/invites/<token>``,
``/v1/play/<token>``), their path parameters and the join response's invitation and play URLs. Our
own log lines never carry it; Powertools' internal loggers can, at DEBUG (``Calling API Route
Handler: {'token': ...}``, ``No match found for path
/v1/invites/...``), and so could the whole event if someone set ``POWERTOOLS_LOGGER_LOG_EVENT``.
:class:`TokenRedactor` rewrites any such text before a handler writes it; :func:`install` puts it
on the service logger's handlers, on Powertools' own loggers and on the root handlers Lambda
installs, so it holds at every log level.
"""

from __future__ import annotations

import logging
import re
from typing import Any

_INVITE_PATH = re.compile(r"(/v1/(?:invites|play)/)[A-Za-z0-9_%-]+")  # invitation and play links
_TOKEN_FIELD = re.compile(r"""(["']token["']\s*:\s*["'])[^"']*""")
REDACTED = "<redacted>"

POWERTOOLS_LOGGERS = (
    "aws_lambda_powertools",
    "aws_lambda_powertools.event_handler.api_gateway",
    "aws_lambda_powertools.event_handler.middlewares.openapi_validation",
    "aws_lambda_powertools.event_handler.openapi.dependant",
    "aws_lambda_powertools.utilities.idempotency.base",
    "aws_lambda_powertools.utilities.idempotency.idempotency",
    "aws_lambda_powertools.utilities.idempotency.persistence.base",
    "aws_lambda_powertools.utilities.idempotency.persistence.dynamodb",
    "aws_lambda_powertools.tracing.tracer",
)


def redact(text: str) -> str:
    return _TOKEN_FIELD.sub(rf"\g<1>{REDACTED}", _INVITE_PATH.sub(rf"\g<1>{REDACTED}", text))


def _scrub(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {k: REDACTED if k == "token" else _scrub(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_scrub(v) for v in value)
    return value


class TokenRedactor(logging.Filter):
    """Rewrites a record's message, arguments and structured extras without invitation tokens."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, (dict, list)):
            record.msg = _scrub(record.msg)
            record.args = _scrub(record.args) if record.args else record.args
        else:  # the message as it would be written, without its tokens
            try:
                message = record.getMessage()
            except (TypeError, ValueError):
                message = f"{record.msg} {record.args}"
            record.msg, record.args = redact(message), ()
        for key, value in list(vars(record).items()):
            if key not in ("msg", "args", "exc_info") and isinstance(value, (str, dict, list)):
                setattr(record, key, _scrub(value))
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            error.args = tuple(_scrub(a) for a in error.args)
        return True


_installed: set[int] = set()
REDACTOR = TokenRedactor()


def _add(target: logging.Logger | logging.Handler) -> None:
    if id(target) not in _installed:
        target.addFilter(REDACTOR)
        _installed.add(id(target))


def install(service_logger: logging.Logger) -> None:
    """The redactor on every place a function's log line passes through (idempotent)."""
    for logger in (service_logger, *(logging.getLogger(name) for name in POWERTOOLS_LOGGERS)):
        _add(logger)
        for handler in logger.handlers:
            _add(handler)
    for handler in logging.getLogger().handlers:
        _add(handler)
