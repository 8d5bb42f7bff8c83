"""The service as the handlers use it: built once per process, lazily, from the environment.

boto3 clients are created on first use from the standard configuration (region, credentials,
``AWS_ENDPOINT_URL_DYNAMODB`` / ``AWS_ENDPOINT_URL_EVENTS``), so the same handler runs in Lambda,
on the local server and in tests against moto. Tests may pass service overrides (a clock, the
colour draw, a computer budget) through :func:`configure`.
"""

from __future__ import annotations

import sys
from typing import Any

from aws_lambda_powertools.utilities.idempotency import DynamoDBPersistenceLayer

from connect6.api import idempotency
from connect6.api.config import Settings
from connect6.api.deadline import DeadlineBoundService
from connect6.api.invite_tokens import InviteTokens, secret_source
from connect6.delivery.eventbus import EventBridgePublisher
from connect6.game.service import GameService
from connect6.store.dynamo import DynamoStore

_service: GameService | None = None
_publisher: EventBridgePublisher | None = None
_settings: Settings | None = None
_tokens: InviteTokens | None = None
_overrides: dict[str, Any] = {}


def settings() -> Settings:
    global _settings
    if _settings is None:
        _settings = Settings.from_env()
    return _settings


def require(*names: str) -> None:
    """Fail now (a handler's import: the cold start) if, in Lambda, a setting the function needs is
    missing (:meth:`Settings.from_env`); outside Lambda the defaults stand."""
    Settings.check(names)


def service() -> GameService:
    global _service
    if _service is None:
        config = settings()
        store = DynamoStore(config.table_name, config.holds_index_name,
                            clocks_index=config.clocks_index_name)
        options: dict[str, Any] = {"computer_budget_s": config.computer_budget_s,
                                   "board_size": config.board_size}
        if "token_factory" not in _overrides:
            options["invite_token"] = invite_tokens().token_for
        # A play token is always derived from its player id: a fixed token_factory (tests) would give
        # every seat the same link, and the second seat's play index entry would never be written.
        options["play_token"] = invite_tokens().play_token_for
        options.update(_overrides)
        # Its computer's budget is capped by the current invocation's remaining time (api/deadline.py).
        _service = DeadlineBoundService(store, **options)
    return _service


def publisher() -> EventBridgePublisher:
    """The stream-fed publisher's EventBridge side (the game functions never publish)."""
    global _publisher
    if _publisher is None:
        _publisher = EventBridgePublisher(settings().event_bus_name)
    return _publisher


def invite_tokens() -> InviteTokens:
    global _tokens
    if _tokens is None:
        # Nothing is read here: the secret is fetched when the first token is made.
        _tokens = InviteTokens(secret_source(settings().invite_token_secret_arn))
    return _tokens


def idempotency_store() -> DynamoDBPersistenceLayer:
    """Where Idempotency-Key records live: the games table, outside the domain's repository."""
    return idempotency.persistence(settings().table_name)


def configure(**overrides: Any) -> None:
    """Rebuild the service on next use (new settings from the environment, these overrides)."""
    global _service, _settings, _publisher, _tokens
    _overrides.clear()
    _overrides.update(overrides)
    _service = None
    _settings = None
    _publisher = None
    _tokens = None
    idempotency.reset()
    if "aws_lambda_powertools.utilities.parameters" in sys.modules:  # the cached secret
        sys.modules["aws_lambda_powertools.utilities.parameters"].clear_caches()
