"""Invitation tokens derived from a server-side secret, and the sealing of a stored join response."""

from __future__ import annotations

import json
import re

import pytest

from connect6.api.invite_tokens import DEVELOPMENT_SECRET, InviteTokens, secret_from_env
from connect6.api.models import TOKEN_PATTERN


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


def test_an_empty_secret_is_a_development_default_outside_lambda_and_refused_inside(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AWS_LAMBDA_FUNCTION_NAME", raising=False)
    assert secret_from_env("") == DEVELOPMENT_SECRET
    assert secret_from_env("x" * 40) == "x" * 40
    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", "connect6-join")
    monkeypatch.delenv("AWS_SAM_LOCAL", raising=False)
    with pytest.raises(RuntimeError):
        secret_from_env("")
