"""What every function reports with: Powertools' logger (with invitation tokens redacted, see
:mod:`connect6.api.logs`), tracer and metrics, one of each per process, and the names of every
metric the functions add. The HTTP functions get them through their resolver's set-up; the
stream-fed publisher and the sweeper import this module alone, without the HTTP resolver.

The tracer is :class:`LazyTracer`: Powertools' ``Tracer`` (and with it the X-Ray SDK, about 100 ms
of import, and boto3's instrumentation) only where traces can go, in Lambda with tracing not
disabled. Elsewhere (the local server, the tests, the tools) its decorators return the function
untouched and ``aws_xray_sdk`` is never imported. In Lambda nothing changes: the template's
``Tracing: Active`` gives the invocation's segments, and the Tracer adds the handler's and each
route's subsegments and the AWS calls as before."""

from __future__ import annotations

import functools
import logging
import os
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, TypeVar

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit

from connect6.api import logs

if TYPE_CHECKING:
    from aws_lambda_powertools import Tracer

F = TypeVar("F", bound=Callable[..., Any])

# Read-only routes add no metric; Powertools would warn about that on every such request.
warnings.filterwarnings("ignore", message="No application metrics to publish", category=UserWarning)

logger = Logger(service="connect6")
logs.install(logging.getLogger(logger.name))


class LazyTracer:
    """Powertools' ``Tracer`` when :meth:`active`, built on first use (a handler's import, where the
    decorators run); otherwise nothing at all. Decorators with or without options, as Tracer's."""

    def __init__(self, service: str) -> None:
        self.service = service
        self._tracer: Tracer | None = None

    @staticmethod
    def active() -> bool:
        """Traces can be sent: in Lambda (not ``sam local``), ``POWERTOOLS_TRACE_DISABLED`` not true
        (the rule Powertools' Tracer applies itself)."""
        disabled = os.environ.get("POWERTOOLS_TRACE_DISABLED", "false").strip().lower()
        if disabled in ("1", "true", "yes", "on", "y", "t"):
            return False
        return bool(os.environ.get("LAMBDA_TASK_ROOT")) and not os.environ.get("AWS_SAM_LOCAL") \
            and not os.environ.get("AWS_CHALICE_CLI_MODE")

    @property
    def tracer(self) -> Tracer | None:
        """The Powertools tracer, or ``None`` when tracing is off."""
        if self._tracer is None and self.active():
            from aws_lambda_powertools import Tracer

            self._tracer = Tracer(service=self.service)
        return self._tracer

    def capture_lambda_handler(self, handler: F | None = None, **options: Any) -> Any:
        if handler is None:
            return functools.partial(self.capture_lambda_handler, **options)
        found = self.tracer
        return handler if found is None else found.capture_lambda_handler(handler, **options)

    def capture_method(self, method: F | None = None, **options: Any) -> Any:
        if method is None:
            return functools.partial(self.capture_method, **options)
        found = self.tracer
        return method if found is None else found.capture_method(method, **options)


tracer = LazyTracer(service="connect6")
metrics = Metrics(namespace="Connect6", service="connect6")


class Metric:
    """Every metric name (namespace ``Connect6``)."""

    PLAYERS_JOINED: Final = "PlayersJoined"
    GAMES_STARTED: Final = "GamesStarted"
    INVITES_REDEEMED: Final = "InvitesRedeemed"
    MOVES_PLAYED: Final = "MovesPlayed"
    """Turns played, the computer's replies included."""
    GAMES_FINISHED: Final = "GamesFinished"
    COMPUTER_THINK_TIME: Final = "ComputerThinkTime"
    """Milliseconds the computer spent on a request's replies."""
    HOLDS_RELEASED: Final = "HoldsReleased"
    EVENTS_PUBLISHED: Final = "EventsPublished"
    EVENT_RECORDS_FAILED: Final = "EventRecordsFailed"
    STORE_UNAVAILABLE: Final = "StoreUnavailable"
    UNHANDLED_ERRORS: Final = "UnhandledErrors"


def count(name: str, value: int = 1) -> None:
    metrics.add_metric(name=name, unit=MetricUnit.Count, value=value)


def think_time(seconds: float | None) -> None:
    """The computer's thinking time, when it played."""
    if seconds is not None:
        metrics.add_metric(name=Metric.COMPUTER_THINK_TIME, unit=MetricUnit.Milliseconds,
                           value=seconds * 1000)
