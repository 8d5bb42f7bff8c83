"""What every function reports with: Powertools' logger (with invitation tokens redacted, see
:mod:`connect6.api.logs`), tracer and metrics, one of each per process, and the names of every
metric the functions add. The HTTP functions get them through their resolver's set-up; the
stream-fed publisher and the sweeper import this module alone, without the HTTP resolver."""

from __future__ import annotations

import logging
import warnings
from typing import Final

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit

from connect6.api import logs

# Read-only routes add no metric; Powertools would warn about that on every such request.
warnings.filterwarnings("ignore", message="No application metrics to publish", category=UserWarning)

logger = Logger(service="connect6")
logs.install(logging.getLogger(logger.name))
tracer = Tracer(service="connect6")
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
