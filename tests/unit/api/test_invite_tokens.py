"""Invitation tokens derived from a server-side secret, and the sealing of a stored join response."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from aws_lambda_powertools.utilities import parameters
from moto import mock_aws

from connect6.api.config import MissingSetting
from connect6.api.invite_tokens import DEVELOPMENT_SECRET, InviteTokens, secret_source
from connect6.api.models import TOKEN_PATTERN
from connect6.game.repository import StoreUnavailable


@pytest.fixture(autouse=True)
def _no_network(socket_disabled: None) -> None:
    """No sockets here."""


def test_a_token_is_derived_from_the_secret_and_the_invitation_id() -> None:
    tokens = InviteTokens("s" * 32)
    token = tokens.token_for("inv-1")
    assert token == tokens.token_for("inv-1") and len(token) == 43
    assert re.fullmatch(TOKEN_PATTERN, token)
    assert token != tokens.token_for("inv-2")
    assert token != InviteTokens("t" * 32).token_for("inv-1")


def test_sealing_keeps_no_token_and_unsealing_restores_the_exact_body() -> None:
    tokens = InviteTokens("s" * 32)
    token = tokens.token_for("inv-1")
    body = json.dumps({"player_id": "p", "invite": {"invite_id": "inv-1", "name": "Ben",
                                                     "url": f"https://api.example.test/v1/invites/{token}"}})
    stored = {"status_code": 201, "content_type": "application/json", "body": body}
    sealed = tokens.seal(stored)
    assert token not in json.dumps(sealed)
    assert tokens.unseal(sealed) == stored
    no_invite = {**stored, "body": json.dumps({"player_id": "p", "invite": None})}
    assert tokens.seal(no_invite) == no_invite == tokens.unseal(no_invite)


def test_outside_lambda_the_development_secret_stands_in_and_in_lambda_an_arn_is_required(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AWS_LAMBDA_FUNCTION_NAME", raising=False)
    assert secret_source("")() == DEVELOPMENT_SECRET
    # the local server's ARN names the deployed stack's secret, which it does not have
    assert secret_source("connect6-InviteTokenSecret")() == DEVELOPMENT_SECRET
    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", "connect6-join")
    monkeypatch.delenv("AWS_SAM_LOCAL", raising=False)
    source = secret_source("")  # nothing is read (or refused) until a token is made
    tokens = InviteTokens(source)
    with pytest.raises(MissingSetting, match="INVITE_TOKEN_SECRET_ARN"):
        tokens.token_for("inv-1")


@pytest.fixture
def secrets_manager(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", "connect6-join")
    monkeypatch.delenv("AWS_SAM_LOCAL", raising=False)
    for name, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                        "AWS_SESSION_TOKEN": "testing", "AWS_DEFAULT_REGION": "us-east-1"}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    monkeypatch.delenv("AWS_ENDPOINT_URL_SECRETSMANAGER", raising=False)
    parameters.clear_caches()
    with mock_aws():
        yield boto3.client("secretsmanager", region_name="us-east-1")
    parameters.clear_caches()


def test_in_lambda_the_secret_is_read_from_secrets_manager_when_a_token_is_made_and_cached(
        secrets_manager: Any) -> None:
    arn = secrets_manager.create_secret(Name="invite", SecretString="a" * 64)["ARN"]
    tokens = InviteTokens(secret_source(arn))
    assert tokens.token_for("inv-1") == InviteTokens("a" * 64).token_for("inv-1")
    # A rotation is picked up when the cached value expires (here: the cache is cleared)
    secrets_manager.put_secret_value(SecretId=arn, SecretString="b" * 64)
    assert tokens.token_for("inv-1") == InviteTokens("a" * 64).token_for("inv-1")
    parameters.clear_caches()
    assert tokens.token_for("inv-1") == InviteTokens("b" * 64).token_for("inv-1")


def test_a_short_secret_is_refused_and_an_unreadable_one_is_the_store_unavailable(
        secrets_manager: Any) -> None:
    short = secrets_manager.create_secret(Name="short", SecretString="too-short")["ARN"]
    with pytest.raises(RuntimeError, match="shorter than 32"):
        InviteTokens(secret_source(short)).token_for("inv-1")
    gone = short.replace(":short", ":gone")
    with pytest.raises(StoreUnavailable):  # answered 503, like DynamoDB failing
        InviteTokens(secret_source(gone)).token_for("inv-1")
